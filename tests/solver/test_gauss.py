"""Gauss-Jordan deduction: sound against brute force, at least as strong as the simple rules."""

from __future__ import annotations

import itertools

import pytest
from brute import (
    Position,
    arbitrary_views,
    determined,
    frontier_cells,
    positions,
    square,
    topology_kinds,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper.solver.constraints import Deduction, InconsistentView, constraints
from minesweeper.solver.gauss import deduce, solve_system, split_system
from minesweeper.solver.view import View


def simple_rules(view: View) -> tuple[set[int], set[int]]:
    """The oracle: single-number and two-number subset rules, repeated until nothing changes."""
    topology = view.topology
    values = dict.fromkeys(view.mines, 1)
    changed = True
    while changed:
        changed = False
        rows = []
        for cell, count in view.revealed.items():
            around = topology.neighbours(cell)
            unknown = frozenset(o for o in around if o not in view.revealed and o not in values)
            rows.append((unknown, count - sum(values.get(o, 0) for o in around)))
        for unknown, needed in rows:
            if unknown and needed in (0, len(unknown)):
                values.update(dict.fromkeys(unknown, 1 if needed else 0))
                changed = True
        for small, a in rows:
            for big, b in rows:
                rest = big - small
                if small and small < big and b - a in (0, len(rest)):
                    values.update(dict.fromkeys(rest, 1 if b - a else 0))
                    changed = True
            if changed:
                break
    safe = {c for c, v in values.items() if v == 0}
    mines = {c for c, v in values.items() if v == 1} - view.mines
    return safe, mines


# 300 here (7 s at 1000): the same property holds on squares 120 times more below, on every
# topology, with the simple rules' deductions found too.
@settings(max_examples=300, deadline=None)
@given(positions())
def test_deductions_hold_in_every_consistent_layout(position: Position) -> None:
    view = position.view
    found = deduce(view)
    truth = determined(view)
    assert truth is not None  # the real board fits
    safe, mines = truth
    assert found.safe <= safe
    assert found.mines <= mines
    assert not found.mines & view.mines
    assert found.safe | found.mines <= set(frontier_cells(view))


@pytest.mark.parametrize("kind", sorted(topology_kinds()))
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_sound_on_every_topology(kind: str, data: st.DataObject) -> None:
    position = data.draw(positions(kind=kind))
    view = position.view
    found = deduce(view)
    truth = determined(view)
    assert truth is not None
    assert found.safe <= truth[0]
    assert found.mines <= truth[1]
    safe, mines = simple_rules(view)
    assert safe <= found.safe
    assert mines <= found.mines


@settings(max_examples=300, deadline=None)
@given(arbitrary_views())
def test_contradictions_are_real_and_deductions_sound_on_any_counts(view: View) -> None:
    truth = determined(view)
    try:
        found = deduce(view)
    except InconsistentView:
        assert truth is None
        return
    if truth is not None:
        assert found.safe <= truth[0]
        assert found.mines <= truth[1]


@settings(max_examples=300, deadline=None)
@given(positions())
def test_finds_everything_the_simple_rules_find(position: Position) -> None:
    found = deduce(position.view)
    safe, mines = simple_rules(position.view)
    assert safe <= found.safe
    assert mines <= found.mines


@settings(max_examples=150, deadline=None)
@given(positions(), st.data())
def test_cache_gives_the_same_answer(position: Position, data: st.DataObject) -> None:
    cache: dict = {}
    first = deduce(position.view, cache)
    assert deduce(position.view, cache) == first
    assert deduce(position.view) == first


@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(0, 40))
def test_a_stopped_deduction_is_a_part_of_the_whole(position: Position, checks: int) -> None:
    """Stopped after any number of checks, deduction decides part of what it would."""
    system = [(rule.cells, rule.mines) for rule in constraints(position.view)]
    whole = solve_system(system)
    asked = itertools.count()
    part = solve_system(system, lambda: next(asked) >= checks)
    assert part.safe <= whole.safe and part.mines <= whole.mines
    if checks == 0:
        assert part == Deduction(frozenset(), frozenset())


def cells(view: View, *places: tuple[int, int]) -> frozenset[int]:
    return frozenset(view.topology.cell_at(r, c) for r, c in places)


def test_one_two_one_pattern() -> None:
    view = square(["...", "121", "000"])
    assert deduce(view) == Deduction(cells(view, (0, 1)), cells(view, (0, 0), (0, 2)))


def test_needs_elimination_beyond_pairs() -> None:
    # No row alone and no difference of two rows settles anything, but
    # row 1 - row 2 + row 3 reads x4 = 1.
    system = [
        (frozenset({0, 1, 4}), 2),
        (frozenset({0, 1, 2, 3}), 2),
        (frozenset({2, 3}), 1),
    ]
    assert solve_system(system) == Deduction(frozenset(), frozenset({4}))


def test_parity_is_beyond_linear_deduction() -> None:
    # x0+x1+x2 = 1, x2+x3 = 1, x0+x3 = 1 forces x1 = x3 = 1 only through
    # integrality: no rational combination of the rows is at an end of its range.
    system = [
        (frozenset({0, 1, 2}), 1),
        (frozenset({2, 3}), 1),
        (frozenset({0, 3}), 1),
    ]
    assert not solve_system(system)


def test_known_mines_are_subtracted() -> None:
    view = square(["F..", "2..", "1.."])
    # (1,0) shows 2 with one known mine: one more among (0,1),(1,1),(2,1); (2,0)
    # shows 1 among (1,1),(2,1): so (0,1) is safe.
    assert cells(view, (0, 1)) <= deduce(view).safe


@pytest.mark.parametrize(
    "rows",
    [
        ["3..", "...", "..."],  # 3 with only 3 cells around: fine, all mines
        ["2F.", "F..", "..."],  # 2 already full: (1,1) safe
    ],
)
def test_corner_cases_are_consistent(rows: list[str]) -> None:
    deduce(square(rows))


@pytest.mark.parametrize(
    "rows",
    [
        ["1.", "13"],  # 3 at a corner of a 2x2 board with only 2 unknown neighbours
        ["1.", "0."],  # the 1 needs a mine where the 0 says none is
        ["F1", "F."],  # 1 next to two known mines
    ],
)
def test_contradictions_raise(rows: list[str]) -> None:
    with pytest.raises(InconsistentView):
        deduce(square(rows))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 40), min_size=1, max_size=6), max_size=30))
def test_split_system_groups_the_equations_that_share_cells(cell_sets) -> None:
    """The groups are the connected parts (equations linked by a shared cell), in the order
    of their first equation, each keeping the equations' order."""
    system = [(cells, i) for i, cells in enumerate(cell_sets)]  # each named by its index
    groups = split_system(system)
    assert sorted(i for group in groups for _, i in group) == list(range(len(system)))
    firsts = [group[0][1] for group in groups]
    assert firsts == sorted(firsts)
    for group in groups:
        indices = [i for _, i in group]
        assert indices == sorted(indices)
        reached, frontier = {indices[0]}, [indices[0]]
        while frontier:  # every equation of a group is reached through shared cells
            cells = system[frontier.pop()][0]
            for i in indices:
                if i not in reached and system[i][0] & cells:
                    reached.add(i)
                    frontier.append(i)
        assert reached == set(indices)
    for one, other in itertools.combinations(groups, 2):
        assert not set().union(*(c for c, _ in one)) & set().union(*(c for c, _ in other))
