"""The engine against ms-toollib, an independent engine, on positions too large for brute force.

Skipped when ms-toollib is not installed (it is in the dev extra on Linux x86_64).
"""

from __future__ import annotations

import random

import pytest

from minesweeper.board import Board
from minesweeper.solver import View
from minesweeper.solver.probability import probabilities
from minesweeper.topology import SquareTopology

ms_toollib = pytest.importorskip("ms_toollib")

UNKNOWN = 10  # ms-toollib's code for a covered cell


def random_reveal(rows: int, cols: int, mines: int, share: float, seed: int) -> View:
    """A board with each safe cell revealed with chance ``share``: wide, tangled frontiers."""
    topology = SquareTopology(rows, cols)
    rng = random.Random(seed)
    board = Board(topology, rng.sample(range(topology.size), mines))
    revealed = {
        c: board.count(c) for c in topology.cells() if not board.is_mine(c) and rng.random() < share
    }
    return View(topology, revealed, frozenset(), mines)


def their_probabilities(view: View) -> list[list[float]]:
    rows, cols = view.topology.shape
    grid = [[UNKNOWN] * cols for _ in range(rows)]
    for cell, shown in view.revealed.items():
        row, col = view.topology.position(cell)
        grid[row][col] = shown
    found, _ = ms_toollib.cal_probability_onboard(grid, view.mine_count)
    return found


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "share", "seed"),
    [(16, 30, 99, 0.3, 1), (16, 30, 99, 0.5, 2), (30, 30, 180, 0.25, 3), (30, 30, 180, 0.4, 4)],
)
def test_exact_like_ms_toollib_on_large_frontiers(rows, cols, mines, share, seed) -> None:
    view = random_reveal(rows, cols, mines, share, seed)
    ours = probabilities(view)
    theirs = their_probabilities(view)
    assert not ours.approximate
    for cell in ours:
        row, col = view.topology.position(cell)
        assert ours.chance(cell) == pytest.approx(theirs[row][col], abs=1e-9)
