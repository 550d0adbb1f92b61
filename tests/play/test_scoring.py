"""Points on worked examples: hand-opened cells, chords, floods, flags and the time bonus."""

from __future__ import annotations

from doubles import FakeClock

from minesweeper.board import Board
from minesweeper.play.scoring import open_points, time_bonus, win_bonus
from minesweeper.play.session import GameSession
from minesweeper.topology import SquareTopology


def test_rules() -> None:
    assert open_points(0) == 10
    assert open_points(3) == 3
    assert time_bonus(99, 100) == 9801 // 110 == 89  # expert in 100 s
    assert time_bonus(10, 5) == 100 // 15 == 6  # beginner in 5 s
    assert win_bonus(10, 3, 5) == 15 + 6


def test_flooded_cells_score_nothing() -> None:
    # 3x3, one mine in the corner: opening (0, 0) floods every safe cell.
    session = GameSession.from_board(Board(SquareTopology(3, 3), [8]), clock=FakeClock())
    session.open(0)
    assert session.won
    # 10 for the hand-opened zero; the 7 flooded cells nothing; 1 // 10 = 0 time bonus.
    assert session.points == 10


def test_numbers_score_their_value_and_the_win_adds_the_time_bonus() -> None:
    # .X.X.X.X..   counts 1 . 2 . 2 . 2 . 1 0
    clock = FakeClock()
    session = GameSession.from_board(Board(SquareTopology(1, 10), [1, 3, 5, 7]), clock=clock)
    session.open(9)  # a zero: 10; its flood opens the 1 at 8 for nothing
    assert session.points == 10
    for cell, points in ((0, 11), (2, 13), (4, 15)):
        session.open(cell)
        assert session.points == points
    clock.now = 6.9  # 6 whole seconds: floor(4**2 / (10 + 6)) = 1
    session.open(6)
    assert session.won
    assert session.points == 15 + 2 + 1


def test_chord_scores_each_cell_it_opens_and_correct_flags_score_on_a_win() -> None:
    # .X.
    # ...
    clock = FakeClock()
    session = GameSession.from_board(Board(SquareTopology(2, 3), [1]), clock=clock)
    session.open(4)  # a 1
    session.toggle_flag(1)
    clock.now = 30
    session.chord(4)  # opens four 1s by hand
    assert session.won
    # 1 + 4 * 1 + 5 for the flag + floor(1 / 40) = 0
    assert session.points == 10


def test_wrong_flags_score_nothing_and_a_loss_keeps_its_points() -> None:
    # ..X.
    session = GameSession.from_board(Board(SquareTopology(1, 4), [2]), clock=FakeClock())
    session.toggle_flag(3)  # wrong
    session.open(0)  # a zero floods 0, 1: 10
    assert session.points == 10
    session.toggle_flag(3)
    session.toggle_flag(2)
    session.open(3)  # a 1, and the win: 10 + 1 + 5 (flag) + 1 // 10
    assert session.won and session.points == 16
    lost = GameSession.from_board(Board(SquareTopology(1, 4), [2]))
    lost.open(3)
    lost.open(2)
    assert lost.lost and lost.points == 1
