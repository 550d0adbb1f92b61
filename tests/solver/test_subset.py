"""The subset prover fed a game move by move proves what it proves from the whole view at once;
the compiled prover (`minesweeper.solver._prover`) proves what `SubsetProver` proves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_probability import kinds, small_topology

from minesweeper.board import Board
from minesweeper.solver import subset
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.subset import SubsetProver, neighbour_table, subset_prover
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology

compiled = subset._compiled
needs_compiled = pytest.mark.skipif(compiled is None, reason="the prover is not compiled")


@settings(max_examples=150, deadline=None)
@given(
    st.integers(4, 9),
    st.integers(4, 9),
    st.floats(0.1, 0.3),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_incremental_proofs_equal_proofs_from_scratch(
    rows: int, cols: int, density: float, told: bool, seed: int
) -> None:
    """Proved cells are opened in batches, guesses in between, as `Best.proved` plays: after
    every step the kept prover holds exactly the closure a fresh one finds."""
    rng = random.Random(seed)
    topology = SquareTopology(rows, cols)
    size = rows * cols
    board = Board(topology, rng.sample(range(size), max(1, int(size * density))))
    count = len(board.mines) if told else None
    kept = SubsetProver(topology, count)
    revealed: dict[int, int] = {}
    for _ in range(size):
        view = View(topology, dict(revealed), frozenset(kept.mines), count)
        assert kept.follows(view)
        kept.see(view)
        proof = kept.prove()
        fresh = SubsetProver.from_view(view)
        fresh.prove()
        assert kept.safe == fresh.safe and kept.mines == fresh.mines
        assert kept.mines <= board.mines and not kept.safe & board.mines
        assert proof.mines <= kept.mines
        assert set(kept.constraints()) == set(fresh.constraints())
        if kept.safe:  # open some of the proved cells, as a strategy may
            opened = rng.sample(sorted(kept.safe), rng.randint(1, len(kept.safe)))
        else:
            safe = [c for c in range(size) if c not in board.mines and c not in revealed]
            if not safe:
                break
            opened = [rng.choice(safe)]
        revealed.update((cell, board.count(cell)) for cell in opened)


def same_state(fast, slow: SubsetProver) -> None:
    assert fast.safe == slow.safe and fast.mines == slow.mines
    assert fast.revealed == slow.revealed
    assert set(fast.constraints()) == set(slow.constraints())
    assert fast.unknown() == slow.unknown() and fast.unknown_count() == slow.unknown_count()


@needs_compiled
@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(kinds()),
    st.integers(3, 8),
    st.integers(3, 8),
    st.floats(0.05, 0.35),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_the_compiled_prover_proves_what_the_reference_proves(
    kind: str, rows: int, cols: int, density: float, told: bool, seed: int
) -> None:
    """Move by move on any topology, with known mines fed in and cells learnt from outside:
    the same proofs, the same open numbers, the same unknown cells."""
    rng = random.Random(seed)
    topology = small_topology(kind, rows, cols, rng)
    size = topology.size
    board = Board(topology, rng.sample(range(size), max(1, int(size * density))))
    count = len(board.mines) if told else None
    fast = subset_prover(topology, count)
    assert type(fast) is compiled.Prover
    slow = SubsetProver(topology, count)
    revealed: dict[int, int] = {}
    known: set[int] = set()
    for _ in range(size):
        view = View(topology, dict(revealed), frozenset(known), count)
        assert fast.follows(view) and slow.follows(view)
        fast.see(view)
        slow.see(view)
        fast_proof, slow_proof = fast.prove(), slow.prove()
        assert fast_proof == slow_proof
        same_state(fast, slow)
        if rng.random() < 0.2:  # a mine the player found some other way
            hidden = [c for c in board.mines if c not in fast.mines]
            if hidden:
                known.add(rng.choice(hidden))
        if rng.random() < 0.1:  # a cell another prover proved
            cell = rng.randrange(size)
            if cell not in board.mines and cell not in revealed:
                fast.learn(safe=[cell])
                slow.learn(safe=[cell])
                same_state(fast, slow)
        if fast.safe:
            opened = rng.sample(sorted(fast.safe), rng.randint(1, len(fast.safe)))
        else:
            safe = [c for c in range(size) if c not in board.mines and c not in revealed]
            if not safe:
                break
            opened = [rng.choice(safe)]
        revealed.update((cell, board.count(cell)) for cell in opened)
    other = View(topology, {**revealed, size - 1: -1}, frozenset(known), count)
    assert fast.follows(other) == slow.follows(other)


@needs_compiled
def test_the_compiled_prover_raises_where_the_reference_does() -> None:
    topology = SquareTopology(3, 3)
    for prover in (subset_prover(topology, 1), SubsetProver(topology, 1)):
        prover.learn(mines=[0])
        with pytest.raises(InconsistentView):
            prover.reveal(0, 1)
        with pytest.raises(InconsistentView):
            prover.learn(safe=[0])
        prover.reveal(4, 0)  # no mine around, and one is
        with pytest.raises(InconsistentView):
            prover.prove()
    with pytest.raises(ValueError, match="not on the board"):
        subset_prover(topology).reveal(9, 0)


def test_the_neighbour_table_lists_each_cells_neighbours() -> None:
    topology = SquareTopology(4, 5)
    starts, cells = neighbour_table(topology)
    for cell in topology.cells():
        assert list(cells[starts[cell] : starts[cell + 1]]) == list(topology.neighbours(cell))


@needs_compiled
def test_what_follows_kept_serves_only_the_view_it_looked_at() -> None:
    """`follows` keeps the new cells of the view it looked at for `see` of that view; `see`
    of another view (more cells, or a number `follows` refused) reads that view itself."""
    topology = SquareTopology(4, 4)
    board = Board(topology, [0, 15])
    counts = {cell: board.count(cell) for cell in range(16) if cell not in board.mines}
    first = View(topology, {5: counts[5]}, frozenset(), 2)
    more = View(topology, {5: counts[5], 6: counts[6], 10: counts[10]}, frozenset(), 2)
    fast, slow = subset_prover(topology, 2), SubsetProver(topology, 2)
    for prover in (fast, slow):
        prover.see(first)
        assert prover.follows(first)
        prover.see(more)  # not the view it followed: every cell of ``more``
        prover.prove()
    same_state(fast, slow)
    assert fast.revealed == {5: counts[5], 6: counts[6], 10: counts[10]}
    wrong = View(topology, {5: counts[5] + 1, 9: counts[9]}, frozenset(), 2)
    assert not fast.follows(wrong) and not slow.follows(wrong)
    assert fast.follows(more) and slow.follows(more)
