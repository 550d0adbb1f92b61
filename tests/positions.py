"""Positions shared by the solver's and the commands' tests."""

from __future__ import annotations

import random

from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology


def mesh(rows: int, cols: int, seed: int = 1) -> View:
    """An expert board with every other cell of every other row revealed: a 2-D frontier."""
    topology = SquareTopology(16, 30)
    rng = random.Random(seed)
    mines = {c for c in range(topology.size) if rng.random() < 0.2}
    revealed = {}
    for r in range(0, rows, 2):
        for c in range(0, cols, 2):
            cell = topology.cell_at(r, c)
            if cell not in mines:
                revealed[cell] = sum(1 for o in topology.neighbours(cell) if o in mines)
    return View(topology, revealed, mine_count=len(mines))
