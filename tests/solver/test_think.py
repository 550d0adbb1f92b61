"""``--think N[UNIT]``: a strategy with its budget in its unit, from the command line to bench
workers and logs."""

from __future__ import annotations

import dataclasses
import io
import json
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from doubles import register_doubles, specs
from paths import ROOT

from minesweeper.advanced import run_case
from minesweeper.bench import Chunk, Deal, play_chunk, run_bench
from minesweeper.boards.cases import parse_case
from minesweeper.cli import main
from minesweeper.solver.registry import StrategySpec, StrategySpecError
from minesweeper.solver.search import Search
from minesweeper.solver.think import MAX_THINK_MS, Think, ThinkError
from minesweeper.topology import TOPOLOGIES
from minesweeper.tui.app import MinesweeperApp
from minesweeper.variant import PRESETS, Rules

CASE = ROOT / "testcases" / "advanced" / "adv-06x09-008.in"
#: How range and unit errors name the units.
RANGES = "60000 ms, 10000 layouts, 60000 positions"
NAMES = "ms, layouts, positions"
#: Every command that picks a strategy, with the arguments it needs to run quickly.
COMMANDS = {
    "advanced": ["advanced", str(CASE)],
    "bench": ["bench", "--games", "2", "--jobs", "1", "--preset", "beginner"],
    "autoplay": ["autoplay", "--seed", "1", "--quiet"],
    "client": ["client"],
    "grade": ["grade", str(CASE)],
    "play": ["play"],
}


