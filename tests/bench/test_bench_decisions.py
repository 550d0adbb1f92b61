"""`bench --decisions`: a line per guess, as the reference logs have them; playing on."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from minesweeper.bench import Deal
from minesweeper.bench.decisions import position_rows
from minesweeper.cli import main
from minesweeper.client import play, play_on
from minesweeper.solver.best import Best
from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology
from minesweeper.variant import PRESETS, Rules

FIELDS = {"strategy", "board", "move", "guess", "row", "col", "safety", "method"}
FIELDS |= {"mines_left", "hit_mine", "position"}


def bench(*args: str) -> None:
    base = ["bench", "--preset", "intermediate", "--rules", "modern", "--seed", "5"]
    result = CliRunner().invoke(main, [*base, "--jobs", "1", *args])
    assert result.exit_code == 0, result.output


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_one_line_per_guess_with_the_reference_fields(tmp_path: Path) -> None:
    games, decisions = tmp_path / "g.jsonl", tmp_path / "d.jsonl"
    bench("--games", "12", "--strategy", "best", "--per-game", str(games),
          "--decisions", str(decisions))  # fmt: skip
    played, guesses = lines(games), lines(decisions)
    assert len(guesses) == sum(row["guesses"] for row in played) > 0
    deal = Deal.of_preset(PRESETS["intermediate"], Rules.MODERN, 12)
    for row in guesses:
        assert set(row) == FIELDS and row["strategy"] == "best"
        board, _ = deal.game(5, row["board"])
        cell = board.topology.cell_at(row["row"], row["col"])
        assert row["hit_mine"] == board.is_mine(cell)
        assert 0 < row["safety"] < 1 and row["method"] in {
            "look-ahead", "endgame", "region", "fifty-fifty"
        }  # fmt: skip
        assert row["position"][row["row"]][row["col"]] == "?"
        # Every number shown is the board's; every F is a mine.
        for r, text in enumerate(row["position"]):
            for c, char in enumerate(text):
                here = board.topology.cell_at(r, c)
                if char.isdigit():
                    assert int(char) == board.count(here)
                elif char == "F":
                    assert board.is_mine(here)
        assert row["mines_left"] == 40 - "".join(row["position"]).count("F")
    for game in played:
        mine = [row for row in guesses if row["board"] == game["game"]]
        assert [row["guess"] for row in mine] == list(range(1, game["guesses"] + 1))
        assert any(row["hit_mine"] for row in mine) == (not game["won"])


def test_a_resumed_run_logs_each_guess_once(tmp_path: Path) -> None:
    whole, decisions = tmp_path / "whole.jsonl", tmp_path / "d.jsonl"
    bench("--games", "10", "--strategy", "best", "--decisions", str(whole))
    games = tmp_path / "g.jsonl"
    bench("--games", "4", "--strategy", "best", "--resume", str(games),
          "--decisions", str(decisions))  # fmt: skip
    # A line of a game the game log does not hold (killed between the two writes) goes.
    with decisions.open("a") as handle:
        handle.write(json.dumps({"strategy": "best", "board": 7, "guess": 1}) + "\n")
        handle.write('{"strategy": "best", "bo')
    bench("--games", "10", "--strategy", "best", "--resume", str(games),
          "--decisions", str(decisions))  # fmt: skip
    key = lambda row: (row["board"], row["guess"])  # noqa: E731
    assert sorted(lines(decisions), key=key) == sorted(lines(whole), key=key)


def test_playing_on_from_a_guess_replays_the_game() -> None:
    """`play_on` from a position of a game, with the move made there, ends the game alike."""
    deal = Deal.of_preset(PRESETS["expert"], Rules.MODERN, 6)
    checked = 0
    for index in range(6):
        board, first = deal.game(11, index)
        seen: list[tuple[View, Decision, int]] = []
        whole = play(board, first, Best(), True, on_guess=lambda *g, seen=seen: seen.append(g))
        if not seen:
            continue
        view, decision, _ = seen[len(seen) // 2]
        view = view.with_mines(decision.mines)
        again = play_on(board, view, decision.opens[0], Best(), True)
        assert again.won == whole.won
        assert again.visit_count == whole.visit_count
        checked += 1
    assert checked >= 3


def test_position_rows_read_back() -> None:
    view = View(SquareTopology(2, 3), {0: 1, 1: 1}, frozenset({4}), 2)
    assert position_rows(view, [5]) == ["11?", "?FF"]
