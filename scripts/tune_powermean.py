"""Tune `gauss-powermean`'s exponents, power-mean order and density threshold on seeded games.

Every setting plays the same boards (``scripts/solver_games.py``: first click an
opening at the preset's start, mine count not told), so settings are compared
game for game. Prints one line per setting, best last.

Runs behind the defaults of `minesweeper.solver.powermean` (one core, 2026-11-29)::

    python scripts/tune_powermean.py --games 600 --seed 11 intermediate      # 205 s CPU
    python scripts/tune_powermean.py --games 1000 --seed 12 --k 0.5 --k 1 --k 3 --k 5 \
        --t 0 --t 1 --t 3 --enough 0.2 intermediate                        # 128 s CPU

Every setting landed between 502/600 and 517/600 in the first run and between
853/1000 and 875/1000 in the second: a plateau. Over the 1600 games both runs
share, ``k_corner > k_edge`` was consistently the worst (85.1-85.4%), every
other setting 86.2-86.3%; the best, ``k_edge=1 k_corner=0.5`` (any ``t``), are
the defaults, with ``t = 1`` and ``enough = 0.2`` (neither changed anything).
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_games import boards, wilson

from minesweeper.client import play
from minesweeper.solver.powermean import GaussPowerMean

K_VALUES = (0.5, 1.0, 2.0, 3.0)
T_VALUES = (-2.0, 0.0, 1.0, 3.0)
ENOUGH_VALUES = (0.1, 0.2)


@click.command()
@click.argument("preset", default="intermediate")
@click.option("--games", default=600, show_default=True, help="Boards per setting.")
@click.option("--seed", default=11, show_default=True, help="Seed of the boards.")
@click.option("--k", "k_values", multiple=True, type=float, help="Exponents to try.")
@click.option("--t", "t_values", multiple=True, type=float, help="Power-mean orders to try.")
@click.option("--enough", "enough_values", multiple=True, type=float, help="Density thresholds.")
def main(
    preset: str,
    games: int,
    seed: int,
    k_values: tuple[float, ...],
    t_values: tuple[float, ...],
    enough_values: tuple[float, ...],
) -> None:
    """Play every setting of the grid on the same boards; print win rates, best last."""
    boards_list = list(boards(preset, games, seed))
    grid = list(
        itertools.product(
            k_values or K_VALUES,
            k_values or K_VALUES,
            t_values or T_VALUES,
            enough_values or ENOUGH_VALUES,
        )
    )
    results = []
    started = time.process_time()
    for k_edge, k_corner, t, enough in grid:
        wins = 0
        for index, (board, first) in enumerate(boards_list):
            strategy = GaussPowerMean(seed=index, k_edge=k_edge, k_corner=k_corner, t=t)
            strategy.enough = enough
            wins += play(board, first, strategy).won
        lo, hi = wilson(wins, games)
        results.append((wins, k_edge, k_corner, t, enough))
        click.echo(
            f"k_edge={k_edge:<4} k_corner={k_corner:<4} t={t:<5} enough={enough:<4} "
            f"{wins}/{games} = {wins / games:.1%} [{lo:.1%}, {hi:.1%}]",
            err=True,
        )
    click.echo(
        f"# {len(grid)} settings x {games} {preset} games, seed {seed}, "
        f"{time.process_time() - started:.0f} s CPU"
    )
    for wins, k_edge, k_corner, t, enough in sorted(results):
        click.echo(
            f"k_edge={k_edge:<4} k_corner={k_corner:<4} t={t:<5} enough={enough:<4} "
            f"{wins}/{games} = {wins / games:.1%}"
        )


if __name__ == "__main__":
    main()
