"""The benchmark harness: Wilson intervals, seeded deals, same games whatever the jobs."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import FirstUnknown, register_doubles, specs
from hypothesis import given
from hypothesis import strategies as st

from minesweeper.bench import (
    BENCH_PRESETS,
    Deal,
    Dealer,
    GameOutcome,
    GroupBy,
    resolve_presets,
    run_bench,
    wilson_interval,
)
from minesweeper.boards.cases import format_case, load_cases
from minesweeper.boards.generate import random_board
from minesweeper.cli import main
from minesweeper.cli.bench import engine_words
from minesweeper.client import GameRecord
from minesweeper.errors import MinesweeperError
from minesweeper.solver.registry import STRATEGIES
from minesweeper.topology import TOPOLOGIES, SquareTopology
from minesweeper.variant import PRESETS, Rules


def strip_seconds(records: Sequence[GameRecord]) -> list[GameRecord]:
    """The records without their CPU seconds, the one thing that varies between runs."""
    return [dataclasses.replace(record, seconds=0) for record in records]


class FirstUnknownTwin(FirstUnknown):
    """The same play under another name: must see exactly the same games."""

    name = "first-unknown-twin"


@pytest.fixture(autouse=True)
def _doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    register_doubles(monkeypatch)
    monkeypatch.setitem(STRATEGIES, FirstUnknownTwin.name, FirstUnknownTwin)


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
# method 3 (Wilson score, no continuity correction), to 4 decimals.
@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_known_values(wins: int, games: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(wins, games)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_wilson_closed_forms() -> None:
    z2 = 1.959963984540054**2
    # With no wins the upper end is z^2 / (n + z^2); with all wins the lower end is n / (n + z^2).
    assert wilson_interval(0, 10)[1] == pytest.approx(z2 / (10 + z2))
    assert wilson_interval(10, 10)[0] == pytest.approx(10 / (10 + z2))
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


@given(st.integers(1, 10_000), st.data())
def test_wilson_contains_the_rate(games: int, data: st.DataObject) -> None:
    wins = data.draw(st.integers(0, games))
    low, high = wilson_interval(wins, games)
    assert 0 <= low <= wins / games <= high <= 1


def test_presets() -> None:
    assert [p.name for p in resolve_presets(["expert", "acm", "expert"])] == [
        "expert",
        "acm-10",
        "acm-15",
        "acm-20",
    ]
    acm = [BENCH_PRESETS[name] for name in ("acm-10", "acm-15", "acm-20")]
    assert [(p.rows, p.cols, p.mines, p.start) for p in acm] == [
        (30, 30, 90, (15, 15)),
        (30, 30, 135, (15, 15)),
        (30, 30, 180, (15, 15)),
    ]
    with pytest.raises(MinesweeperError, match="unknown preset 'huge'"):
        resolve_presets(["huge"])


@pytest.mark.parametrize("rules", list(Rules))
def test_rules_place_the_first_click(rules: Rules) -> None:
    preset = PRESETS["expert"]
    deal = Deal.of_preset(preset, rules, 30)
    for index in range(30):
        board, first = deal.game(7, index)
        assert board.mine_count == 99
        assert first == board.topology.cell_at(*((0, 0) if rules is Rules.CLASSIC else (3, 3)))
        assert not board.is_mine(first)
        if rules is not Rules.CLASSIC:
            assert board.count(first) == 0
    assert rules.tells_mine_count == (rules is not Rules.ACM)


def test_deals_are_reproducible_and_seeded() -> None:
    deal = Deal.of_preset(PRESETS["beginner"], Rules.ACM, 5)
    again = Deal.of_preset(PRESETS["beginner"], Rules.ACM, 5)
    assert [deal.game(1, i) for i in range(5)] == [again.game(1, i) for i in range(5)]
    assert [deal.game(1, i)[0] for i in range(5)] != [deal.game(2, i)[0] for i in range(5)]
    # Game i does not depend on how many games are dealt.
    longer = Deal.of_preset(PRESETS["beginner"], Rules.ACM, 50)
    assert longer.game(1, 3) == deal.game(1, 3)


def test_first_override_and_errors() -> None:
    deal = Deal.of_preset(PRESETS["beginner"], Rules.MODERN, 3, first=(4, 5))
    board, first = deal.game(0, 0)
    assert first == board.topology.cell_at(4, 5)
    with pytest.raises(MinesweeperError, match="outside"):
        Deal.of_preset(PRESETS["beginner"], Rules.MODERN, 3, first=(9, 0))


def test_every_strategy_sees_the_same_games() -> None:
    deals = [Deal.of_preset(PRESETS["intermediate"], Rules.MODERN, 40)]
    names = ["first-unknown", "first-unknown-twin", "first-unknown"]
    one, two = run_bench(deals, specs(*names), seed=3)
    assert one.strategy.name == "first-unknown"
    assert [dataclasses.replace(r, seconds=0) for r in one.records] == [
        dataclasses.replace(r, seconds=0) for r in two.records
    ]


def test_results_do_not_depend_on_jobs() -> None:
    deals = [
        Deal.of_preset(PRESETS["beginner"], Rules.ACM, 60),
        Deal.of_preset(PRESETS["expert"], Rules.CLASSIC, 12),
    ]
    names = ["seeded-guess", "first-unknown"]
    serial = run_bench(deals, specs(*names), seed=5, jobs=1)
    parallel = run_bench(deals, specs(*names), seed=5, jobs=2)

    def strip(results: list) -> list:
        return [
            (r.deal.name, r.strategy, [dataclasses.replace(g, seconds=0) for g in r.records])
            for r in results
        ]

    assert strip(serial) == strip(parallel)
    assert [r.games for r in serial] == [60, 60, 12, 12]


def test_chunks_grow_to_the_executors_duration() -> None:
    deal = Deal.of_preset(PRESETS["expert"], Rules.ACM, 10_000)
    [spec] = specs("first-unknown")
    found: dict = {(0, spec): {}}
    dealer = Dealer([deal], [spec], 0, found, workers=2, chunk_seconds=1.0)
    sizes = []
    while (chunk := dealer()) is not None:
        sizes.append(len(chunk.indices))
        # Games of 10 ms: a chunk of one second holds 100 of them.
        record = GameRecord(True, True, 1, 1, 1, 0, 0.01)
        dealer.record((0, spec), [GameOutcome(record)] * len(chunk.indices))
    assert sizes[:9] == [1, 2, 4, 8, 16, 32, 64, 100, 100]
    assert sum(sizes) == 10_000
    # At the end, chunks shrink so that both workers finish together.
    assert sizes[-3:] == [1, 1, 1] and max(sizes) == 100


def test_a_fast_strategy_runs_at_most_a_chunk_ahead_of_a_slow_one() -> None:
    """Stopped at any point, the two have played the same games but for a chunk's."""
    deal = Deal.of_preset(PRESETS["expert"], Rules.ACM, 2000)
    fast, slow = specs("first-unknown", "seeded-guess")
    found: dict = {(0, fast): {}, (0, slow): {}}
    dealer = Dealer([deal], [fast, slow], 0, found, workers=1, chunk_seconds=0.25)
    dealt = {fast: 0, slow: 0}
    largest = {fast: 0, slow: 0}
    while (chunk := dealer()) is not None:
        spec = chunk.strategy
        dealt[spec] += len(chunk.indices)
        largest[spec] = max(largest[spec], len(chunk.indices))
        assert abs(dealt[fast] - dealt[slow]) <= max(largest.values())
        # 1 ms a game against one second: the slow one's chunks stay at one game.
        record = GameRecord(True, True, 1, 1, 1, 0, 0.001 if spec == fast else 1.0)
        dealer.record((0, spec), [GameOutcome(record)] * len(chunk.indices))
    assert dealt == {fast: 2000, slow: 2000}
    assert largest[fast] == 250 and largest[slow] == 1


