"""Dead cells (a cell whose number is certain tells nothing), checked against every layout."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from test_best import SETTINGS, real_positions

from minesweeper.solver import View
from minesweeper.solver.best import Best, blended_safety, is_dead
from minesweeper.solver.constraints import Opening, constraints
from minesweeper.solver.probability import Probabilities, probabilities
from minesweeper.topology import SquareTopology


def layouts(view: View) -> list[frozenset[int]]:
    """Every set of unknown cells that can be the mines (the count respected when known)."""
    unknown = view.unknown()
    rules = constraints(view)
    left = None if view.mine_count is None else view.mine_count - len(view.mines)
    found = []
    for bits in range(1 << len(unknown)):
        mines = frozenset(c for i, c in enumerate(unknown) if bits >> i & 1)
        if left is not None and len(mines) != left:
            continue
        if all(len(rule.cells & mines) == rule.mines for rule in rules):
            found.append(mines)
    return found


def numbers(view: View, cell: int) -> set[int]:
    """The numbers ``cell`` shows over the layouts where it is safe."""
    around = view.topology.neighbours(cell)
    return {
        sum(1 for o in around if o in mines or o in view.mines)
        for mines in layouts(view)
        if cell not in mines
    }


def unknown_around(view: View, cell: int) -> list[int]:
    return [o for o in view.topology.neighbours(cell) if view.is_unknown(o)]


def expected_blend(result: Probabilities, blend: float, dead: int) -> Fraction:
    """The blended safety by its definition: the best safeties, ``dead`` certain ones left out."""
    safeties = sorted((1 - result[c] for c in result), reverse=True)[dead:]
    if not safeties:
        return Fraction(1)
    second = safeties[1] if len(safeties) > 1 else Fraction(0)
    return (safeties[0] + Fraction(blend) * second) / (1 + Fraction(blend))


@SETTINGS
@given(real_positions(max_unknown=12))
def test_a_dead_cell_shows_one_number_in_every_layout(position) -> None:
    view, _ = position
    exact = probabilities(view)
    view = view.with_mines(exact.mines)
    settled = exact.safe | exact.mines
    rules = constraints(view)
    for cell in view.unknown():
        if is_dead(cell, unknown_around(view, cell), rules, settled):
            assert len(numbers(view, cell)) == 1


def test_dead_and_living_cells_by_hand() -> None:
    # 2x3: row 0 unknown, row 1 "1 1 ?". (1,0) puts one mine in (0,0),(0,1).
    topology = SquareTopology(2, 3)
    view = View(topology, {topology.cell_at(1, 0): 1, topology.cell_at(1, 1): 1}, frozenset())
    rules = constraints(view)
    a, b, c, d = (topology.cell_at(*rc) for rc in ((0, 0), (0, 1), (0, 2), (1, 2)))
    # (0,0) safe makes (0,1) the mine: it can only show 1.
    assert is_dead(a, unknown_around(view, a), rules, frozenset())
    assert numbers(view, a) == {1}
    # (0,2) and (1,2) see (0,1), which may or may not be the mine.
    for cell in (c, d):
        assert not is_dead(cell, unknown_around(view, cell), rules, frozenset())
        assert numbers(view, cell) == {0, 1}
    # Once (0,1) is settled, their numbers are known too.
    assert is_dead(d, unknown_around(view, d), rules, frozenset({b, c}))
    assert is_dead(c, unknown_around(view, c), rules, frozenset({b, d}))


@SETTINGS
@given(real_positions(max_unknown=12), st.sampled_from([0.0, 0.25, 1.0]), st.integers(0, 3))
def test_blended_safety_leaves_out_dead_safe_cells(position, blend, dead) -> None:
    view, _ = position
    exact = probabilities(view)
    dead = min(dead, len(exact.safe))
    assert blended_safety(exact, blend, dead) == pytest.approx(
        float(expected_blend(exact, blend, dead)), abs=1e-12
    )


@SETTINGS
@given(real_positions(max_unknown=10), st.sampled_from([0.0, 0.25]), st.integers(0, 2**16))
def test_living_worth_leaves_out_the_outcomes_dead_safe_cells(position, blend, pick) -> None:
    """With ``living``, an outcome is worth its blended safety without the safe cells that show
    one number there (by every layout), and a candidate is dead when it can show one number."""
    view, _ = position
    exact = probabilities(view)
    assume(not exact.safe)
    view = view.with_mines(exact.mines)
    choices = [c for c in view.unknown() if c not in exact.mines]
    assume(choices)
    cell = choices[pick % len(choices)]
    strategy = Best()
    strategy.living, strategy.blend, strategy.long_term = True, blend, False
    rules = constraints(view)
    opening = Opening.of(view, rules, cell)
    worths = [worth for _, worth, _ in strategy.outcomes(view, rules, cell, set())]
    expected = []
    for shown in opening.numbers:
        after = View(view.topology, {**view.revealed, cell: shown}, view.mines, view.mine_count)
        if not layouts(after):
            continue
        solved = probabilities(after)
        seen = after.with_mines(solved.mines)
        settled = solved.safe | solved.mines
        dead = [
            s
            for s in solved.safe
            if is_dead(s, unknown_around(seen, s), constraints(seen), settled)
        ]
        assert all(len(numbers(seen, s)) == 1 for s in dead)
        assert Best.dead_safe(view, opening, shown, solved) == len(dead)
        expected.append(float(expected_blend(solved, blend, len(dead))))
    assert worths == pytest.approx(expected, abs=1e-12)
    looks = strategy.outlooks(view, exact)
    for look in looks:
        assert look.dead == (len(numbers(view, look.cell)) == 1)