@pytest.fixture(autouse=True)
def _doubles(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    register_doubles(monkeypatch)
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


# -- the spec ---------------------------------------------------------------------------------


def test_a_spec_builds_its_strategy_with_the_budget_in_its_unit() -> None:
    assert StrategySpec("pondering", Think(250)).build(3).think == 250
    assert StrategySpec("search", Think(250, None)).build(3).think == 250
    assert StrategySpec("search").build().think == Search.think.default == 500
    assert StrategySpec("search").budget == Think(500, "positions")
    assert StrategySpec("search", Think(0, "positions")).budget == Think(0, "positions")
    assert StrategySpec("best").budget is None and not StrategySpec("best").thinks
    assert StrategySpec("search", Think(40, None)).label == "search (think 40 positions)"
    assert StrategySpec("pondering", Think(40)).label == "pondering (think 40 ms)"
    assert StrategySpec("best").label == "best"


def test_a_spec_refuses_a_budget_it_cannot_use() -> None:
    with pytest.raises(StrategySpecError, match=r"'best' does not think.*search"):
        StrategySpec("best", Think(10))
    for bad in (-1, MAX_THINK_MS + 1):
        with pytest.raises(ThinkError, match="out of range"):
            Think(bad)
    assert Think.parse(" 250 ") == Think(250, None)
    assert Think.parse("250ms") == Think.parse("250 ms") == Think(250, "ms")
    assert Think.parse("64layouts") == Think(64, "layouts")
    assert Think.parse("500 positions") == Think(500, "positions")
    for text in ("1.5", "ten", "-", "9" * 40):
        with pytest.raises(ThinkError):
            Think.parse(text)


def test_choose_gives_the_budget_to_those_that_think() -> None:
    chosen = StrategySpec.choose(["best", "search", "best"], Think(30, None))
    assert chosen == [StrategySpec("best"), StrategySpec("search", Think(30, "positions"))]
    assert StrategySpec.choose(["best"]) == [StrategySpec("best")]
    with pytest.raises(StrategySpecError, match="none of 'best', 'worlds' thinks"):
        StrategySpec.choose(["best", "worlds"], Think(30))


def test_each_strategy_counts_its_budget_in_its_own_unit() -> None:
    # A budget without a unit takes the unit of the strategy it goes to.
    bare = Think.parse("64")
    assert StrategySpec("search", bare).think == Think(64, "positions")
    assert StrategySpec("rollout", bare).think == Think(64, "layouts")
    assert StrategySpec("pondering", bare).think == Think(64, "ms")
    chosen = StrategySpec.choose(["search", "rollout"], bare)
    assert [spec.label for spec in chosen] == [
        "search (think 64 positions)",
        "rollout (think 64 layouts)",
    ]
    # One budget per unit, each to the strategies that count in it.
    budgets = [Think(8, "layouts"), Think(50, "positions"), Think(3)]
    chosen = StrategySpec.choose(["search", "rollout", "pondering"], budgets)
    assert [spec.think for spec in chosen] == [
        Think(50, "positions"),
        Think(8, "layouts"),
        Think(3),
    ]
    chosen = StrategySpec.choose(["best", "search", "rollout"], [Think(8, "layouts")])
    assert [spec.label for spec in chosen] == [
        "best",
        "search (think 500 positions)",
        "rollout (think 8 layouts)",
    ]
    with pytest.raises(StrategySpecError, match="'rollout' counts its budget in layouts, not ms"):
        StrategySpec("rollout", Think(50))
    with pytest.raises(StrategySpecError, match="'search' counts its budget in positions, not ms"):
        StrategySpec("search", Think(50))
    with pytest.raises(StrategySpecError, match="8 layouts fits no chosen strategy"):
        StrategySpec.choose(["best", "search"], Think(8, "layouts"))
    with pytest.raises(StrategySpecError, match="two budgets for 'search'"):
        StrategySpec.choose(["search"], [Think(8, None), Think(9, None)])
    with pytest.raises(StrategySpecError, match=r"20000 layouts is out of range \(0 to 10000"):
        StrategySpec("rollout", Think(20000, None))
    assert Think(8, "layouts").fields() == {"think_layouts": 8}
    assert Think(100).fields() == {"think_ms": 100}


def test_bench_records_a_budget_in_layouts_and_resumes_only_the_same(tmp_path: Path) -> None:
    log, out = tmp_path / "g.jsonl", tmp_path / "r.json"
    args = [*COMMANDS["bench"], "--strategy", "rollout", "--strategy", "pondering"]
    result = invoke(
        *args, "--think", "2", "--think", "3ms", "--per-game", str(log), "--json", str(out)
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert {(row["strategy"], row.get("think_ms"), row.get("think_layouts")) for row in rows} == {
        ("rollout", None, 2),
        ("pondering", 3, None),
    }
    results = json.loads(out.read_text())["results"]
    assert [(r["strategy"], r.get("think_ms"), r.get("think_layouts")) for r in results] == [
        ("rollout", None, 2),
        ("pondering", 3, None),
    ]
    again = invoke(*args, "--think", "3", "--resume", str(log))
    assert again.exit_code == 2
    assert "think 2 layouts of rollout is not this run's think 3 layouts (--think)" in again.stderr
    before = log.read_text()
    # The same run: 2 layouts for rollout, the bare 3 in pondering's unit, ms.
    assert invoke(*args, "--think", "2layouts", "--think", "3", "--resume", str(log)).exit_code == 0
    assert (
        invoke(*args, "--think", "2layouts", "--think", "3ms", "--resume", str(log)).exit_code == 0
    )
    assert log.read_text() == before


def test_help_says_each_strategy_s_unit() -> None:
    result = invoke("bench", "--help")
    text = " ".join(result.stdout.split())
    assert "rollout: 16 layouts by default" in text and "search: 500 positions by default" in text
    assert "ms: milliseconds of CPU time per guess, at most 60000" in text  # pondering's
    assert "layouts: layouts played on per searched guess, at most 10000" in text
    assert "positions: positions the look-ahead solves per guess, at most 60000" in text


def test_a_chunk_carries_the_budget_to_a_worker() -> None:
    # Process pools and Dask pickle the chunk: the budget must survive the trip.
    deal = Deal.of_preset(PRESETS["beginner"], Rules.CLASSIC, 6)
    chunk = Chunk.of(0, deal, StrategySpec("pondering", Think(3)), 2, tuple(range(6)))
    again = pickle.loads(pickle.dumps(chunk))
    assert again.strategy == StrategySpec("pondering", Think(3))
    played = [o.record for o in play_chunk(again)]
    by_hand = Chunk.of(0, deal, StrategySpec("pondering", Think(3)), 2, tuple(range(6)))
    assert strip(played) == strip([o.record for o in play_chunk(by_hand)])


# -- bench ------------------------------------------------------------------------------------


def strip(records: list) -> list:
    return [dataclasses.replace(record, seconds=0) for record in records]


def test_bench_workers_play_with_the_budget_given() -> None:
    deals = [Deal.of_preset(PRESETS["beginner"], Rules.CLASSIC, 30)]
    given = [StrategySpec("pondering", Think(3))]
    [serial] = run_bench(deals, given, seed=1, jobs=1)
    [pooled] = run_bench(deals, given, seed=1, jobs=2)
    [default] = run_bench(deals, specs("pondering"), seed=1, jobs=2)
    assert strip(serial.records) == strip(pooled.records)
    assert strip(pooled.records) != strip(default.records)  # 3 ms is not the default 5 ms


def test_bench_compares_a_thinking_strategy_with_others(tmp_path: Path) -> None:
    log, out = tmp_path / "g.jsonl", tmp_path / "r.json"
    args = [*COMMANDS["bench"], "--strategy", "first-unknown", "--strategy", "pondering"]
    result = invoke(*args, "--think", "3", "--per-game", str(log), "--json", str(out))
    assert result.exit_code == 0, result.output
    assert "think per guess: pondering 3 ms" in result.stdout  # the caption, not the rows
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert {(row["strategy"], row.get("think_ms")) for row in rows} == {
        ("first-unknown", None),
        ("pondering", 3),
    }
    results = json.loads(out.read_text())["results"]
    assert [(r["strategy"], r["think_ms"]) for r in results] == [
        ("first-unknown", None),
        ("pondering", 3),
    ]


def test_resume_refuses_a_log_of_another_budget(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    args = [*COMMANDS["bench"], "--strategy", "pondering"]
    assert invoke(*args, "--think", "3", "--per-game", str(log)).exit_code == 0
    result = invoke(*args, "--think", "4", "--resume", str(log))
    assert result.exit_code == 2
    assert result.stderr == (
        f"minesweeper: line 1: {log}: think 3 ms of pondering is not this run's "
        "think 4 ms (--think)\n"
    )
    result = invoke(*args, "--resume", str(log))  # no --think: the default, 5 ms
    assert result.exit_code == 2 and "is not this run's think 5 ms" in result.stderr
    before = log.read_text()
    assert invoke(*args, "--think", "3", "--resume", str(log)).exit_code == 0
    assert log.read_text() == before  # the same run: nothing played again


def test_resume_refuses_a_log_without_a_budget_for_a_strategy_that_thinks(
    tmp_path: Path,
) -> None:
    log = tmp_path / "g.jsonl"
    args = [*COMMANDS["bench"], "--strategy", "pondering"]
    assert invoke(*args, "--per-game", str(log)).exit_code == 0
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    log.write_text("".join(json.dumps({**r, "think_ms": None}) + "\n" for r in rows))
    result = invoke(*args, "--resume", str(log))
    assert result.exit_code == 2
    assert "line 1" in result.stderr and "no think budget of pondering" in result.stderr


# -- every command that picks a strategy ------------------------------------------------------


def one_line_usage(stderr: str, command: str) -> str:
    """The problem in ``stderr``, checked to be one usage line of ``command`` with its hint."""
    problem, hint = stderr.rsplit(" (see '", 1)
    assert problem.startswith(f"minesweeper: {command}: ")
    assert hint.endswith(f" {command} --help')\n") and "\n" not in problem
    return problem.removeprefix(f"minesweeper: {command}: ")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_think_for_a_strategy_that_does_not_think_is_a_usage_error(name: str) -> None:
    result = invoke(*COMMANDS[name], "--strategy", "best", "--think", "50")
    assert result.exit_code == 2
    assert one_line_usage(result.stderr, name) == (
        "--think: strategy 'best' does not think "
        "(strategies that think: pondering, rollout, search)"
    )


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("-1", f"-1 is out of range (0 to {RANGES} per guess)"),
        ("-1ms", "-1 ms is out of range (0 to 60000 ms per guess)"),
        ("60001", f"60001 is out of range (0 to {RANGES} per guess)"),
        ("9" * 5000, f"999999999999... is out of range (0 to {RANGES} per guess)"),
        ("2.5", f"'2.5' is not a whole number (with a unit: {NAMES})"),
        ("1e3", f"'1e3' is not a whole number (with a unit: {NAMES})"),
        ("x" * 100, f"'{'x' * 12}...' is not a whole number (with a unit: {NAMES})"),
        ("", f"'' is not a whole number (with a unit: {NAMES})"),
        ("5 s", f"'5 s': unknown unit 's' (units: {NAMES})"),
    ],
)
def test_bad_budgets_are_one_line_usage_errors(name: str, value: str, problem: str) -> None:
    result = invoke(*COMMANDS[name], "--strategy", "search", "--think", value)
    assert result.exit_code == 2
    assert one_line_usage(result.stderr, name) == f"Invalid value for '--think': {problem}"


def test_advanced_plays_as_the_strategy_with_that_budget_plays() -> None:
    case = parse_case(CASE.read_bytes(), TOPOLOGIES["square"], CASE.name)
    traces = {}
    for think in (3, 4):
        result = invoke("advanced", "--strategy", "pondering", "--think", str(think), "--trace",
                        str(CASE))  # fmt: skip
        assert result.exit_code in (0, 1), result.output
        traces[think] = result.stderr
        expected = io.StringIO()
        run_case(case, StrategySpec("pondering", Think(think)).build(), expected)
        assert result.stderr == expected.getvalue()
    assert traces[3] != traces[4]


def test_autoplay_plays_with_the_budget_given(tmp_path: Path) -> None:
    def moves(*think: str) -> str:
        args = ["autoplay", "--seed", "4", "--preset", "expert", "--rules", "classic"]
        result = invoke(*args, "--strategy", "pondering", *think, "--records", str(tmp_path / "r"))
        assert result.exit_code == 0, result.output
        return "\n\n".join(result.stdout.split("\n\n")[:2])  # the first click, then a guess

    assert moves("--think", "5") == moves()  # 5 ms is pondering's default
    assert moves("--think", "6") != moves()


def test_grade_refuses_a_budget_no_built_in_client_uses() -> None:
    for foreign in ("--server", "--client"):
        result = invoke("grade", foreign, "true", "--strategy", "search", "--think", "7", str(CASE))
        assert result.exit_code == 2
        assert result.stderr == (
            "minesweeper: --think: the built-in client does not play with --server or "
            "--client: drop --think\n"
        )


def test_client_and_grade_take_the_budget() -> None:
    result = invoke("grade", "--strategy", "search", "--think", "7", str(CASE))
    assert result.exit_code == 0, result.output
    assert "search (think 7 positions)" in result.stdout
    # Two unknown cells, (0, 2) and (1, 2): pondering picks by its budget in ms.
    for think, move in (("2", "0 2"), ("1", "1 2")):
        args = ("client", "--strategy", "pondering", "--think", think)
        result = invoke(*args, stdin="2 3\n01?\n01?\n")
        assert result.stdout == move + "\n"  # then the judge (stdin) ends


def test_play_gives_the_budget_to_its_computer_and_its_hint(monkeypatch, tmp_path) -> None:
    apps: list[MinesweeperApp] = []
    monkeypatch.setattr("minesweeper.cli.play.is_terminal", lambda: True)
    monkeypatch.setattr(MinesweeperApp, "run", lambda self: apps.append(self))
    args = ["play", "--strategy", "search", "--think", "7", "--records", str(tmp_path / "r")]
    assert invoke(*args).exit_code == 0
    (app,) = apps
    controller = app.controller
    assert controller.strategy == StrategySpec("search", Think(7, "positions"))
    controller.start_computer()
    assert controller.auto is not None and controller.auto.strategy.think == 7
    assert controller.message == "the computer plays (search)"
