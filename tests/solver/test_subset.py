"""The subset prover fed a game move by move proves what it proves from the whole view at once."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper.board import Board
from minesweeper.solver.subset import SubsetProver
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology


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
