"""Our own blind guesses with a far corner as the other choice, for `compare_decisions.py`.

    minesweeper bench --boards F --rules classic --strategy best --jobs 1 --games 2000 \\
        --decisions ours.jsonl
    python scripts/research/far_corner.py ours.jsonl --out corner.jsonl
    python scripts/research/compare_decisions.py corner.jsonl --layouts 32 --out played.jsonl

Reads a decision log of ``bench --decisions`` and writes the look-ahead guesses (from the
second guess on: the first one is `first_guess.py`'s) where our cell is no corner and a
corner of the board with nothing open within two steps is exactly as safe as it, with the
corner as the logged cell. `compare_decisions.py` then plays on from both: whether opening
a far corner at the same safety wins more than the cell `best` chose beside the open part.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from minesweeper.bench.choices import Logged, read_log
from minesweeper.errors import MinesweeperError
from minesweeper.solver.best import Best
from minesweeper.solver.probability import Probabilities
from minesweeper.solver.view import View


def far_corner(view: View, ours: int, chances: Probabilities) -> int | None:
    """A corner with nothing open within two steps and exactly as safe as ``ours``, if any."""
    topology = view.topology
    rows, cols = topology.rows, topology.cols
    opened = {*view.revealed, *view.mines}
    safety = 1 - chances.chance(ours)
    for row, col in ((0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)):
        near = {
            topology.cell_at(r, c)
            for r in range(max(0, row - 2), min(rows, row + 3))
            for c in range(max(0, col - 2), min(cols, col + 3))
        }
        corner = topology.cell_at(row, col)
        if corner != ours and not near & opened and abs(1 - chances.chance(corner) - safety) < 1e-6:
            return corner
    return None


def rewritten(logged: Logged) -> dict | None:
    """``logged``'s line with a far corner as its cell, or None where it has none."""
    row, topology = logged.row, logged.view.topology
    ends = ((0, topology.rows - 1), (0, topology.cols - 1))
    corners = {topology.cell_at(r, c) for r in ends[0] for c in ends[1]}
    if logged.guess < 2 or row["method"] != "look-ahead" or logged.cell in corners:
        return None
    corner = far_corner(logged.view, logged.cell, Best().solve(logged.view))
    if corner is None:
        return None
    r, c = divmod(corner, topology.cols)
    return {**row, "row": r, "col": c}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log", type=Path, help="our decision log (bench --decisions)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    lines = [line for line in map(rewritten, read_log(args.log)) if line is not None]
    args.out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    print(f"{len(lines)} guesses with a far corner as safe as ours")


if __name__ == "__main__":
    try:
        main()
    except MinesweeperError as error:
        sys.exit(f"far_corner: {error}")
