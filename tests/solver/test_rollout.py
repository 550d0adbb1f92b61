"""Strategy `rollout`: playing on over sampled layouts, against brute force; reruns play
the same moves; the budget is counted in layouts; a proved mine is never opened."""

from __future__ import annotations

import random

import pytest
from brute import exact_win, full_layouts, small_positions
from hypothesis import given
from test_best import SETTINGS, real_positions

from minesweeper.board import Board
from minesweeper.client import play
from minesweeper.solver.best import Best, ExactSafest
from minesweeper.solver.probability import probabilities
from minesweeper.solver.registry import StrategySpec, find_strategy
from minesweeper.solver.rollout import (
    Rollout,
    play_on_layouts,
    position_seed,
    shares,
    strata,
)
from minesweeper.solver.think import Think
from minesweeper.topology import SquareTopology


def searching(think: int = 8, **settings: float) -> Rollout:
    """A rollout that searches every guess of small boards (no endgame, no regions)."""
    player = Rollout(think=think)
    player.endgame_layouts = 0
    player.regions = False
    player.policy = ExactSafest()  # cheap, deterministic play-on
    for name, value in settings.items():
        setattr(player, name, value)
    return player


def test_rollout_is_registered_and_says_its_unit() -> None:
    assert find_strategy("rollout") is Rollout
    assert StrategySpec("rollout").label == "rollout (think 16 layouts)"
    assert StrategySpec("rollout", Think(8, None)).build().think == 8


def test_strata_chances_and_safety_are_exact() -> None:
    for view, _ in small_positions(4, seed=1):
        cells = sorted(view.unknown())[:3]
        layouts = full_layouts(view)
        for kind in strata(view, cells):
            exactly = sum(all((c in kind.safe) == (c not in m) for c in cells) for m in layouts)
            assert kind.chance == pytest.approx(exactly / len(layouts), abs=1e-12)
            for _ in range(5):  # its samples are of its kind and fit the view
                mines = kind.sampler.sample(random.Random(_))
                assert mines in layouts and all((c in kind.safe) == (c not in mines) for c in cells)
        playout = play_on_layouts(view, cells, ExactSafest(), 12, random.Random(0))
        result = probabilities(view)
        for cell in cells:
            assert playout.safety(cell) == pytest.approx(1 - result.chance(cell), abs=1e-12)


def test_estimates_agree_with_brute_force_within_their_intervals() -> None:
    policy = ExactSafest()
    outside = checked = 0
    for view, _ in small_positions(5, seed=2):
        cells = sorted(view.unknown(), key=lambda c: (probabilities(view).chance(c), c))[:3]
        playout = play_on_layouts(view, cells, policy, 300, random.Random(position_seed(view)))
        assert playout.played == 300
        for cell in cells:
            exact = float(exact_win(view, cell, policy))
            low, high = playout.interval(cell)
            checked += 1
            outside += not low <= exact <= high
            # Never far off: four standard errors.
            assert abs(playout.win(cell) - exact) <= 4 * playout.error(cell) + 1e-9
    assert outside <= 1, f"{outside} of {checked} exact values outside their 95% intervals"


def test_the_difference_of_two_cells_agrees_with_brute_force() -> None:
    policy = ExactSafest()
    view, _ = small_positions(1, seed=3)[0]
    a, b = sorted(view.unknown(), key=lambda c: (probabilities(view).chance(c), c))[:2]
    playout = play_on_layouts(view, [a, b], policy, 200, random.Random(1))
    together = playout.error(a, b)
    assert together > 0
    exact = float(exact_win(view, a, policy) - exact_win(view, b, policy))
    assert abs(playout.win(a) - playout.win(b) - exact) <= 4 * together


def test_shares_split_the_budget_by_chance() -> None:
    assert shares([0.5, 0.25, 0.25], 8) == [4, 2, 2]
    assert shares([0.7, 0.2, 0.1], 3) == [2, 1, 0]
    assert sum(shares([0.33, 0.33, 0.34], 10)) == 10
    assert shares([0.0, 0.0], 5) == [0, 0]


def test_a_rerun_plays_the_same_moves_and_the_seed_does_not_matter() -> None:
    topology = SquareTopology(9, 9)
    rng = random.Random(4)
    searched = 0
    for _ in range(4):
        board = Board(topology, rng.sample(range(1, topology.size), 10))
        records = []
        for seed in (0, 0, 7):
            guesses: list[tuple[int, ...]] = []
            player = Rollout(seed, think=6)
            seen = guesses.append
            record = play(board, 0, player, True, on_guess=lambda v, d, m, s=seen: s(d.opens))
            records.append((record.won, record.visit_count, record.guesses, guesses))
            searched += player.searched
        assert records[0] == records[1] == records[2]
    assert searched  # some guesses were searched


def test_the_budget_is_counted_in_layouts() -> None:
    searched = 0
    for view, _ in small_positions(6, seed=5):
        player = searching(think=10, spread=1.0)
        assert player.decide(view).guess
        assert player.layouts == 10 * player.searched
        # The second guess of a game is searched too (early = 2), the third not.
        player.decide(view)
        twice = player.searched
        player.decide(view)
        assert player.searched == twice <= 2 and player.layouts == 10 * twice
        searched += twice
    assert searched  # some positions had two close candidates


def test_no_budget_or_late_guesses_play_as_best() -> None:
    for view, _ in small_positions(8, seed=6):
        best = Best()
        best.endgame_layouts, best.regions = 0, False
        idle = searching(think=0, spread=1.0)
        late = searching(think=10, spread=1.0, early=0)
        assert idle.decide(view) == late.decide(view) == best.decide(view)
        assert idle.searched == late.searched == 0


def test_a_searched_guess_is_one_of_the_candidates_and_beats_by_the_margin() -> None:
    for view, _ in small_positions(6, seed=8):
        result = probabilities(view)
        player = searching(think=40, spread=1.0, margin=0.0)
        cell = player.decide(view).opens[0]
        assert cell in player.candidates(view, result)
        cautious = searching(think=40, spread=1.0, margin=1e9)  # never leaves the look-ahead
        best = Best()
        best.endgame_layouts, best.regions = 0, False
        assert cautious.decide(view) == best.decide(view)


@SETTINGS
@given(real_positions())
def test_never_opens_a_proved_mine(position) -> None:
    view, _ = position
    exact = probabilities(view)
    decision = searching(think=4, spread=1.0, margin=0.0).decide(view)
    assert decision.opens
    assert not set(decision.opens) & exact.mines
    if decision.guess:
        assert decision.mines == exact.mines
    else:
        assert set(decision.opens) <= exact.safe
