"""`minesweeper client`: the project's own client as a program that speaks the client protocol."""

from __future__ import annotations

import sys

import click

from minesweeper.advanced import DEFAULT_STRATEGY
from minesweeper.cli.common import reports_errors, seed_option, strategy_option, topology_option
from minesweeper.judge.reference import play_stdio
from minesweeper.solver.registry import StrategySpec
from minesweeper.topology.base import Topology


@click.command()
@strategy_option(DEFAULT_STRATEGY, help="The client's strategy.")
@seed_option(fresh=False)
@topology_option
@reports_errors
def client(strategy: StrategySpec, seed: int, topology: type[Topology]) -> None:
    """Play one game as a client: maps on stdin, one move `r c` per line on stdout.

    The judge writes `n m` and the map after the first click; after each move
    it writes the map, and at the end `YOU WIN!` or `GAME OVER!` and the visit
    and step counts (docs/judge.md). Any judge can be played against it, for
    example `minesweeper judge --client "minesweeper client" FILE`.
    """
    stdin = click.open_file("-", "rb")  # bytes: every line is checked, whatever the locale
    play_stdio(stdin, sys.stdout, strategy.build(seed), topology)
