"""The `worlds` baseline: sound certain moves, its guess order, never a known mine."""

from __future__ import annotations

import random

import pytest
from brute import Position, determined, positions, square
from hypothesis import given, settings

from minesweeper.boards.generate import random_board
from minesweeper.client import play
from minesweeper.errors import MinesweeperError
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.registry import find_strategy
from minesweeper.solver.view import View
from minesweeper.solver.worlds import Worlds
from minesweeper.topology import SquareTopology
from minesweeper.variant import FirstClick


def at(view: View, r: int, c: int) -> int:
    return view.topology.cell_at(r, c)


def test_registered() -> None:
    assert find_strategy("worlds") is Worlds


@settings(max_examples=250, deadline=None)
@given(positions())
def test_certain_moves_are_safe_and_mines_are_mines(position: Position) -> None:
    view = position.view
    truth = determined(view)
    assert truth is not None
    safe, mines = truth
    if set(view.unknown()) <= mines:
        return  # nothing is left to open: the game is already won
    decision = Worlds().decide(view)
    assert not set(decision.opens) & view.mines
    assert all(view.is_unknown(cell) for cell in decision.opens)
    assert decision.mines - view.mines <= mines
    if not decision.guess:
        assert set(decision.opens) <= safe


def test_two_worlds_opens_what_every_world_agrees_on() -> None:
    # No single number settles anything. The 1 at (1,0) leaves two worlds: a mine
    # at (0,0) satisfies the middle 1, clears (0,1) and (0,2), and starves the 1
    # at (1,2): that world dies. The other world has the mine at (0,1).
    view = square(["???", "111", "000"])
    decision = Worlds().decide(view)
    assert not decision.guess
    assert decision.opens == (at(view, 0, 0), at(view, 0, 2))


def test_single_rules_flag_and_clear() -> None:
    view = square(["??", "1?", "00"])
    # (1,0)=1 sees (0,0),(0,1),(1,1); the 0s at row 2 clear (1,1): one mine in (0,0),(0,1).
    decision = Worlds().decide(view)
    assert decision.opens == (at(view, 1, 1),)
    assert not decision.guess


def test_first_guess_is_the_centre_then_top_left() -> None:
    view = View(SquareTopology(5, 5), {})
    strategy = Worlds()
    first = strategy.decide(view)
    assert first.guess and first.opens == (at(view, 2, 2),)
    second = strategy.decide(view)
    assert second.guess and second.opens == (at(view, 0, 0),)


def test_top_left_guess_skips_known_mines_and_revealed_cells() -> None:
    view = square(["F2??", "????", "????"])
    strategy = Worlds()
    strategy._guessed = True  # past the opening
    decision = strategy.decide(view)
    # (0,1)=2 with one known mine: one more among 3 cells; nothing certain.
    assert decision.guess
    assert decision.opens == (at(view, 0, 2),)


def test_centre_already_known_goes_top_left() -> None:
    view = square(["???", "?1?", "???"])
    decision = Worlds().decide(view)
    assert decision.guess and decision.opens == (at(view, 0, 0),)


def test_nothing_to_open_is_a_clear_error() -> None:
    with pytest.raises(MinesweeperError, match="nothing is left to open"):
        Worlds().decide(square(["1?1"]))


def test_contradiction_raises() -> None:
    with pytest.raises(InconsistentView):
        Worlds().decide(square(["1?", "0?"]))


def test_games_are_deterministic_and_never_open_a_mine_it_proved() -> None:
    topology = SquareTopology(9, 9)
    first = topology.cell_at(2, 2)
    for index in range(5):
        board = random_board(topology, 10, random.Random(index), first, FirstClick.OPENING)
        a, b = (play(board, first, Worlds()) for _ in range(2))
        assert (a.won, a.visit_count, a.steps, a.guesses) == (
            b.won,
            b.visit_count,
            b.steps,
            b.guesses,
        )


@settings(max_examples=150, deadline=None)
@given(positions())
def test_a_proved_mine_is_never_opened_later(position: Position) -> None:
    view = position.view
    strategy = Worlds()
    proved: set[int] = set()
    # Ask twice on the same view without passing the proved mines back: the
    # strategy must remember them itself.
    truth = determined(view)
    assert truth is not None
    if set(view.unknown()) <= truth[1]:
        return  # nothing is left to open: the game is already won
    for _ in range(2):
        decision = strategy.decide(view)
        assert not set(decision.opens) & (proved | view.mines)
        proved |= decision.mines


def test_a_reused_instance_forgets_the_last_game() -> None:
    topology = SquareTopology(9, 9)
    first = topology.cell_at(2, 2)
    boards = [
        random_board(topology, 10, random.Random(index), first, FirstClick.OPENING)
        for index in range(6)
    ]
    reused = Worlds()
    for board in boards:
        fresh = play(board, first, Worlds())
        again = play(board, first, reused)
        assert (fresh.won, fresh.visit_count, fresh.steps) == (
            again.won,
            again.visit_count,
            again.steps,
        )
