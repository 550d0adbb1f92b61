"""Benchmark runs as a user meets them: failed games, the per-game log, --resume, bad options."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import FirstUnknown, register_doubles, specs
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from minesweeper.bench import Deal, GameLog, GameOutcome, run_bench
from minesweeper.bench import runner as bench_runner
from minesweeper.cli import main
from minesweeper.cli.bench import results_table
from minesweeper.client import GameRecord
from minesweeper.play.stats import bbbv
from minesweeper.solver.registry import STRATEGIES
from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View
from minesweeper.topology import TOPOLOGIES
from minesweeper.variant import PRESETS, Rules, Variant


class Exploding(FirstUnknown):
    """Plays like first-unknown, but raises instead of moving in about every third game."""

    name = "exploding"

    def decide(self, view: View) -> Decision:
        if self.seed % 3 == 0:
            raise ValueError(f"no move for seed {self.seed}")
        return super().decide(view)


@pytest.fixture(autouse=True)
def _doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    register_doubles(monkeypatch)
    monkeypatch.setitem(STRATEGIES, Exploding.name, Exploding)


def invoke(*args: str) -> object:
    return CliRunner().invoke(main, ["bench", *args])


BASE = ["--preset", "beginner", "--preset", "intermediate", "--games", "30", "--seed", "4"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_game_costs_only_itself(jobs: int) -> None:
    deal = Deal.of_preset(PRESETS["beginner"], Rules.ACM, 40)
    [bad, good] = run_bench([deal], specs("exploding", "first-unknown"), seed=1, jobs=jobs)
    # It fails where it is asked for a move: after a first click that did not end the game.
    asked = [i for i, record in enumerate(good.records) if record.steps > 1]
    failing = [i for i in asked if deal.player_seed(1, i) % 3 == 0]
    assert failing and [failure.game for failure in bad.errors] == failing
    assert all(f.message.startswith("ValueError: no move for seed") for f in bad.errors)
    assert bad.games == 40 - len(failing)
    # The other games are played as first-unknown plays them.
    kept = [record for i, record in enumerate(good.records) if i not in failing]
    assert [dataclasses.replace(r, seconds=0) for r in bad.records] == [
        dataclasses.replace(r, seconds=0) for r in kept
    ]


def test_cli_reports_failed_games(tmp_path: Path) -> None:
    out, log = tmp_path / "r.json", tmp_path / "g.jsonl"
    result = invoke(
        *BASE, "--strategy", "exploding", "--jobs", "1", "--json", str(out), "--per-game", str(log)
    )
    assert result.exit_code == 1
    assert "errors" in result.stdout  # the table has the column, and the results
    lines = [line for line in result.stderr.splitlines() if line.startswith("minesweeper:")]
    assert lines[0].startswith("minesweeper: beginner exploding game ")
    assert "failed: ValueError: no move for seed" in lines[0]
    entries = json.loads(out.read_text())["results"]
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(logged) == 60
    assert sum(len(e["errors"]) for e in entries) == sum("error" in g for g in logged) > 0
    assert sum(e["games"] for e in entries) == sum("won" in g for g in logged)


def test_resume_after_a_truncated_log_gives_the_same_results(tmp_path: Path) -> None:
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    args = [*BASE, "--strategy", "seeded-guess", "--strategy", "first-unknown", "--jobs", "1"]
    result = invoke(*args, "--per-game", str(full), "--json", str(tmp_path / "full.json"))
    assert result.exit_code == 0, result.output
    lines = full.read_text().splitlines(keepends=True)
    assert len(lines) == 120
    # Killed at about half, in the middle of writing a line.
    part.write_text("".join(lines[:55]) + lines[55][:20])
    result = invoke(*args, "--resume", str(part), "--json", str(tmp_path / "part.json"))
    assert result.exit_code == 0, result.output

    def results(name: str) -> list[dict]:
        data = json.loads((tmp_path / name).read_text())["results"]
        return [{k: v for k, v in e.items() if k != "median_seconds"} for e in data]

    assert results("part.json") == results("full.json")

    def games(path: Path) -> list[tuple]:
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        return sorted((r["preset"], r["strategy"], r["game"], r["won"], r["steps"]) for r in rows)

    # The kept 55 games were not played again, the truncated one was, nothing twice.
    assert part.read_text().startswith("".join(lines[:55]))
    assert games(part) == games(full)
    # A complete log: resuming plays nothing and reports the same table again.
    result = invoke(*args, "--resume", str(part), "--json", str(tmp_path / "again.json"))
    assert result.exit_code == 0, result.output
    assert results("again.json") == results("full.json")


def test_resume_refuses_another_run(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    args = ["--preset", "beginner", "--games", "4", "--strategy", "first-unknown", "--jobs", "1"]
    assert invoke(*args, "--per-game", str(log)).exit_code == 0
    result = invoke(*args, "--seed", "5", "--resume", str(log))
    assert result.exit_code == 2
    assert result.stderr == f"minesweeper: line 1: {log}: seed 0 is not this run's 5\n"
    result = invoke(*args, "--per-game", str(log))
    assert result.exit_code == 2
    assert "exists; --resume it" in result.stderr
    log.write_text('{"seed": 0}\n')
    result = invoke(*args, "--resume", str(log))
    assert result.exit_code == 2
    assert "line 1" in result.stderr and "not part of this run" in result.stderr
    log.write_text(log.read_text() + "not json\n")
    result = invoke(*args, "--resume", str(log))
    assert result.exit_code == 2
    assert result.stderr == (
        f"minesweeper: line 2: {log}: not valid JSON (Expecting value): "
        "not a line of a per-game log\n"
    )


@pytest.mark.parametrize("option", ["--json", "--per-game", "--resume"])
def test_output_paths_are_checked_before_any_game(tmp_path: Path, option: str) -> None:
    log = tmp_path / "g.json"
    other = "--per-game" if option == "--json" else "--json"
    result = invoke(
        "--games", "5", "--jobs", "1", option, str(tmp_path / "nodir" / "x"), other, str(log)
    )
    assert result.exit_code == 2
    assert result.stderr == (
        f"minesweeper: {option} {tmp_path}/nodir/x: no folder {tmp_path}/nodir\n"
    )
    assert not log.exists()  # nothing was started
    result = invoke("--games", "5", option, str(tmp_path))
    assert result.exit_code == 2 and "is a folder" in result.stderr


def test_jobs_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    result = invoke("--games", "1", "--jobs", "100000")
    assert result.exit_code == 2 and "100000" in result.stderr
    asked = []
    real = bench_runner.open_executor

    def spy(jobs: int, cluster: str | None = None) -> object:
        asked.append(jobs)
        return real(1, cluster)

    monkeypatch.setattr(bench_runner, "open_executor", spy)
    deal = Deal.of_preset(PRESETS["beginner"], Rules.ACM, 1)
    run_bench([deal], specs("first-unknown", "seeded-guess"), jobs=8)
    assert asked == [2]  # never more processes than games to play


def test_table_fits_80_columns_and_names_the_topology() -> None:
    deals = [
        Deal.of_preset(PRESETS[name], Rules.ACM, 2, topology=TOPOLOGIES["hex"])
        for name in ("intermediate", "expert")
    ]
    results = run_bench(deals, specs("first-unknown", "seeded-guess"))
    [longest] = specs("gauss-powermean")
    renamed = [dataclasses.replace(r, strategy=longest) for r in results]
    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(results_table(renamed, 12345, Rules.CLASSIC, TOPOLOGIES["hex"]))
    text = console.export_text()
    assert max(map(len, text.splitlines())) <= 80
    assert "Benchmark: seed 12345, classic rules, hex cells" in text
    assert text.count("gauss-powermean") == 4  # nothing folded


def test_bench_without_a_cluster_does_not_load_dask() -> None:
    code = (
        "import sys; from minesweeper.cli import main\n"
        "try:\n    main(['bench', '--games', '2', '--preset', 'beginner', '--jobs', '2'],"
        " standalone_mode=False)\n"
        "finally:\n    print(' '.join(sys.modules), file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded = result.stderr.split()
    assert "minesweeper.bench" in loaded
    assert not [name for name in loaded if name.startswith(("dask", "distributed"))]


def test_log_lines_name_their_game(tmp_path: Path) -> None:
    deal = Deal.of_preset(PRESETS["beginner"], Rules.MODERN, 3)
    log = GameLog.create(tmp_path / "g.jsonl", 7)
    run_bench([deal], specs("first-unknown"), seed=7, log=log)
    log.close()
    rows = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert [(r["seed"], r["preset"], r["rules"], r["game"]) for r in rows] == [
        (7, "beginner", "modern", 0),
        (7, "beginner", "modern", 1),
        (7, "beginner", "modern", 2),
    ]
    assert {"won", "visit_count", "steps", "safe_cells", "guesses", "seconds"} <= set(rows[0])


def test_per_game_statistics_go_into_the_log_and_come_back(tmp_path: Path) -> None:
    deal = Deal.of_preset(PRESETS["beginner"], Rules.ACM, 3)
    log = GameLog.create(tmp_path / "g.jsonl", 0)
    [result] = run_bench([deal], specs("first-unknown"), log=log)
    log.close()
    rows = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert [row["bbbv"] for row in rows] == [bbbv(deal.game(0, i)[0]) for i in range(3)]
    again, done = GameLog.resume(tmp_path / "g.jsonl", 0, [deal], specs("first-unknown"))
    again.close()
    assert [done["beginner", "first-unknown", i].record for i in range(3)] == list(result.records)


def test_two_runs_never_share_a_log(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    deal = Deal.of_preset(PRESETS["beginner"], Rules.ACM, 2)
    log = GameLog.create(path, 0)
    result = invoke("--preset", "beginner", "--games", "2", "--jobs", "1", "--resume", str(path))
    assert result.exit_code == 2
    assert result.stderr == f"minesweeper: {path} is in use by another bench run ({path}.lock)\n"
    log.close()
    again, done = GameLog.resume(path, 0, [deal], specs("first-unknown"))
    again.close()
    assert done == {}


def test_group_by_needs_boards() -> None:
    result = invoke("--games", "1", "--group-by", "size")
    assert result.exit_code == 2
    assert result.stderr == "minesweeper: --group-by groups --boards: give --boards or drop it\n"


records = st.builds(
    GameRecord,
    won=st.booleans(),
    finished=st.booleans(),
    visit_count=st.integers(0, 10**6),
    steps=st.integers(0, 10**6),
    safe_cells=st.integers(0, 10**6),
    guesses=st.integers(0, 10**3),
    seconds=st.floats(0, 1e4, allow_nan=False),
    bbbv=st.none() | st.integers(0, 10**4),
)
outcomes = st.builds(GameOutcome, records) | st.builds(
    GameOutcome, st.none(), st.text(min_size=1, max_size=40)
)


@settings(max_examples=25, deadline=None)
@given(st.lists(outcomes, min_size=1, max_size=6))
def test_a_log_reads_back_what_it_wrote(played: list[GameOutcome]) -> None:
    deal = Deal.of_preset(PRESETS["beginner"], Rules.ACM, len(played))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.jsonl"
        log = GameLog.create(path, 3)
        [worlds] = specs("worlds")
        log.write(deal, worlds, dict(enumerate(played)))
        log.close()
        again, done = GameLog.resume(path, 3, [deal], specs("worlds"))
        again.close()
    assert [done["beginner", "worlds", i] for i in range(len(played))] == played


def test_resume_refuses_boards_of_another_size(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    args = ["--preset", "expert", "--games", "2", "--strategy", "first-unknown", "--jobs", "1"]
    assert invoke(*args, "--rows", "20", "--per-game", str(log)).exit_code == 0
    assert json.loads(log.read_text().splitlines()[0])["size"] == "20x30/124"
    result = invoke(*args, "--resume", str(log))
    assert result.exit_code == 2
    assert "board '20x30/124' is not this run's 16x30/99" in result.stderr


def test_a_preset_on_a_tiling_benches_the_board_play_deals() -> None:
    # `bench --preset expert --topology domino` played 16x30 squares' worth of dominoes
    # (240) with expert's 99 mines: 41% of the pieces, a board no face deals.
    result = invoke(
        "--preset",
        "expert",
        "--preset",
        "beginner",
        "--topology",
        "domino",
        "--strategy",
        "first-unknown",
        "--games",
        "2",
        "--jobs",
        "1",
    )
    assert result.exit_code == 0, result.output
    for level in ("expert", "beginner"):
        game = Variant.preset(level, TOPOLOGIES["domino"])
        assert f"{game.rows}x{game.cols}/{game.mines}" in result.output
