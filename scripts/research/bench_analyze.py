"""Time the probability engine on expert mid-game positions and on a wide connected frontier.

Usage: ``python scripts/research/bench_analyze.py [--positions N] [--seed S] [--repeat R]
[--half-revealed] [--sizes N ...] [--time-limit S]``

Positions: expert boards (16x30/99, first click an opening at (3, 3)) from
``random.Random(f"{seed}:{i}")``, played by ``exact-safest`` up to a share of
the safe cells drawn from the same RNG (between 10% and 90%), then frozen.
Each position is timed with the mine count known and unknown (the engine
only: no process start, no parsing); a position's time is the best of
``--repeat`` runs. Then the 100-cell connected frontier: every other cell of
every other row revealed over the top-left 7x20 of an expert board.

``--half-revealed`` instead runs ``minesweeper analyze --format json`` (its
default memory limit, ``--time-limit`` seconds: 10 by default) as a child
process on boards of ``--sizes`` (40x40 and 60x60) with ``--density`` mines
(20%) and each safe cell revealed with chance ``--share`` (1/2), the mine
count unknown and known, and reports each run's CPU time, peak memory and
answer.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from common import largest_component

from minesweeper.board import Board
from minesweeper.boards.generate import random_board
from minesweeper.game import Game, State
from minesweeper.solver import View, frontier
from minesweeper.solver.best import ExactSafest
from minesweeper.solver.probability import probabilities
from minesweeper.topology import SquareTopology
from minesweeper.variant import PRESETS, FirstClick


def mid_game(board: Board, first: int, rng: random.Random) -> View | None:
    """The view once exact-safest revealed a random share of the safe cells (None: lost)."""
    game = Game(board)
    strategy = ExactSafest()
    target = int(board.safe_count * rng.uniform(0.1, 0.9))
    revealed: dict[int, int] = {}
    mines: set[int] = set()

    def visit(cell: int) -> None:
        for other in game.visit(cell):
            revealed[other] = board.count(other)

    visit(first)
    while game.state is State.PLAYING and len(revealed) < target:
        view = View(board.topology, dict(revealed), frozenset(mines), board.mine_count)
        decision = strategy.decide(view)
        mines |= decision.mines
        for cell in decision.opens[:1] if decision.guess else decision.opens:
            if cell not in revealed:
                visit(cell)
            if game.state is not State.PLAYING:
                break
    if game.state is State.LOST or len(revealed) == board.safe_count:
        return None
    return View(board.topology, revealed, frozenset(mines), board.mine_count)


def timed(view: View, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        probabilities(view)
        best = min(best, time.perf_counter() - start)
    return best


def wide_frontier(seed: int) -> View:
    topology = SquareTopology(16, 30)
    rng = random.Random(seed)
    mines = set(rng.sample(range(topology.size), 99))
    board = Board(topology, mines)
    revealed = {}
    for row in range(0, 7, 2):
        for col in range(0, 20, 2):
            cell = topology.cell_at(row, col)
            if cell not in mines:
                revealed[cell] = board.count(cell)
    return View(topology, revealed, frozenset(), 99)


def half_revealed(
    size: int, seed: int, density: float = 0.2, share: float = 0.5
) -> tuple[str, int]:
    """A ``size``x``size`` board, ``density`` mines, each safe cell shown with chance ``share``."""
    topology = SquareTopology(size, size)
    rng = random.Random(f"{seed}:half:{size}")
    mines = set(rng.sample(range(topology.size), int(topology.size * density)))
    board = Board(topology, mines)
    lines = [f"{size} {size}"]
    for row in range(size):
        line = ""
        for col in range(size):
            cell = topology.cell_at(row, col)
            shown = cell not in mines and rng.random() < share
            line += str(board.count(cell)) if shown else "?"
        lines.append(line)
    return "\n".join(lines) + "\n", len(mines)


def run_analyze(text: str, mines: int | None, time_limit: float | None = None) -> str:
    """One ``analyze`` child process: its CPU seconds, peak memory and answer, as a line."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
        file.write(text)
    args = [sys.executable, "-m", "minesweeper", "analyze", "--format", "json", file.name]
    if time_limit is not None:
        args += ["--time-limit", str(time_limit)]
    if mines is not None:
        args += ["--mines", str(mines)]
    with subprocess.Popen(args, stdout=subprocess.PIPE) as child:
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    os.unlink(file.name)
    doc = json.loads(out)
    unknown = sum(p is not None and 0 < p < 1 for row in doc["probabilities"] for p in row)
    return (
        f"{usage.ru_utime + usage.ru_stime:.2f} s CPU, {usage.ru_maxrss // 1024} MB peak, "
        f"approximate {str(doc.get('approximate', 'not reported')).lower()}, best {doc['best']}, "
        f"{len(doc['safe'])} safe, {unknown} uncertain cells, {digits(doc['solutions'])} count"
    )


def digits(solutions: str | None) -> str:
    """The digits of a count shown in full or in scientific form ("no": not counted)."""
    if solutions is None:
        return "no"
    if "e+" in solutions:
        return f"{int(solutions.split('e+')[1]) + 1}-digit"
    return f"{len(solutions)}-digit"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--half-revealed", action="store_true", help="analyze 40x40 and 60x60")
    parser.add_argument("--density", type=float, default=0.2, help="with --half-revealed")
    parser.add_argument("--share", type=float, default=0.5, help="with --half-revealed")
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[40, 60], help="with --half-revealed"
    )
    parser.add_argument(
        "--time-limit", type=float, default=None, help="with --half-revealed (analyze's: 10)"
    )
    args = parser.parse_args()
    if args.half_revealed:
        for size in args.sizes:
            text, mines = half_revealed(size, args.seed, args.density, args.share)
            for told in (None, mines):
                label = "unknown" if told is None else "known"
                answer = run_analyze(text, told, args.time_limit)
                print(f"analyze {size}x{size} half revealed, count {label}: {answer}")
        return
    spec = PRESETS["expert"]
    topology = SquareTopology(spec.rows, spec.cols)
    first = topology.cell_at(*spec.start)
    views = []
    index = 0
    while len(views) < args.positions:
        rng = random.Random(f"{args.seed}:{index}")
        index += 1
        board = random_board(topology, spec.mines, rng, first, FirstClick.OPENING)
        view = mid_game(board, first, rng)
        if view is not None:
            views.append(view)
    for label, known in (("known", True), ("unknown", False)):
        times = []
        for view in views:
            if not known:
                view = View(view.topology, view.revealed, view.mines, None)
            times.append(timed(view, args.repeat))
        times.sort()
        print(
            f"expert mid-game, mine count {label}: {len(times)} positions, "
            f"median {statistics.median(times) * 1000:.2f} ms, "
            f"90th percentile {times[int(len(times) * 0.9)] * 1000:.2f} ms, "
            f"max {times[-1] * 1000:.2f} ms"
        )
    sizes = sorted(largest_component(v) for v in views)
    print(f"largest frontier component: median {statistics.median(sizes)}, max {sizes[-1]} cells")
    for seed in range(3):
        view = wide_frontier(seed)
        result = probabilities(view)
        spent = timed(view, 1)
        print(
            f"wide frontier {seed}: {len(frontier(view))} frontier cells, largest connected "
            f"{largest_component(view)}, {spent * 1000:.0f} ms, "
            f"{'approximate' if result.approximate else 'exact'}, {len(str(result.layouts))}-digit "
            "layout count"
        )


if __name__ == "__main__":
    main()
