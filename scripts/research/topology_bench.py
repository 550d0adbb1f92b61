"""Win rates per strategy and topology at a density that plays like intermediate squares.

Usage: ``python scripts/research/topology_bench.py [--games N] [--seed S] [--jobs J]
[-s STRATEGY]...``

Each topology gets a board of about 256 cells (intermediate's 16 x 16), and as
many mines as make a zero as common as on intermediate squares: with ``d`` the
mean number of neighbours on such a board, the density ``p`` solves
``(1 - p) ** d = (1 - 40/256) ** d_square``. Zeros are what open a board up,
and the expected count of a cell, ``p * d``, stays at intermediate's too (to a
few per cent), so a player sees the same kind of numbers. Games are played by
`minesweeper.bench` under its ACM rules (the first click at (2, 2) is a zero,
the mine count is not told), so the same seed gives the same boards.
"""

from __future__ import annotations

import random
import statistics

import click

from minesweeper.bench import Deal, run_bench
from minesweeper.solver.registry import STRATEGIES, StrategySpec
from minesweeper.topology import TOPOLOGIES, Topology
from minesweeper.variant import PRESETS, Preset, Rules

#: Board shape (rows, cols) per topology: about 256 cells each.
SHAPES = {
    "square": (16, 16),
    "hex": (16, 16),
    "triangle": (16, 16),
    "parquet": (16, 16),
    "domino": (16, 32),  # 512 squares, 256 pieces
    "tromino": (24, 32),  # 768 squares, 256 pieces
    "tetromino": (32, 32),  # 1024 squares, 256 pieces
    "graph": (16, 16),
}
#: Boards drawn to measure the mean degree of a topology that varies.
SAMPLES = 20


def mean_degree(name: str) -> tuple[float, int]:
    """The mean number of neighbours on the topology's benchmark board, and its cells."""
    rows, cols = SHAPES[name]
    degrees = []
    cells = 0
    for seed in range(SAMPLES):
        topology: Topology = TOPOLOGIES[name].random(rows, cols, random.Random(seed))
        degrees += [len(topology.neighbours(cell)) for cell in topology.cells()]
        cells = topology.size
    return statistics.fmean(degrees), cells


def matched_mines(name: str, reference: float) -> tuple[int, float, float]:
    """Mines, density and mean degree giving the share of zeros of intermediate squares."""
    intermediate = PRESETS["intermediate"]
    degree, cells = mean_degree(name)
    zero_share = (1 - intermediate.density) ** reference
    density = 1 - zero_share ** (1 / degree)
    return round(density * cells), density, degree


@click.command()
@click.option("--games", type=click.IntRange(min=1), default=500, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("-s", "--strategy", "strategies", multiple=True, help="Default: every strategy.")
def main(games: int, seed: int, jobs: int, strategies: tuple[str, ...]) -> None:
    """Print a Markdown table: topology, board, mines, then each strategy's win rate."""
    names = list(strategies) or sorted(STRATEGIES)
    reference, _ = mean_degree("square")
    deals = []
    header = {}
    for name in SHAPES:
        mines, density, degree = matched_mines(name, reference)
        rows, cols = SHAPES[name]
        preset = Preset(name, rows, cols, mines, (2, 2))
        deals.append(Deal.of_preset(preset, Rules.ACM, games, TOPOLOGIES[name]))
        header[name] = (rows, cols, mines, density, degree)
    results = run_bench(deals, [StrategySpec(n) for n in names], seed=seed, jobs=jobs)
    click.echo(
        "| topology | board | mean degree | mines | density | "
        + " | ".join(names)
        + " |\n|"
        + "---|" * (5 + len(names))
    )
    for name in SHAPES:
        rows, cols, mines, density, degree = header[name]
        cells = []
        for result in results:
            if result.deal.topology == name:
                low, high = result.ci95
                cells.append(f"{result.win_rate:.1%} ({low:.1%}-{high:.1%})")
        click.echo(
            f"| {name} | {rows}x{cols} | {degree:.2f} | {mines} | {density:.3f} | "
            + " | ".join(cells)
            + " |"
        )
    click.echo(f"\n{games} games per topology and strategy, seed {seed}, ACM rules.")


if __name__ == "__main__":
    main()
