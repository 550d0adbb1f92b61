"""The judge's overhead per move: one process playing a case, against judge and client piped.

    python scripts/research/judge_overhead.py [--games 20] [--seed 1] \\
        [--rows 30 --cols 30 --mines 135]

Each seeded board (first click in the middle, a zero) is played twice with the
default strategy, paired:

- alone: `python -m minesweeper advanced case.in`, the judge and the client in
  one process, talking through map text;
- piped: this process as the judge (`play_client`) and `python -m minesweeper
  client` as a child, over pipes.

Both start one Python process with the solver, so start-up cancels in the
paired difference; what remains is the pipes, the line protocol and the
judge's process handling. CPU is the judge's plus the child's (both sides'
work); wall is noisy on a shared machine. Both must play the same games.
For scale, each board is also played in this process (`run_case`), without
any start-up: the CPU a move costs when nothing is piped.
Medians with distribution-free 95% intervals.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import PYTHON, children_cpu, game_options, piped, show

from minesweeper.advanced import DEFAULT_STRATEGY, run_case
from minesweeper.boards.cases import AdvancedCase, format_case
from minesweeper.boards.generate import random_board
from minesweeper.solver.registry import find_strategy
from minesweeper.topology import SquareTopology


def alone(path: Path) -> tuple[str, float, float]:
    """``minesweeper advanced`` in a fresh process: its output, CPU and wall seconds."""
    cpu, wall = children_cpu(), time.perf_counter()
    result = subprocess.run([*PYTHON, "advanced", str(path)], capture_output=True, text=True)
    return result.stdout, children_cpu() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    game_options(parser)
    args = parser.parse_args()
    topology = SquareTopology(args.rows, args.cols)
    first = topology.cell_at(args.rows // 2, args.cols // 2)
    rng = random.Random(args.seed)
    columns: dict[str, list[float]] = {}
    moves = 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.in"
        for game in range(args.games):
            board = random_board(topology, args.mines, rng, first, "zero")
            path.write_text(format_case(board, first))
            case = AdvancedCase(board, first, f"game {game}")
            # Alternate the order so that a drift in the machine's load hits both alike.
            if game % 2:
                lines_b, cpu_b, wall_b = piped(case)
                lines_a, cpu_a, wall_a = alone(path)
            else:
                lines_a, cpu_a, wall_a = alone(path)
                lines_b, cpu_b, wall_b = piped(case)
            if lines_a != lines_b:
                sys.exit(f"game {game}: not the same game: {lines_a!r} != {lines_b!r}")
            steps = int(lines_a.split()[-1])
            moves += steps
            here = run_case(case, find_strategy(DEFAULT_STRATEGY)(0))
            for name, value in {
                "in-process CPU per move, no start-up": here.seconds / steps,
                "alone CPU per game": cpu_a,
                "piped CPU per game": cpu_b,
                "CPU ratio, piped / alone": cpu_b / cpu_a,
                "CPU overhead per move": (cpu_b - cpu_a) / steps,
                "wall ratio, piped / alone": wall_b / wall_a,
                "wall overhead per move": (wall_b - wall_a) / steps,
            }.items():
                columns.setdefault(name, []).append(value)
    print(
        f"{args.games} games {args.rows}x{args.cols}/{args.mines} (seed {args.seed}), "
        f"{moves} moves, {moves / args.games:.0f} per game; same games both ways: yes"
    )
    for name, values in columns.items():
        if "ratio" in name:
            show(name, values, "x", 1)
        else:
            show(name, values)


if __name__ == "__main__":
    main()
