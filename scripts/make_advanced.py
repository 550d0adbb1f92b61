"""Write testcases/advanced/*.in: seeded advanced cases for `minesweeper grade`.

Sizes run from 5x5 to 30x30 and densities from 0.05 to 0.25; each first click
lands on a zero cell (no mine in it or around it), chosen at random. Running
the script again rewrites the same files.

    python scripts/make_advanced.py [--seed N] [--out DIR]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from minesweeper.boards.cases import format_case
from minesweeper.boards.generate import random_board
from minesweeper.topology import SquareTopology
from minesweeper.variant import FirstClick

OUT = Path(__file__).resolve().parent.parent / "testcases" / "advanced"

#: (rows, cols, density) of each case.
CASES = [
    (5, 5, 0.05),
    (5, 5, 0.25),
    (6, 9, 0.15),
    (8, 8, 0.10),
    (9, 9, 0.12),
    (9, 9, 0.20),
    (10, 10, 0.05),
    (10, 10, 0.15),
    (10, 10, 0.25),
    (12, 20, 0.18),
    (16, 16, 0.10),
    (16, 16, 0.156),
    (16, 30, 0.206),
    (20, 20, 0.08),
    (20, 20, 0.21),
    (25, 25, 0.12),
    (30, 30, 0.05),
    (30, 30, 0.10),
    (30, 30, 0.15),
    (30, 30, 0.20),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2023)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for rows, cols, density in CASES:
        # Each case has its own RNG: adding a case does not change the others.
        rng = random.Random(f"{args.seed}:{rows}x{cols}:{density}")
        topology = SquareTopology(rows, cols)
        mines = round(density * topology.size)
        first = rng.randrange(topology.size)
        board = random_board(topology, mines, rng, first, FirstClick.ZERO)
        assert board.count(first) == 0
        name = f"adv-{rows:02d}x{cols:02d}-{mines:03d}.in"
        (args.out / name).write_text(format_case(board, first))
        print(
            f"{name}: {rows}x{cols}, {mines} mines ({mines / topology.size:.1%}), "
            f"first click {topology.position(first)}"
        )


if __name__ == "__main__":
    main()
