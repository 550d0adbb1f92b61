"""Potential 50/50s (`minesweeper.solver.pairs`) against every layout of small positions."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given
from test_best import SETTINGS, real_positions

from minesweeper.solver import View
from minesweeper.solver.best import Best
from minesweeper.solver.constraints import InconsistentView, constraints
from minesweeper.solver.endgame import layouts
from minesweeper.solver.pairs import Fifties, pairs
from minesweeper.solver.probability import probabilities
from minesweeper.topology import SquareTopology


def fifties(view: View) -> Fifties:
    exact = probabilities(view)
    return Best().fifties(view, exact)


def enablers(view: View, a: int, b: int) -> set[int]:
    neighbours = view.topology.neighbours
    return (set(neighbours(a)) ^ set(neighbours(b))) - {a, b}


@SETTINGS
@given(real_positions(max_unknown=10))
def test_pairs_are_neighbours_whose_enablers_hold_no_revealed_cell(position) -> None:
    view, _ = position
    found = {(p.a, p.b): p.missing for p in pairs(view, 3)}
    unknown = view.unknown()
    for a in unknown:
        for b in view.topology.neighbours(a):
            if b <= a or not view.is_unknown(b):
                continue
            around = enablers(view, a, b)
            missing = {c for c in around if c not in view.mines}
            if any(c in view.revealed for c in around) or len(missing) > 3:
                assert (a, b) not in found
            else:
                assert found[a, b] == missing


@SETTINGS
@given(real_positions(max_unknown=10))
def test_a_pseudo_fifty_fifty_is_a_mine_only_in_a_fifty_fifty(position) -> None:
    """Brute force: the cells found are exactly those of a pair (at most one missing
    enabler) that are mines in some layout, and in every such layout their partner is
    safe and all enablers are mines."""
    view, _ = position
    every = layouts(view, limit=20_000)
    assume(every)
    expected = set()
    for pair in pairs(view, 1):
        for cell, partner in ((pair.a, pair.b), (pair.b, pair.a)):
            with_mine = [layout for layout in every if cell in layout]
            if not with_mine or len(with_mine) == len(every):
                continue
            if all(partner not in lay and pair.missing <= lay for lay in with_mine):
                expected.add(cell)
    assert set(fifties(view).pseudo()) == expected


@SETTINGS
@given(real_positions(max_unknown=10))
def test_influence_is_half_the_chance_of_each_fifty_fifty_it_settles(position) -> None:
    """Brute force over every layout where a number touches the pair; for a pair of
    unconstrained cells only, the product of their (equal) chances."""
    view, _ = position
    view = View(view.topology, view.revealed, view.mines, view.mine_count or 1)
    try:
        exact = probabilities(view)
    except InconsistentView:
        assume(False)
    every = layouts(view, limit=20_000)
    assume(every)
    constrained = {c for rule in constraints(view) for c in rule.cells}
    credit: dict[int, float] = {}
    for pair in pairs(view, 3):
        cells = (pair.a, pair.b, *pair.missing)
        if any(c in constrained for c in cells):
            one = [lay for lay in every if len({pair.a, pair.b} & lay) == 1]
            fifty = sum(1 for lay in one if pair.missing <= lay)
            risk = fifty / len(every) / 2
        else:
            p = float(exact[pair.a])
            risk = p * (1 - p) * p ** len(pair.missing)
        for cell in cells:
            credit[cell] = credit.get(cell, 0.0) + risk
    expected = {c: min(r, float(exact[c]), float(1 - exact[c])) for c, r in credit.items() if r}
    found = Best().fifties(view, exact).influence(least=0.0)
    assert found.keys() == expected.keys()
    for cell, risk in expected.items():
        assert found[cell] == pytest.approx(risk, abs=1e-12)


def test_a_corner_pair_walled_by_mines_is_a_pseudo_fifty_fifty() -> None:
    """The corner (0, 0) and (1, 0) below it: their other neighbours (2, 0) and (2, 1) are
    mines, and the 3 at (1, 1) allows at most one mine between them. Where one is a mine,
    nothing opened elsewhere can tell which: each is a mine only in a 50/50, and `best`
    with ``pseudo`` guesses one of them at once."""
    topology = SquareTopology(4, 4)
    cell = topology.cell_at
    view = View(topology, {cell(1, 1): 3}, frozenset({cell(2, 0), cell(2, 1)}), 5)
    exact = probabilities(view)
    assert not exact.safe and 0 < exact[cell(0, 0)] < Fraction(1, 2)
    assert fifties(view).pseudo() == [cell(0, 0), cell(1, 0)]
    strategy = Best()
    strategy.endgame_layouts = 0  # the exact search would play it otherwise
    strategy.pseudo = True
    decision = strategy.decide(view)
    assert decision.method == "pseudo"
    assert decision.opens[0] in (cell(0, 0), cell(1, 0))
