"""The probability engine against ms-toollib on the same positions: time ratio, largest difference.

Usage: ``python scripts/research/compare_mstoollib.py [--positions N] [--seed S]
[--set expert|30x30|large]``

Needs ``pip install ms-toollib``. Three sets of square positions, the mine
count known:

- expert: 16x30/99 boards (first click an opening at (3, 3)) played by
  ``exact-safest`` up to a random guess it must make, then frozen;
- 30x30 at 20% (180 mines), the same way;
- large frontiers: 30x30/180 boards with each safe cell revealed at random
  (a share drawn per board), kept when the largest connected frontier has
  100-220 cells.

Each position is solved by both sides (best of 3 CPU times,
``time.process_time``); the script prints, per set, the median of the
per-position ratio engine / ms-toollib, each side's median time, and the
largest difference between the two sides' probabilities over every unknown
cell. Positions ms-toollib rejects are counted and left out.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

import ms_toollib
from common import largest_component

from minesweeper.board import Board
from minesweeper.boards.generate import random_board
from minesweeper.game import Game, State
from minesweeper.solver import View
from minesweeper.solver.best import ExactSafest
from minesweeper.solver.probability import probabilities
from minesweeper.topology import SquareTopology
from minesweeper.variant import FirstClick

UNKNOWN = 10  # ms-toollib's code for a covered cell


def at_guess(board: Board, first: int, rng: random.Random) -> View | None:
    """The view when exact-safest must guess, after a random number of guesses (None: over)."""
    game = Game(board)
    strategy = ExactSafest()
    revealed: dict[int, int] = {}
    mines: set[int] = set()
    skip = rng.randint(0, 3)

    def visit(cell: int) -> None:
        for other in game.visit(cell):
            revealed[other] = board.count(other)

    visit(first)
    while game.state is State.PLAYING:
        view = View(board.topology, dict(revealed), frozenset(mines), board.mine_count)
        decision = strategy.decide(view)
        if decision.guess:
            if skip == 0:
                return view
            skip -= 1
        mines |= decision.mines
        for cell in decision.opens:
            if cell not in revealed:
                visit(cell)
            if game.state is not State.PLAYING:
                break
    return None


def played(rows: int, cols: int, mines: int, count: int, seed: int) -> list[View]:
    topology = SquareTopology(rows, cols)
    first = topology.cell_at(3, 3)
    views: list[View] = []
    index = 0
    while len(views) < count:
        rng = random.Random(f"{seed}:{rows}x{cols}:{index}")
        index += 1
        board = random_board(topology, mines, rng, first, FirstClick.OPENING)
        view = at_guess(board, first, rng)
        if view is not None:
            views.append(view)
    return views


def large_frontiers(count: int, seed: int, low: int = 100, high: int = 220) -> list[View]:
    topology = SquareTopology(30, 30)
    views: list[View] = []
    index = 0
    while len(views) < count:
        rng = random.Random(f"{seed}:large:{index}")
        index += 1
        board = Board(topology, rng.sample(range(topology.size), 180))
        share = rng.uniform(0.15, 0.6)
        revealed = {
            c: board.count(c)
            for c in topology.cells()
            if not board.is_mine(c) and rng.random() < share
        }
        view = View(topology, revealed, frozenset(), 180)
        if low <= largest_component(view) <= high:
            views.append(view)
    return views


def as_toollib(view: View) -> list[list[int]]:
    rows, cols = view.topology.shape
    grid = [[UNKNOWN] * cols for _ in range(rows)]
    for cell, shown in view.revealed.items():
        row, col = view.topology.position(cell)
        grid[row][col] = shown
    return grid


def cpu(call: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        value = call()
        best = min(best, time.process_time() - start)
    return best, value


def compare(label: str, views: list[View]) -> None:
    ratios, ours, theirs, differences = [], [], [], []
    rejected = approximate = 0
    for view in views:
        grid = as_toollib(view)
        try:
            their_time, (their, _) = cpu(
                partial(ms_toollib.cal_probability_onboard, grid, view.mine_count)
            )
        except RuntimeError:  # what ms-toollib raises on a position it cannot solve
            rejected += 1
            continue
        our_time, result = cpu(partial(probabilities, view))
        approximate += result.approximate
        worst = 0.0
        for cell in result:
            row, col = view.topology.position(cell)
            worst = max(worst, abs(result.chance(cell) - their[row][col]))
        ratios.append(our_time / max(their_time, 1e-6))
        ours.append(our_time)
        theirs.append(their_time)
        differences.append(worst)
    sizes = sorted(largest_component(v) for v in views)
    print(
        f"{label}: {len(ratios)} positions (largest frontier {sizes[0]}-{sizes[-1]} cells; "
        f"{rejected} rejected by ms-toollib, {approximate} approximate), "
        f"median time ratio {statistics.median(ratios):.2f} "
        f"(engine {statistics.median(ours) * 1000:.2f} ms, "
        f"ms-toollib {statistics.median(theirs) * 1000:.2f} ms; "
        f"worst ratio {max(ratios):.2f}, engine max {max(ours) * 1000:.0f} ms), "
        f"largest probability difference {max(differences):.2g}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50, help="positions per set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--set", action="append", choices=["expert", "30x30", "large"], help="default: all"
    )
    args = parser.parse_args()
    sets = args.set or ["expert", "30x30", "large"]
    if "expert" in sets:
        compare("expert at a guess", played(16, 30, 99, args.positions, args.seed))
    if "30x30" in sets:
        compare("30x30/180 at a guess", played(30, 30, 180, args.positions, args.seed))
    if "large" in sets:
        compare("30x30/180 large frontiers", large_frontiers(args.positions, args.seed))


if __name__ == "__main__":
    main()
