"""`gauss-powermean`: all certain moves first, then the lowest power-mean score."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from brute import Position, determined, positions, square
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper.boards.generate import random_board
from minesweeper.client import play
from minesweeper.errors import MinesweeperError
from minesweeper.game import Game
from minesweeper.solver.gauss import deduce
from minesweeper.solver.powermean import GaussPowerMean, power_mean
from minesweeper.solver.registry import find_strategy
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology
from minesweeper.variant import FirstClick


def at(view: View, r: int, c: int) -> int:
    return view.topology.cell_at(r, c)


def test_registered() -> None:
    assert find_strategy("gauss-powermean") is GaussPowerMean


@given(st.lists(st.floats(0.001, 1), min_size=1, max_size=8))
def test_power_mean_orders(values: list[float]) -> None:
    assert power_mean(values, 1) == pytest.approx(statistics.fmean(values))
    assert power_mean(values, 0) == pytest.approx(statistics.geometric_mean(values))
    assert power_mean(values, -1) == pytest.approx(statistics.harmonic_mean(values))
    assert min(values) <= power_mean(values, 3) * (1 + 1e-9)
    assert power_mean(values, 3) <= max(values) * (1 + 1e-9)
    assert power_mean(values, 0.5) <= power_mean(values, 2) * (1 + 1e-9)


def test_power_mean_of_a_zero() -> None:
    assert power_mean([0.0, 0.5], 0) == 0
    assert power_mean([0.0, 0.5], -1) == 0
    assert power_mean([0.0, 0.5], 1) == 0.25


@settings(max_examples=250, deadline=None)
@given(positions())
def test_certain_moves_are_every_safe_cell_deduction_finds(position: Position) -> None:
    view = position.view
    truth = determined(view)
    assert truth is not None
    safe, mines = truth
    if set(view.unknown()) <= mines:
        return  # nothing is left to open: the game is already won
    decision = GaussPowerMean().decide(view)
    assert not set(decision.opens) & view.mines
    assert decision.mines - view.mines <= mines
    found = deduce(view)
    if found.safe:
        assert not decision.guess
        assert decision.opens == tuple(sorted(found.safe))
        assert set(decision.opens) <= safe
    else:
        assert decision.guess and len(decision.opens) == 1
        assert view.is_unknown(decision.opens[0])
        assert decision.opens[0] not in decision.mines


@settings(max_examples=150, deadline=None)
@given(positions())
def test_a_proved_mine_is_never_opened_later(position: Position) -> None:
    view = position.view
    truth = determined(view)
    assert truth is not None
    if set(view.unknown()) <= truth[1]:
        return
    strategy = GaussPowerMean()
    proved: set[int] = set()
    for _ in range(2):  # the second time, the strategy alone remembers the mines
        decision = strategy.decide(view)
        assert not set(decision.opens) & (proved | view.mines)
        proved |= decision.mines


def test_guess_is_the_lowest_score() -> None:
    # A 1 with 5 unknown neighbours, a 3 with 5 too: the 1's side scores lower.
    view = square(["?????", "?1?3?", "?????"])
    strategy = GaussPowerMean()
    decision = strategy.decide(view)
    scores = strategy.scores(view)
    assert decision.guess
    (cell,) = decision.opens
    assert scores[cell] == min(scores.values())
    assert cell == min(c for c, s in scores.items() if s == scores[cell])


def test_scores_use_the_edge_and_corner_exponents() -> None:
    view = square(["???", "?1?", "???"])
    strategy = GaussPowerMean(k_edge=1, k_corner=2, t=1)
    scores = strategy.scores(view)
    assert scores[at(view, 0, 1)] == pytest.approx(1 / 8)
    assert scores[at(view, 0, 0)] == pytest.approx(1 / 64)


def test_cells_nobody_speaks_for_get_the_density_through_the_mean_exponent() -> None:
    view = square(["?????", "0????", "?????"])
    strategy = GaussPowerMean(k_edge=1, k_corner=3, t=1)
    lone = strategy.density(view) ** 2
    assert strategy.density(view) == strategy.prior_density
    assert strategy.scores(view)[at(view, 2, 4)] == pytest.approx(lone)


def test_density_from_the_mine_count_when_told() -> None:
    view = square(["F????", "?????"], mine_count=4)
    assert GaussPowerMean().density(view) == pytest.approx(3 / 9)


def test_density_observed_once_enough_is_seen() -> None:
    view = square(["F0000", "00000", "?????", "?????"])
    # 10 of 20 cells seen (one of them a mine): past the fifth of the board.
    assert GaussPowerMean().density(view) == pytest.approx(1 / 10)


class FixedScores(GaussPowerMean):
    """Scores set by the test, to reach the swap directly."""

    def scores(self, view: View) -> dict[int, float]:
        return {0: 0.30, 1: 0.305, 2: 0.9, 3: 0.31}


def test_endgame_swap_is_seeded_and_only_to_a_slightly_worse_cell() -> None:
    view = square(["????"] + ["0000"] * 24)  # 4 unknown cells of 100: under the 5%
    picks = [FixedScores(seed=seed)._guess(view) for seed in range(40)]
    assert set(picks) == {0, 1}  # the runner-up sometimes, never a worse cell
    assert picks == [FixedScores(seed=seed)._guess(view) for seed in range(40)]
    opening = square(["????"] + ["0000"] * 2)  # 4 of 12: not the endgame
    assert {FixedScores(seed=seed)._guess(opening) for seed in range(40)} == {0}


def test_nothing_to_open_is_a_clear_error() -> None:
    with pytest.raises(MinesweeperError, match="nothing is left to open"):
        GaussPowerMean().decide(square(["1?1"]))


def test_games_are_deterministic_for_a_seed() -> None:
    topology = SquareTopology(16, 16)
    first = topology.cell_at(2, 2)
    for index in range(4):
        board = random_board(topology, 40, random.Random(index), first, FirstClick.OPENING)
        a, b = (play(board, first, GaussPowerMean(seed=7)) for _ in range(2))
        assert (a.won, a.visit_count, a.steps, a.guesses) == (
            b.won,
            b.visit_count,
            b.steps,
            b.guesses,
        )


def test_never_steps_on_a_mine_without_guessing() -> None:
    topology = SquareTopology(9, 9)
    first = topology.cell_at(2, 2)
    for index in range(20):
        board = random_board(topology, 10, random.Random(index), first, FirstClick.OPENING)
        record = play(board, first, GaussPowerMean(seed=index))
        assert record.won or record.guesses > 0
        assert math.isfinite(record.seconds)


def test_a_reused_instance_forgets_the_last_game() -> None:
    topology = SquareTopology(9, 9)
    first = topology.cell_at(2, 2)
    reused = GaussPowerMean()
    for index in range(6):
        board = random_board(topology, 10, random.Random(index), first, FirstClick.OPENING)
        game = Game(board)
        game.visit(first)
        opening = View(
            topology, {c: board.count(c) for c in board.topology.cells() if game.revealed[c]}
        )
        assert reused.decide(opening) == GaussPowerMean().decide(opening)
        play(board, first, reused)  # leaves the reused instance at the end of a game