def boards_file(path: Path, count: int) -> None:
    texts = []
    for index in range(count):
        rows = 6 if index % 2 else 5
        topology = SquareTopology(rows, 7)
        board = random_board(topology, 5, random.Random(index), 3, "zero")
        texts.append(format_case(board, 3))
    path.write_text("".join(texts))


def test_cli_json_schema(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "--preset",
            "beginner",
            "--preset",
            "acm-10",
            "--games",
            "8",
            "--strategy",
            "first-unknown",
            "--strategy",
            "seeded-guess",
            "--seed",
            "9",
            "--jobs",
            "1",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "first-unknown" in result.stdout and "95% interval" in result.stdout
    data = json.loads(out.read_text())
    assert data["seed"] == 9
    assert len(data["results"]) == 4
    required = {
        "preset": str,
        "rows": int,
        "cols": int,
        "mines": int,
        "rules": str,
        "strategy": str,
        "games": int,
        "wins": int,
        "win_rate": float,
        "ci95": list,
        "median_seconds": float,
    }
    for entry in data["results"]:
        for key, kind in required.items():
            assert isinstance(entry[key], kind), key
        assert entry["rules"] == "acm"
        assert entry["games"] == 8
        low, high = entry["ci95"]
        assert low <= entry["win_rate"] <= high
        assert entry["win_rate"] == entry["wins"] / 8
    assert [(e["preset"], e["strategy"], e["mines"]) for e in data["results"]] == [
        ("beginner", "first-unknown", 10),
        ("beginner", "seeded-guess", 10),
        ("acm-10", "first-unknown", 90),
        ("acm-10", "seeded-guess", 90),
    ]


def test_cli_boards(tmp_path: Path) -> None:
    path = tmp_path / "many.in"
    boards_file(path, 5)
    out = tmp_path / "bench.json"
    args = ["bench", "--boards", str(path), "--strategy", "first-unknown", "--jobs", "1"]
    result = CliRunner().invoke(main, [*args, "--rules", "modern", "--json", str(out)])
    assert result.exit_code == 0, result.output
    # One row for the file by default, whatever the sizes of its boards.
    [entry] = json.loads(out.read_text())["results"]
    assert (entry["preset"], entry["rows"], entry["games"]) == ("many.in", None, 5)
    assert "mixed" in result.stdout
    # The boards bring their layouts, so the seed seeds the strategies only; one name for
    # every row goes in the title, not in a column of its own.
    title = " ".join(result.stdout.split("board ")[0].split())
    engine = engine_words()
    assert title == f"Benchmark: many.in, modern rules, {engine}, strategies seeded 0"
    assert "preset" not in result.stdout and "seed 0" not in result.stdout
    per_game = tmp_path / "games.jsonl"
    sized = [*args, "--rules", "modern", "--group-by", "size"]
    result = CliRunner().invoke(main, [*sized, "--json", str(out), "--per-game", str(per_game)])
    assert result.exit_code == 0, result.output
    entries = json.loads(out.read_text())["results"]
    assert [(e["preset"], e["rows"], e["games"]) for e in entries] == [
        ("many.in", 5, 3),
        ("many.in", 6, 2),
    ]
    assert "Paired" not in result.stdout  # one strategy: nothing to pair, not even by size
    games = [json.loads(line) for line in per_game.read_text().splitlines()]
    # Each line names its board and carries its number among all the boards of the run.
    assert sorted((g["game"], g["board"]) for g in games) == [
        (0, "many.in"),
        (1, "many.in#2"),
        (2, "many.in#3"),
        (3, "many.in#4"),
        (4, "many.in#5"),
    ]
    assert sum(g["won"] for g in games) == sum(e["wins"] for e in entries)
    result = CliRunner().invoke(main, [*args, "--preset", "expert"])
    assert result.exit_code == 2
    assert "drop --preset" in result.stderr


def test_boards_grouped_by_size_pair_over_all_their_games(tmp_path: Path) -> None:
    path = tmp_path / "many.in"
    boards_file(path, 5)
    args = ["bench", "--boards", str(path), "--group-by", "size", "--jobs", "1"]
    result = CliRunner().invoke(main, [*args, "--strategy", "first-unknown", "--strategy", "best"])
    assert result.exit_code == 0, result.output
    paired = result.stdout.split("Paired, game by game on many.in: A-B in points")[1]
    [row] = [line.split() for line in paired.splitlines() if line.startswith("first-unknown")]
    assert row[:3] == ["first-unknown", "best", "5"]  # both sizes' games, in one pair


def test_boards_grouped_by_file_play_as_grouped_by_path(tmp_path: Path) -> None:
    boards_file(tmp_path / "a.in", 3)
    boards_file(tmp_path / "b.in", 2)
    cases = load_cases(tmp_path)
    by_file = Deal.given("dir", cases, Rules.ACM, GroupBy.FILE)
    assert [(deal.name, deal.games, deal.numbers) for deal in by_file] == [
        ("a.in", 3, (0, 1, 2)),
        ("b.in", 2, (3, 4)),
    ]
    [whole] = Deal.given("dir", cases, Rules.ACM)
    # Seeded players get their seed from the board's run-wide number, not from the grouping.
    grouped = run_bench(by_file, specs("seeded-guess"), seed=2)
    [single] = run_bench([whole], specs("seeded-guess"), seed=2)
    assert strip_seconds(single.records) == [
        record for result in grouped for record in strip_seconds(result.records)
    ]


def test_files_of_one_name_in_different_folders_keep_rows_of_their_own(tmp_path: Path) -> None:
    for folder, count in (("basic", 3), ("advanced", 2)):
        (tmp_path / folder).mkdir()
        boards_file(tmp_path / folder / "1.in", count)
    boards_file(tmp_path / "only.in", 1)
    out, log, part = tmp_path / "r.json", tmp_path / "g.jsonl", tmp_path / "part.jsonl"
    args = ["bench", "--boards", str(tmp_path), "--group-by", "file"]
    args += ["--strategy", "first-unknown", "--jobs", "1"]
    result = CliRunner().invoke(main, [*args, "--json", str(out), "--per-game", str(log)])
    assert result.exit_code == 0, result.output
    rows = [(e["preset"], e["games"]) for e in json.loads(out.read_text())["results"]]
    # Folders tell the two 1.in apart; a name no other file has stays as it is.
    assert rows == [("advanced/1.in", 2), ("basic/1.in", 3), ("only.in", 1)]
    table = [line.split()[0] for line in result.stdout.splitlines()[1:] if line.strip()]
    assert table[1:] == ["advanced/1.in", "basic/1.in", "only.in"]
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted((g["preset"], g["board"], g["game"]) for g in games) == [
        ("advanced/1.in", "advanced/1.in", 0),
        ("advanced/1.in", "advanced/1.in#2", 1),
        ("basic/1.in", "basic/1.in", 2),
        ("basic/1.in", "basic/1.in#2", 3),
        ("basic/1.in", "basic/1.in#3", 4),
        ("only.in", "only.in", 5),
    ]
    # A run killed after three games goes on where it stopped and ends with the same rows.
    part.write_text("".join(log.read_text().splitlines(keepends=True)[:3]))
    again = CliRunner().invoke(main, [*args, "--json", str(out), "--resume", str(part)])
    assert again.exit_code == 0, again.output
    assert [(e["preset"], e["games"]) for e in json.loads(out.read_text())["results"]] == rows

    def played(path: Path) -> list[tuple]:
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        return sorted((g["preset"], g["board"], g["game"], g["won"], g["steps"]) for g in lines)

    assert played(part) == played(log)


def test_cli_unknown_strategy() -> None:
    result = CliRunner().invoke(main, ["bench", "--strategy", "nope", "--games", "1"])
    assert result.exit_code == 2
    assert "unknown strategy 'nope'" in result.stderr


@pytest.mark.parametrize("topology", ["hex", "triangle", "tromino", "graph"])
def test_other_topologies(topology: str) -> None:
    deal = Deal.of_preset(PRESETS["beginner"], Rules.ACM, 6, topology=TOPOLOGIES[topology])
    boards = [deal.game(4, index) for index in range(6)]
    assert boards == [deal.game(4, index) for index in range(6)]
    for board, first in boards:
        assert board.topology.name == topology
        assert board.mine_count == 10
        assert board.count(first) == 0 and not board.is_mine(first)
    [result] = run_bench([deal], specs("first-unknown"), seed=4)
    assert result.games == 6


def test_graph_start_is_the_row_major_node() -> None:
    deal = Deal.of_preset(PRESETS["beginner"], Rules.MODERN, 1, topology=TOPOLOGIES["graph"])
    assert deal.game(0, 0)[1] == 2 * 9 + 2


def test_untileable_board_is_a_clear_error() -> None:
    with pytest.raises(MinesweeperError, match="cannot be tiled"):
        Deal.of_preset(PRESETS["beginner"], Rules.ACM, 1, topology=TOPOLOGIES["domino"])
