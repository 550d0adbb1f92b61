"""`ConstraintTracker` answers what `constraints` answers, view after view."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_probability import kinds, small_topology

from minesweeper.board import Board
from minesweeper.solver import InconsistentView, View
from minesweeper.solver.constraints import ConstraintTracker, constraints
from minesweeper.topology import SquareTopology


def games(seed: int, kind: str, count: int) -> list[View]:
    """The views of ``count`` random games played cell by cell, some mines marked on the way."""
    rng = random.Random(seed)
    views = []
    for _ in range(count):
        topology = small_topology(kind, rng.randint(2, 5), rng.randint(2, 5), rng)
        cells = list(range(topology.size))
        mines = set(rng.sample(cells, rng.randint(0, topology.size // 3)))
        board = Board(topology, mines)
        revealed: dict[int, int] = {}
        marked: set[int] = set()
        rng.shuffle(cells)
        for cell in cells:
            if cell in mines:
                if rng.random() < 0.5:
                    marked.add(cell)
                    views.append(View(topology, dict(revealed), frozenset(marked), len(mines)))
                continue
            revealed[cell] = board.count(cell)
            views.append(View(topology, dict(revealed), frozenset(marked), len(mines)))
            if rng.random() < 0.2:
                views.append(views[-1])  # the same view asked twice
            hidden = [c for c in range(topology.size) if c not in revealed and c not in marked]
            if hidden and rng.random() < 0.2:
                # A wrong guess at a mine, often contradicting a number, then the true view again.
                wrong = marked | {rng.choice(hidden)}
                views.append(View(topology, dict(revealed), frozenset(wrong), len(mines)))
                views.append(View(topology, dict(revealed), frozenset(marked), len(mines)))
    return views


def answer(ask, view: View):
    try:
        return ask(view)
    except InconsistentView:
        return "inconsistent"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(kinds()))
def test_tracker_matches_constraints_along_games(seed: int, kind: str) -> None:
    tracker = ConstraintTracker()
    for view in games(seed, kind, 3):
        assert answer(tracker, view) == answer(constraints, view)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(kinds()))
def test_tracker_matches_constraints_on_views_in_any_order(seed: int, kind: str) -> None:
    # Views of other games, shrinking views, counts that differ: read afresh.
    views = games(seed, kind, 2)
    random.Random(seed).shuffle(views)
    tracker = ConstraintTracker()
    for view in views:
        assert answer(tracker, view) == answer(constraints, view)


def test_tracker_raises_on_a_contradiction_and_recovers() -> None:
    topology = SquareTopology(2, 2)  # one mine, at (1, 1)
    tracker = ConstraintTracker()
    good = View(topology, {0: 1}, frozenset(), 1)
    assert tracker(good) == constraints(good)
    # The mine marked where it cannot be: (0, 0) shows 1, now with 2 marked mines around it.
    bad = View(topology, {0: 1}, frozenset({1, 3}), 1)
    with pytest.raises(InconsistentView):
        tracker(bad)
    later = View(topology, {0: 1, 1: 1}, frozenset({3}), 1)
    assert tracker(later) == constraints(later)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(kinds()), st.integers(1, 3))
def test_extended_reads_a_later_view_and_keeps_the_last(seed: int, kind: str, ahead: int) -> None:
    """`extended` answers what `constraints` does, cell order within each rule included, for
    views ahead (or not: other games, a wrong mine), and the tracker stays where it was."""
    views = games(seed, kind, 2)
    tracker = ConstraintTracker()
    for view, later in zip(views, views[ahead:], strict=False):
        last = answer(tracker, view)
        found = answer(tracker.extended, later)
        assert found == answer(constraints, later)
        if found != "inconsistent":
            assert [list(r.cells) for r in found] == [list(r.cells) for r in constraints(later)]
        assert answer(tracker, view) == last
