"""The decision comparison (`minesweeper.bench.choices`): its estimate of which of two
choices wins more, against brute force; its stated errors, against repeated draws."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from brute import exact_win, small_positions

from minesweeper.bench.choices import Calibration, Compared, Logged, compare
from minesweeper.solver.best import ExactSafest
from minesweeper.solver.probability import probabilities
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.view import View

#: Cheap and deterministic: plays on small boards in microseconds.
SPEC = StrategySpec("exact-safest")


def disputed(view: View) -> Logged:
    """``view`` logged with a guess that is not `SPEC`'s: its least safe unknown cell."""
    result = probabilities(view)
    theirs = max(view.unknown(), key=lambda c: (result.chance(c), c))
    return Logged(board=0, guess=1, view=view, cell=theirs, row={})


def exact_difference(logged: Logged, ours: int) -> float:
    policy = ExactSafest()
    return float(exact_win(logged.view, logged.cell, policy) - exact_win(logged.view, ours, policy))


def test_the_estimated_difference_agrees_with_brute_force() -> None:
    outside = judged = 0
    for view, _ in small_positions(8, seed=11):
        logged = disputed(view)
        found = compare(logged, SPEC, layouts=150, seed=3)
        if found.agree:
            continue
        judged += 1
        result = probabilities(view)
        assert found.their_safety == pytest.approx(1 - result.chance(logged.cell), abs=1e-12)
        assert found.our_safety == pytest.approx(1 - result.chance(found.ours), abs=1e-12)
        assert found.layouts >= 150 and found.error > 0
        exact = exact_difference(logged, found.ours)
        assert abs(found.difference - exact) <= 4 * found.error + 1e-9
        outside += abs(found.difference - exact) > 1.96 * found.error
    assert judged >= 5 and outside <= 1


def test_the_stated_errors_match_the_spread_of_repeated_draws() -> None:
    view, _ = small_positions(1, seed=12)[0]
    logged = disputed(view)
    draws = [compare(logged, SPEC, layouts=30, seed=seed) for seed in range(30)]
    exact = exact_difference(logged, draws[0].ours)
    squares = [((d.difference - exact) / d.error) ** 2 for d in draws]
    # The mean of 30 squared z-scores: 1 if the errors are right (2 or 0.5 is a factor
    # of 1.4 in the error, far outside what 30 draws allow by chance).
    assert 0.5 < sum(squares) / len(squares) < 2.0
    # The same, as `Calibration` sees it: 15 pairs of draws (as if of 15 positions).
    first, second = (
        [replace(d, board=i) for i, d in enumerate(half)] for half in (draws[:15], draws[15:])
    )
    check = Calibration.of(first, second)
    assert check.positions == 15 and 0.4 < check.ratio < 2.5


def test_calibration_sees_errors_stated_too_small() -> None:
    def draw(differences: list[float], error: float) -> list[Compared]:
        return [
            Compared(board, 1, 5, 6, False, 0.5, 0.6, difference, error, 40)
            for board, difference in enumerate(differences)
        ]

    spread = [0.1 * ((-1) ** i) for i in range(40)]
    right = Calibration.of(draw(spread, 0.0707), draw([0.0] * 40, 0.0707))
    assert right.ratio == pytest.approx(1.0, rel=0.01) and right.positions == 40
    small = Calibration.of(draw(spread, 0.02), draw([0.0] * 40, 0.02))
    assert small.ratio > 10 and small.beyond == 1.0
    assert small.first == pytest.approx(0.0, abs=1e-12) and small.z == pytest.approx(0.0)
    shifted = Calibration.of(draw([0.05] * 40, 0.01), draw([0.0] * 40, 0.01))
    assert shifted.z == pytest.approx(0.05 / (math.sqrt(40 * 2 * 0.01**2) / 40))
    # Only the same position with the same two choices pairs; unjudged ones never.
    other = [Compared(b, 1, 5, 7, False, 0.5, 0.6, 0.0, 0.0707, 40) for b in range(40)]
    unjudged = [Compared(b, 1, 5, 6, False) for b in range(40)]
    assert Calibration.of(draw(spread, 0.0707), other).positions == 0
    assert Calibration.of(draw(spread, 0.0707), unjudged).positions == 0


def test_a_compared_position_round_trips_and_an_old_line_is_refused() -> None:
    view, _ = small_positions(1, seed=13)[0]
    found = compare(disputed(view), SPEC, layouts=10, seed=0)
    assert Compared.from_json(found.as_json()) == found
    same = Compared(0, 1, 4, 4, False)
    assert Compared.from_json(same.as_json()) == same and "difference" not in same.as_json()
    old = {"board": 0, "guess": 1, "theirs": 4, "ours": 5, "ours_certain": False, "strata": []}
    with pytest.raises(ValueError, match="not a compared position"):
        Compared.from_json(old)
