"""No-guess board making: median seconds per board and the share of random boards that pass.

    python scripts/research/bench_noguess.py [--boards 60] [--candidates 1000] [--seed 1]

For beginner, intermediate and expert (first click at the preset's start, the
mines away from it and its neighbours) and each prover: the median time to
make one no-guess board (95% interval from order statistics), and, on the same
``--candidates`` random boards for both provers, the share each prover solves
from the first click without a guess (95% Wilson interval). Seeded: the same
arguments give the same boards.
"""

from __future__ import annotations

import random
import statistics
import time

import click

from minesweeper.boards.generate import random_board
from minesweeper.boards.noguess import no_guess_board, solvable
from minesweeper.intervals import median_interval, wilson_interval
from minesweeper.solver.prover import PROVERS
from minesweeper.topology import SquareTopology
from minesweeper.variant import PRESETS, FirstClick


@click.command()
@click.option("--boards", default=60, show_default=True, help="No-guess boards timed per case.")
@click.option(
    "--candidates", default=1000, show_default=True, help="Random boards checked per preset."
)
@click.option("--seed", default=1, show_default=True)
def bench(boards: int, candidates: int, seed: int) -> None:
    """Print one line per preset and prover."""
    click.echo(
        f"{'preset':<13}{'prover':<8}{'median s/board':>15}  {'95% CI':<19}"
        f"{'pass rate':>10}  95% CI"
    )
    for name in ("beginner", "intermediate", "expert"):
        preset = PRESETS[name]
        topology = SquareTopology(preset.rows, preset.cols)
        first = topology.cell_at(*preset.start)
        rng = random.Random(seed)
        sample = [
            random_board(topology, preset.mines, rng, first, FirstClick.OPENING)
            for _ in range(candidates)
        ]
        for prover_name, prover in PROVERS.items():
            passed = sum(solvable(board, first, prover) for board in sample)
            rng = random.Random(seed)
            times = []
            for _ in range(boards):
                start = time.perf_counter()
                no_guess_board(topology, preset.mines, first, FirstClick.OPENING, rng, prover)
                times.append(time.perf_counter() - start)
            low, high = median_interval(times)
            rate_low, rate_high = wilson_interval(passed, candidates)
            click.echo(
                f"{name:<13}{prover_name:<8}{statistics.median(times):>15.4f}  "
                f"[{low:.4f}, {high:.4f}]  {passed / candidates:>9.1%}  "
                f"[{rate_low:.1%}, {rate_high:.1%}]"
            )


if __name__ == "__main__":
    bench()
