"""The judge's overhead per move: the in-process client against `minesweeper client` over pipes.

    python scripts/judge_overhead.py [--games 20] [--seed 1] [--rows 30 --cols 30 --mines 135]

Plays the same seeded boards (first click in the middle, a zero) twice with
the default strategy: in one process (`run_case`, the judge and the client
talking through map text) and as a child process (`play_client` with
`minesweeper client`, over pipes). Both must play the same games. Start-up is
measured apart, on a board won by the first click (the child starts, reads
one map and exits), and subtracted. CPU is the judge's plus the child's;
medians with 95% intervals (order statistics), and the ratios of the medians.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time

from minesweeper.advanced import DEFAULT_STRATEGY, run_case
from minesweeper.cases import AdvancedCase, parse_case
from minesweeper.generate import random_board
from minesweeper.judge.interactive import play_client
from minesweeper.judge.process import Limits
from minesweeper.solver.strategy import find_strategy
from minesweeper.topology import SquareTopology

CLIENT = [sys.executable, "-m", "minesweeper", "client"]
LIMITS = Limits(move_seconds=30, game_seconds=120)


def median_interval(values: list[float]) -> tuple[float, float, float]:
    """The median and a distribution-free 95% interval for it."""
    ordered = sorted(values)
    n = len(ordered)
    k = max(0, math.floor((n - 1.96 * math.sqrt(n)) / 2))
    return statistics.median(ordered), ordered[k], ordered[n - 1 - k]


def show(label: str, values: list[float], unit: str, scale: float) -> float:
    median, low, high = median_interval(values)
    print(
        f"  {label:34} {median * scale:9.3f} {unit}  (95% {low * scale:.3f} to {high * scale:.3f})"
    )
    return median


def boards(args: argparse.Namespace) -> list[AdvancedCase]:
    topology = SquareTopology(args.rows, args.cols)
    first = topology.cell_at(args.rows // 2, args.cols // 2)
    rng = random.Random(args.seed)
    return [
        AdvancedCase(random_board(topology, args.mines, rng, first, "zero"), first, f"game {i}")
        for i in range(args.games)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rows", type=int, default=30)
    parser.add_argument("--cols", type=int, default=30)
    parser.add_argument("--mines", type=int, default=135)
    args = parser.parse_args()
    strategy = find_strategy(DEFAULT_STRATEGY)

    startup_cpu, startup_wall = [], []
    trivial = parse_case("1 2\n.X\n0 0\n")
    for _ in range(args.games):
        cpu, wall = time.process_time(), time.perf_counter()
        run = play_client(trivial, CLIENT, LIMITS)
        startup_wall.append(time.perf_counter() - wall)
        startup_cpu.append(time.process_time() - cpu + run.cpu_seconds)
    start_cpu, start_wall = statistics.median(startup_cpu), statistics.median(startup_wall)

    in_cpu, in_wall, pipe_cpu, pipe_wall, moves = [], [], [], [], 0
    for case in boards(args):
        wall = time.perf_counter()
        alone = run_case(case, strategy(0))
        in_wall.append((time.perf_counter() - wall) / alone.game.step_count)
        in_cpu.append(alone.seconds / alone.game.step_count)
        cpu, wall = time.process_time(), time.perf_counter()
        piped = play_client(case, CLIENT, LIMITS)
        wall = time.perf_counter() - wall - start_wall
        cpu = time.process_time() - cpu + piped.cpu_seconds - start_cpu
        if piped.problem or (piped.game.visit_count, piped.game.step_count) != (
            alone.game.visit_count,
            alone.game.step_count,
        ):
            sys.exit(f"{case.name}: the piped client played another game ({piped.problem})")
        pipe_wall.append(wall / piped.game.step_count)
        pipe_cpu.append(cpu / piped.game.step_count)
        moves += piped.game.step_count

    print(
        f"{args.games} games {args.rows}x{args.cols}/{args.mines} (seed {args.seed}), "
        f"{moves} moves each way, strategy {DEFAULT_STRATEGY}; same games: yes"
    )
    print("start-up of `minesweeper client` (one map, then exit):")
    show("CPU, judge + child", startup_cpu, "ms", 1000)
    show("wall", startup_wall, "ms", 1000)
    print("per move, start-up subtracted:")
    cpu_in = show("in-process CPU", in_cpu, "ms", 1000)
    cpu_pipe = show("over pipes CPU (judge + child)", pipe_cpu, "ms", 1000)
    wall_in = show("in-process wall", in_wall, "ms", 1000)
    wall_pipe = show("over pipes wall", pipe_wall, "ms", 1000)
    overhead = [pipe - alone for pipe, alone in zip(pipe_cpu, in_cpu, strict=True)]
    show("overhead CPU (pipes - in-process)", overhead, "ms", 1000)
    print(
        f"ratios of medians, pipes / in-process: CPU {cpu_pipe / cpu_in:.2f}, "
        f"wall {wall_pipe / wall_in:.2f}"
    )


if __name__ == "__main__":
    main()
