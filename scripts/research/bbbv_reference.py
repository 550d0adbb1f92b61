"""3BV against the reference: ms-toollib's ``cal_bbbv`` on many seeded random square boards.

The test suite compares 1000 boards (``tests/test_stats.py``); this checks more:
the three presets at their densities, and random sizes up to 30x30 at random
densities. Needs ``pip install ms-toollib``.

Run::

    python scripts/research/bbbv_reference.py --boards 20000 --seed 7
"""

from __future__ import annotations

import random

import click
import ms_toollib

from minesweeper import Board
from minesweeper.play.stats import bbbv
from minesweeper.topology import SquareTopology
from minesweeper.variant import PRESETS


def reference(board: Board) -> int:
    rows, cols = board.topology.shape
    grid = [
        [
            -1 if board.is_mine(cell) else board.count(cell)
            for cell in range(r * cols, (r + 1) * cols)
        ]
        for r in range(rows)
    ]
    return int(ms_toollib.cal_bbbv(grid))


@click.command()
@click.option("--boards", type=click.IntRange(min=1), default=20000, show_default=True)
@click.option("--seed", type=int, default=7, show_default=True)
def main(boards: int, seed: int) -> None:
    """Count the boards where our 3BV and ms-toollib's differ (printing the first few)."""
    rng = random.Random(seed)
    presets = list(PRESETS.values())
    differ = 0
    for index in range(boards):
        if index % 2 == 0:
            preset = presets[index // 2 % len(presets)]
            rows, cols, mines = preset.rows, preset.cols, preset.mines
        else:
            rows, cols = rng.randint(1, 30), rng.randint(1, 30)
            mines = rng.randint(0, rows * cols - 1)
        board = Board(SquareTopology(rows, cols), rng.sample(range(rows * cols), mines))
        ours, theirs = bbbv(board), reference(board)
        if ours != theirs:
            differ += 1
            if differ <= 5:
                click.echo(
                    f"differ: {rows}x{cols}, mines {sorted(board.mines)}: {ours} != {theirs}"
                )
    click.echo(f"{boards} boards, {differ} disagreement(s) with ms-toollib's cal_bbbv")


if __name__ == "__main__":
    main()
