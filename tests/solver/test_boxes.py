"""Potential box 50/50s (`minesweeper.solver.boxes`) against every layout of small positions."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from test_best import SETTINGS, real_positions

from minesweeper.board import Board
from minesweeper.solver import View
from minesweeper.solver.best import Best
from minesweeper.solver.boxes import box_credit, box_index
from minesweeper.solver.constraints import InconsistentView, constraints
from minesweeper.solver.endgame import layouts
from minesweeper.solver.probability import probabilities
from minesweeper.topology import SquareTopology


def test_square_boxes_are_the_diagonals_of_each_2x2_block_walled_by_its_outer_corners() -> None:
    topology = SquareTopology(4, 5)
    cell = topology.cell_at
    found = {(b.mined, b.clear): b.walls for b in box_index(topology)}
    assert all(b.cells == {*b.mined, *b.clear} for b in box_index(topology))
    expected = {}
    for r in range(3):
        for c in range(4):
            corners = [(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)]
            walls = tuple(sorted(cell(*x) for x in corners if 0 <= x[0] < 4 and 0 <= x[1] < 5))
            mined = (cell(r, c), cell(r + 1, c + 1))
            clear = (cell(r, c + 1), cell(r + 1, c))
            expected[mined, clear] = walls
    assert found == expected


@SETTINGS
@given(real_positions(max_unknown=10))
def test_a_walled_box_swaps_its_diagonals_unseen(position) -> None:
    """Every layout with a box's one pair mined, the other clear and its walls mined has a
    twin with the pairs swapped that fits the position and shows the same number on every
    cell off the box: nothing opened elsewhere tells them apart."""
    view, _ = position
    every = layouts(view, limit=20_000)
    assume(every)
    fits = set(every)
    for box in box_index(view.topology):
        cells = {*box.mined, *box.clear}
        if not all(view.is_unknown(c) for c in cells) or any(w in view.revealed for w in box.walls):
            continue
        for lay in every:
            if set(box.mined) <= lay and not set(box.clear) & lay and set(box.walls) <= lay:
                twin = (lay - set(box.mined)) | set(box.clear)
                assert twin in fits
                one, two = Board(view.topology, lay), Board(view.topology, twin)
                for c in view.topology.cells():
                    if c not in cells and c not in lay:
                        assert one.count(c) == two.count(c)


@SETTINGS
@given(real_positions(max_unknown=10))
def test_box_credit_is_the_chance_of_each_box_fifty_fifty_with_one_side_mined(position) -> None:
    """Brute force where a number touches the box or its missing walls; else the chances
    as if independent."""
    view, _ = position
    view = View(view.topology, view.revealed, view.mines, view.mine_count or 1)
    try:
        exact = probabilities(view)
    except InconsistentView:
        assume(False)
    every = layouts(view, limit=20_000)
    assume(every)
    constrained = {c for rule in constraints(view) for c in rule.cells}
    expected: dict[int, float] = {}
    for box in box_index(view.topology):
        cells = (*box.mined, *box.clear)
        if not all(view.is_unknown(c) for c in cells) or any(w in view.revealed for w in box.walls):
            continue
        missing = [w for w in box.walls if w not in view.mines]
        if len(missing) > 3:
            continue
        if any(c in constrained for c in (*cells, *missing)):
            hit = sum(
                1
                for lay in every
                if set(box.mined) <= lay and not set(box.clear) & lay and set(missing) <= lay
            )
            risk = hit / len(every)
        else:
            p = float(exact[cells[0]])
            risk = p * p * (1 - p) * (1 - p) * p ** len(missing)
        if risk:
            for c in (*cells, *missing):
                expected[c] = expected.get(c, 0.0) + risk
    found = box_credit(view, Best().fifties(view, exact), least=0.0)
    assert found.keys() == expected.keys()
    for c, risk in expected.items():
        assert found[c] == pytest.approx(risk, abs=1e-12)


def test_an_edge_box_raises_the_edge_cell_two_below_a_number() -> None:
    """A classic opening at the corner: (0, 0) shows 0, (0, 1) and (1, 0) show 1, (1, 1) 2
    and (2, 2) 2. The 2x2 block at rows 2-3, columns 0-1 holds one mine of (2, 0) and (2, 1);
    with (1, 2) and (4, 2) mines it would be a box 50/50, which the edge cell (3, 0)
    settles when opened: with boxes counted and his enabler limits, it is the guess, as
    D. Hill's solver plays it (the mirror (0, 3) by symmetry)."""
    topology = SquareTopology(16, 30)
    cell = topology.cell_at
    shown = {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 2, (2, 2): 2}
    view = View(topology, {cell(*rc): n for rc, n in shown.items()}, frozenset(), 99)
    plain, boxed = Best(), Best()
    boxed.boxes, boxed.enabler_missing, boxed.enabler_least = True, 1, 0.025
    exact = probabilities(view)
    influence = boxed.fifty_influence(view, exact)
    assert influence[cell(3, 0)] == pytest.approx(influence[cell(0, 3)])
    assert influence[cell(3, 0)] > 0.005
    assert plain.decide(view).opens[0] in {cell(2, 3), cell(3, 2)}
    assert boxed.decide(view).opens[0] in {cell(0, 3), cell(3, 0)}
