"""Potential 50/50s (`minesweeper.solver.pairs`) against every layout of small positions."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from test_best import SETTINGS, played_positions, real_positions

from minesweeper.solver import View
from minesweeper.solver import pairs as pairs_module
from minesweeper.solver.best import Best
from minesweeper.solver.constraints import InconsistentView, constraints
from minesweeper.solver.endgame import layouts
from minesweeper.solver.pairs import Fifties, Pair, pairs, rule
from minesweeper.solver.probability import Budget, probabilities, solve_weight
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


@SETTINGS
@given(real_positions())
def test_influence_raises_each_candidate_by_its_share_over_its_safety(position) -> None:
    view, _ = position
    exact = probabilities(view)
    assume(not exact.safe)
    view = view.with_mines(exact.mines)
    plain, raised = Best(), Best()
    plain.influence, raised.influence = 0.0, 0.9
    influence = raised.fifties(view, exact).influence()
    before = {o.cell: o.score for o in plain.outlooks(view, exact)}
    after = {o.cell: o.score for o in raised.outlooks(view, exact)}
    assert before.keys() <= after.keys()
    for cell, score in after.items():
        safety = 1 - exact.chance(cell)
        if cell not in before:  # a cell the influence brings near the best
            assert influence[cell] >= 0.025
            continue
        boost = 1 + 0.9 * influence.get(cell, 0.0) / safety if safety else 1
        assert score == pytest.approx(before[cell] * boost, rel=1e-9)


def test_a_corner_pair_walled_by_mines_settles_half_its_fifty_fifty() -> None:
    """The corner (0, 0) and (1, 0) below it: their other neighbours (2, 0) and (2, 1) are
    mines, and the 3 at (1, 1) allows at most one mine between them; where one is, nothing
    opened elsewhere could tell which. Each of the two is credited half that chance."""
    topology = SquareTopology(4, 4)
    cell = topology.cell_at
    view = View(topology, {cell(1, 1): 3}, frozenset({cell(2, 0), cell(2, 1)}), 5)
    exact = probabilities(view)
    every = layouts(view)
    one = sum(1 for lay in every if len({cell(0, 0), cell(1, 0)} & lay) == 1)
    assert Pair(cell(0, 0), cell(1, 0), frozenset()) in pairs(view, 0)
    found = fifties(view).influence(least=0.0)
    for corner in (cell(0, 0), cell(1, 0)):  # other pairs add to it, up to its mine chance
        assert found[corner] >= min(one / len(every) / 2, exact[corner]) - 1e-12
    assert found[cell(0, 0)] > 0.1


@SETTINGS
@given(real_positions(), st.sampled_from([None, 1, 40]), st.randoms(use_true_random=False))
def test_weight_recounts_only_what_the_rules_touch_and_equals_a_whole_count(
    position, counts, rng
) -> None:
    """`Fifties.weight` with a pair's rules (or any few rules on unknown cells) is the
    whole position's `solve_weight` with them, also where a count is approximate."""
    view, _ = position
    try:
        exact = probabilities(view)
    except InconsistentView:
        assume(False)
    view = view.with_mines(exact.mines)
    best = Best()
    if counts is not None:
        best.budget = Budget(counts=counts)
    found = best.fifties(view, exact)
    unknown = view.unknown()
    assume(unknown)

    def whole(*extra):
        try:
            return solve_weight(
                [*found.rules, *extra], unknown, found.count, budget=found.budget, cache=found.cache
            )
        except InconsistentView:
            return 0

    assert found.weight() == whole()
    extras = [
        [
            rule({pair.a, pair.b}, 1),
            *([rule(pair.missing, len(pair.missing))] if pair.missing else []),
        ]
        for pair in pairs(view, 3)
    ]
    for _ in range(3):
        cells = rng.sample(unknown, rng.randint(1, min(3, len(unknown))))
        extras.append([rule(cells, rng.randint(0, len(cells)))])
    for extra in extras:
        assert found.weight(*extra) == whole(*extra)


@SETTINGS
@given(real_positions(), st.sampled_from([None, 1, 40]), st.booleans())
def test_the_total_weight_is_the_counted_one(position, counts, flagged) -> None:
    """The weight the pairs' chances are divided by, taken from the answer where it can be,
    is the count `Fifties.weight` makes: with the answer's mines known or not, also where
    a count is approximate."""
    view, _ = position
    best = Best()
    if counts is not None:
        best.budget = Budget(counts=counts)
    try:
        result = probabilities(view, budget=best.budget)
    except InconsistentView:
        assume(False)
    if flagged:  # as `Best` asks: the answer's certain mines known
        view = view.with_mines(result.mines)
    found = best.fifties(view, result)
    assert found._total() == found.weight()


@pytest.mark.skipif(pairs_module._kernel is None, reason="the kernel is not built")
def test_influence_by_the_kernel_is_the_pure_pythons(monkeypatch) -> None:
    """`Fifties.influence` with the kernel's risks and credit: the same floats, bit for bit,
    for the same cells in the same order, on played positions and on small ones."""
    cases = played_positions(5, 12)
    assert len(cases) > 10
    for view, result in cases:
        for least in (1e-3, 0.0, 0.05):
            compiled = Best().fifties(view, result).influence(least=least)
            with monkeypatch.context() as patch:
                patch.setattr(pairs_module, "_kernel", None)
                reference = Best().fifties(view, result).influence(least=least)
            assert [(c, r.hex()) for c, r in compiled.items()] == [
                (c, r.hex()) for c, r in reference.items()
            ]


def test_pairs_by_the_kernel_are_the_pure_pythons(monkeypatch) -> None:
    """`_pairs` from the kernel's arrays: the same tuples (enablers iterated in the same
    order) as the pure-Python walk, on played positions (known mines among the enablers)."""
    from minesweeper.solver.pairs import PairIndex, _pairs

    cases = played_positions(5, 12)
    assert any(view.mines for view, _ in cases)
    for view, _ in cases:
        index = pairs_module.pair_index(view.topology)
        if _kernel_built():
            assert index.compiled is not None
        reference = PairIndex(view.topology)
        reference.compiled = None
        for most in (0, 1, 3, 6):
            compiled = _pairs(view, most)
            with monkeypatch.context() as patch:
                patch.setattr(pairs_module, "pair_index", lambda _, found=reference: found)
                expected = _pairs(view, most)
            assert [(a, b, list(m)) for a, b, m in compiled] == [
                (a, b, list(m)) for a, b, m in expected
            ]


def _kernel_built() -> bool:
    return pairs_module._kernel is not None
