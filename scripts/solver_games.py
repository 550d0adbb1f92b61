"""Seeded games for the solver scripts: win rates with Wilson intervals, until `bench` covers it.

Usage: ``python scripts/solver_games.py [--games N] [--seed S] [-s STRATEGY]... [PRESET]...``

Boards come from `minesweeper.boards.generate.random_board` with the first click
guaranteed an opening at the preset's start; the strategy is not told the mine
count; games go through `minesweeper.client.play`, the client's own loop.
Board ``i`` of a preset is drawn from ``random.Random(f"{seed}:{preset}:{i}")``,
so every strategy meets the same boards (the same boards as ``minesweeper bench
--rules acm --seed S``, whose generator uses the same scheme).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterator

import click

from minesweeper.board import Board
from minesweeper.boards.generate import random_board
from minesweeper.client import GameRecord, play
from minesweeper.solver.registry import find_strategy
from minesweeper.solver.strategy import Strategy
from minesweeper.topology import SquareTopology
from minesweeper.variant import PRESETS, FirstClick


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def boards(preset: str, games: int, seed: int) -> Iterator[tuple[Board, int]]:
    """The preset's seeded boards, each with its first-click cell."""
    spec = PRESETS[preset]
    topology = SquareTopology(spec.rows, spec.cols)
    first = topology.cell_at(*spec.start)
    for index in range(games):
        rng = random.Random(f"{seed}:{preset}:{index}")
        yield random_board(topology, spec.mines, rng, first, FirstClick.OPENING), first


def run(preset: str, games: int, seed: int, make: Callable[[int], Strategy]) -> list[GameRecord]:
    """Play ``games`` boards of ``preset``; ``make(i)`` builds the strategy for game ``i``."""
    return [
        play(board, first, make(index))
        for index, (board, first) in enumerate(boards(preset, games, seed))
    ]


def summary(records: list[GameRecord]) -> str:
    wins = sum(r.won for r in records)
    lo, hi = wilson(wins, len(records))
    median = statistics.median(r.seconds for r in records)
    return (
        f"{wins}/{len(records)} = {wins / len(records):.1%} "
        f"[{lo:.1%}, {hi:.1%}]  median {median:.4f} s/game"
    )


def sign_test(a: int, b: int) -> float:
    """Two-sided exact sign-test p-value of ``a`` against ``b`` discordant games."""
    n = a + b
    tail = sum(math.comb(n, k) for k in range(min(a, b) + 1)) / 2**n if n else 1.0
    return min(1.0, 2 * tail)


@click.command()
@click.argument("presets", nargs=-1)
@click.option("--games", default=200, show_default=True, help="Boards per preset.")
@click.option("--seed", default=1, show_default=True, help="Seed of the boards.")
@click.option("-s", "--strategy", "names", multiple=True, help="Strategies (default: both).")
def main(presets: tuple[str, ...], games: int, seed: int, names: tuple[str, ...]) -> None:
    """Win rate, 95% Wilson interval and median CPU seconds per preset and strategy.

    With two strategies, also the games only one of them won, and the sign test.
    """
    names = names or ("gauss-powermean", "worlds")
    for preset in presets or tuple(PRESETS):
        won = []
        for name in names:
            cls = find_strategy(name)
            records = run(preset, games, seed, lambda i, cls=cls: cls(seed=i))
            won.append([r.won for r in records])
            click.echo(f"{preset:13} {name:16} {summary(records)}")
        if len(names) == 2:
            only_first = sum(a and not b for a, b in zip(*won, strict=True))
            only_second = sum(b and not a for a, b in zip(*won, strict=True))
            click.echo(
                f"{preset:13} won by {names[0]} only: {only_first}, by {names[1]} only: "
                f"{only_second}, sign test p = {sign_test(only_first, only_second):.2g}"
            )


if __name__ == "__main__":
    main()
