"""What the sandbox costs per case: start-up, and a whole game, sandboxed against not.

    python scripts/research/judge_sandbox_cost.py [--cases 40] [--games 20] \\
        [--rows 30 --cols 30 --mines 135]

First, cases of a program that does nothing (``/bin/true``, then Python
starting): each is run as a `Child` and closed, as the judge does, once in the
sandbox (`Sandbox`, as `grade` makes it) and once without, alternating which
goes first; wall milliseconds, and CPU (the judge's and its children's,
bubblewrap included). Then paired games as in judge_overhead.py (`minesweeper
client` piped, the default strategy): each seeded board played sandboxed and
not, alternating the order; both must play the same game. Medians with
distribution-free 95% intervals; the machine is shared, so ratios matter more
than milliseconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from common import children_cpu, game_options, piped, show

from minesweeper.boards.cases import AdvancedCase
from minesweeper.boards.generate import random_board
from minesweeper.judge.process import Child, Limits
from minesweeper.judge.sandbox import Sandbox, missing
from minesweeper.topology import SquareTopology


def start(command: list[str], sandbox: Sandbox | None) -> tuple[float, float]:
    """One case of ``command``: wall and CPU seconds (judge and children) to start and end it."""
    cpu, wall = time.process_time() + children_cpu(), time.perf_counter()
    with Child(command, Limits(), sandbox) as child:
        child.read_all(time.monotonic() + 30, "time limit")
        child.wait_exit(time.monotonic() + 30)
    return time.perf_counter() - wall, time.process_time() + children_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=40)
    game_options(parser)
    args = parser.parse_args()
    if missing():
        sys.exit(f"no sandbox here: {missing()}")
    sandbox = Sandbox()
    for name, command in (("true", ["/bin/true"]), ("python", [sys.executable, "-c", "pass"])):
        columns: dict[str, list[float]] = {}
        for case in range(args.cases):
            order = [sandbox, None] if case % 2 else [None, sandbox]
            runs = {id(box): start(command, box) for box in order}
            (wall_s, cpu_s), (wall_n, cpu_n) = runs[id(sandbox)], runs[id(None)]
            for label, value in {
                f"{name}: wall, unsandboxed": wall_n,
                f"{name}: wall, sandboxed": wall_s,
                f"{name}: wall added by the sandbox": wall_s - wall_n,
                f"{name}: CPU added by the sandbox": cpu_s - cpu_n,
            }.items():
                columns.setdefault(label, []).append(value)
        print(f"{args.cases} cases of {' '.join(command)}")
        for label, values in columns.items():
            show(label, values)
    topology = SquareTopology(args.rows, args.cols)
    first = topology.cell_at(args.rows // 2, args.cols // 2)
    rng = random.Random(args.seed)
    games: dict[str, list[float]] = {}
    for game in range(args.games):
        board = random_board(topology, args.mines, rng, first, "zero")
        case = AdvancedCase(board, first, f"game {game}")
        if game % 2:
            lines_s, cpu_s, wall_s = piped(case, sandbox)
            lines_n, cpu_n, wall_n = piped(case)
        else:
            lines_n, cpu_n, wall_n = piped(case)
            lines_s, cpu_s, wall_s = piped(case, sandbox)
        if lines_s != lines_n:
            sys.exit(f"game {game}: not the same game: {lines_s!r} != {lines_n!r}")
        for label, value in {
            "game: CPU, unsandboxed": cpu_n,
            "game: CPU ratio, sandboxed / not": cpu_s / cpu_n,
            "game: wall, unsandboxed": wall_n,
            "game: wall ratio, sandboxed / not": wall_s / wall_n,
            "game: wall added by the sandbox": wall_s - wall_n,
        }.items():
            games.setdefault(label, []).append(value)
    print(f"{args.games} games {args.rows}x{args.cols}/{args.mines} (seed {args.seed}), same games")
    for label, values in games.items():
        show(label, values, "x", 1) if "ratio" in label else show(label, values)


if __name__ == "__main__":
    main()
