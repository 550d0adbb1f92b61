"""The layout sampler against brute force: each layout drawn as often as its weight says."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from brute import positions
from hypothesis import HealthCheck, given, settings

from minesweeper.board import Board
from minesweeper.game import Game
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.layouts import ApproximateCount, LayoutSampler
from minesweeper.solver.probability import UNIFORM, Budget, DensityPrior
from minesweeper.solver.view import View
from minesweeper.topology import HexTopology, SquareTopology, Topology


def fits(view: View, mines: frozenset[int]) -> bool:
    """Whether a whole-board layout agrees with every number and known mine of ``view``."""
    neighbours = view.topology.neighbours
    if not view.mines <= mines or mines & view.revealed.keys():
        return False
    if view.mine_count is not None and len(mines) != view.mine_count:
        return False
    return all(sum(o in mines for o in neighbours(c)) == n for c, n in view.revealed.items())


def brute_weights(view: View, prior: DensityPrior = UNIFORM) -> dict[frozenset[int], Fraction]:
    """Every layout that fits, with its probability (Beta prior when the count is unknown)."""
    unknown = view.unknown()
    n = view.topology.size
    found: dict[frozenset[int], Fraction] = {}
    for bits in itertools.product((0, 1), repeat=len(unknown)):
        mines = view.mines | {c for c, b in zip(unknown, bits, strict=True) if b}
        if not fits(view, mines):
            continue
        k = len(mines)
        found[mines] = Fraction(
            1
            if view.mine_count is not None
            else math.factorial(k + prior.a - 1) * math.factorial(n - k + prior.b - 1)
        )
    total = sum(found.values())
    return {layout: weight / total for layout, weight in found.items()}


def chi_square_p(statistic: float, df: int) -> float:
    """The upper tail of the chi-square distribution (regularized gamma, by its series)."""
    if df <= 0:
        return 1.0
    a, x = df / 2, statistic / 2
    if x == 0:
        return 1.0
    term = total = 1 / a
    k = 1
    while term > 1e-15 * total:
        term *= x / (a + k)
        total += term
        k += 1
    lower = math.exp(-x + a * math.log(x) - math.lgamma(a)) * total
    return max(0.0, 1 - lower)


def test_chi_square_p_known_values() -> None:
    # Tables: the 95th percentiles of chi-square with 1, 5 and 10 degrees of freedom.
    assert chi_square_p(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_p(11.070, 5) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_p(18.307, 10) == pytest.approx(0.05, abs=1e-3)


def played(topology: Topology, rng: random.Random, density: float, clicks: int) -> View:
    """A real position: random mines, a few safe clicks (zeros flood)."""
    mines = {c for c in range(topology.size) if rng.random() < density}
    game = Game(Board(topology, mines))
    for _ in range(clicks):
        cell = rng.randrange(topology.size)
        if cell not in mines and not game.over:
            game.visit(cell)
    revealed = {c: game.board.count(c) for c in range(topology.size) if game.revealed[c]}
    known = frozenset(c for c in mines if rng.random() < 0.2)
    return View(topology, revealed, known, len(mines))


@functools.cache
def small_positions() -> list[tuple[str, View]]:
    """Seeded positions of 2 to 11 unknown cells and 3 to 60 layouts, count known or not."""
    rng = random.Random(2026)
    found: list[tuple[str, View]] = []
    while len(found) < 16:
        topology = rng.choice([SquareTopology(4, 4), SquareTopology(3, 5), HexTopology(4, 4)])
        view = played(topology, rng, rng.choice([0.2, 0.3]), rng.randint(2, 5))
        if rng.random() < 0.5:
            view = View(view.topology, view.revealed, view.mines, None)
        if not 2 <= len(view.unknown()) <= 11 or not 3 <= len(brute_weights(view)) <= 60:
            continue
        found.append((f"{topology.name}-{len(found)}-count-{view.mine_count}", view))
    return found


@pytest.mark.parametrize(("name", "view"), small_positions())
def test_layouts_are_drawn_as_often_as_their_weight(name: str, view: View) -> None:
    expected = brute_weights(view)
    sampler = LayoutSampler(view)
    rng = random.Random(name)
    draws = 3000
    seen = Counter(sampler.sample(rng) for _ in range(draws))
    assert set(seen) <= set(expected)  # every draw fits the position
    statistic = sum(
        (seen[layout] - draws * float(p)) ** 2 / (draws * float(p))
        for layout, p in expected.items()
    )
    assert chi_square_p(statistic, len(expected) - 1) > 1e-3, (statistic, len(expected))


def test_a_prior_other_than_uniform_weighs_the_mine_count() -> None:
    view = View(SquareTopology(2, 4), {0: 1}, frozenset(), None)
    prior = DensityPrior(1, 6)
    expected = brute_weights(view, prior)
    rng = random.Random(5)
    draws = 4000
    seen = Counter(LayoutSampler(view, prior).sample(rng) for _ in range(draws))
    statistic = sum(
        (seen[k] - draws * float(p)) ** 2 / (draws * float(p)) for k, p in expected.items()
    )
    assert chi_square_p(statistic, len(expected) - 1) > 1e-3


def test_a_cell_taken_as_safe_is_never_a_mine() -> None:
    for name, view in small_positions()[:4]:
        cell = view.unknown()[0]
        expected = {k: p for k, p in brute_weights(view).items() if cell not in k}
        if not expected:
            with pytest.raises(InconsistentView):
                LayoutSampler(view, safe=[cell])
            continue
        total = sum(expected.values())
        rng = random.Random(name)
        seen = Counter(LayoutSampler(view, safe=[cell]).sample(rng) for _ in range(2000))
        assert set(seen) <= set(expected)
        statistic = sum(
            (seen[k] - 2000 * float(p / total)) ** 2 / (2000 * float(p / total))
            for k, p in expected.items()
        )
        assert chi_square_p(statistic, len(expected) - 1) > 1e-3, name


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_side=6))
def test_every_sample_fits_the_position(position) -> None:  # type: ignore[no-untyped-def]
    for count in (None, position.board.mine_count):
        view = View(position.view.topology, position.view.revealed, position.view.mines, count)
        sampler = LayoutSampler(view)
        rng = random.Random(0)
        for _ in range(20):
            assert fits(view, sampler.sample(rng))


def test_no_layout_and_too_large_are_told_apart() -> None:
    # A 1 whose only unknown neighbour is a revealed cell's: nothing fits 0 mines left.
    view = View(SquareTopology(1, 3), {0: 1}, frozenset(), 0)
    with pytest.raises(InconsistentView):
        LayoutSampler(view)
    rng = random.Random(3)
    topology = SquareTopology(16, 30)
    mines = set(rng.sample(range(topology.size), 99))
    revealed = {
        c: sum(o in mines for o in topology.neighbours(c))
        for c in range(topology.size)
        if c not in mines and c % 30 < 15 and rng.random() < 0.6
    }
    with pytest.raises(ApproximateCount):
        LayoutSampler(View(topology, revealed, frozenset(), 99), budget=Budget(counts=50))
