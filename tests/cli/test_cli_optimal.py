"""`minesweeper analyze --optimal`: perfect play of a position, through the command."""

from __future__ import annotations

import functools
import json
import re
from fractions import Fraction

import pytest
from click.testing import CliRunner

from minesweeper.boards.position import read_position
from minesweeper.cli import main, optimal
from minesweeper.solver.best import Best
from minesweeper.solver.perfect import OutOfReach, Reach, perfect_play
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology

#: A corner's 1 on a 3x4 board of three mines: 84 layouts fit.
POSITION = "3 4\n1???\n????\n????\n"


def run(*args: str, text: str = POSITION):
    return CliRunner().invoke(main, ["analyze", "--optimal", *args], input=text)


def test_json_gives_each_moves_exact_chance_and_bests_cost() -> None:
    result = run("--mines", "3", "--format", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    view = read_position(POSITION.encode(), SquareTopology, 3)
    play = perfect_play(view)
    assert found["layouts"] == 84 and Fraction(found["chance"]) == play.chance
    chances = [Fraction(move["chance"]) for move in found["moves"]]
    assert chances == sorted(chances, reverse=True) and chances[0] == play.chance
    assert len(chances) == len(view.unknown())  # no cell is a mine in every layout here
    assert all(Fraction(move["chance"]) == chances[0] for move in found["moves"][:2])
    assert [tuple(cell) for cell in found["best"]] == [view.topology.position(c) for c in play.best]
    chosen = found["strategy"]
    cell = view.topology.cell_at(*chosen["cell"])
    assert cell == Best().decide(view).opens[0]
    assert chosen["cost"] == float(play.chance - play.of(cell).chance) >= 0


def test_text_says_the_chance_the_best_moves_and_every_move() -> None:
    result = run("--mines", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    head = re.fullmatch(r"mines: 3; layouts that fit: 84; positions valued: (\d+)", lines[0])
    assert head and 0 < int(head[1]) < 84 * 2**11  # (as many as the search met, pruned)
    assert lines[1] == "perfect play wins 63.10% (53/84); best move(s): (1,2) (2,0)"
    assert lines[2].startswith("best's move (")
    assert lines[4] == "  (1,2)  63.10%  53/84" and len(lines) == 4 + 11
    assert max(map(len, lines)) <= 80


def test_the_mine_count_unknown_weighs_layouts_by_the_prior() -> None:
    result = run("--format", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    view = read_position(POSITION.encode(), SquareTopology, None)
    assert Fraction(found["chance"]) == perfect_play(view).chance
    assert (
        found["layouts"] == 3 * 2**8
    )  # any count: one of the 1's three cells, any of the 8 others


def test_past_its_reach_one_line_and_exit_status_2() -> None:
    empty = "6 6\n" + "??????\n" * 6
    result = run("--mines", "8", text=empty)
    assert result.exit_code == 2
    assert result.output == (
        "minesweeper: past perfect play's reach: more than 250,000 layouts fit (36 unknown cells)\n"
    )


def partial_at(view: View, positions: int) -> bool:
    """Whether ``positions`` are enough to value the best moves and not every move."""
    try:
        return not perfect_play(view, reach=Reach(positions=positions), partial=True).complete
    except OutOfReach:
        return False


def test_past_its_reach_once_the_best_moves_are_valued_the_rest_show_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = read_position(POSITION.encode(), SquareTopology, 3)
    full = perfect_play(view)
    budget = next(b for b in range(1, full.positions) if partial_at(view, b))
    monkeypatch.setattr(optimal, "Reach", functools.partial(Reach, positions=budget))
    found = json.loads(run("--mines", "3", "--format", "json").output)
    assert found["complete"] is False
    assert Fraction(found["chance"]) == full.chance
    assert [tuple(cell) for cell in found["best"]] == [view.topology.position(c) for c in full.best]
    bounded = [move for move in found["moves"] if not move["exact"]]
    assert bounded
    for move in found["moves"]:
        value = full.of(view.topology.cell_at(*move["cell"])).chance
        assert (
            Fraction(move["chance"]) == value
            if move["exact"]
            else value <= Fraction(move["chance"])
        )
    assert found["strategy"]["exact"] is True  # `best`'s move is valued before the others
    lines = run("--mines", "3").output.splitlines()
    assert lines[3] == (
        f"not every move valued within the limits: {len(bounded)} of {len(found['moves'])} "
        "show a bound (at most)"
    )
    assert sum(" at most " in line for line in lines[5:]) == len(bounded)
