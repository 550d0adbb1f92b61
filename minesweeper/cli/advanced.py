"""`minesweeper advanced`: the judge and the client play one advanced case."""

from __future__ import annotations

import sys
from typing import IO

import click

from minesweeper.advanced import DEFAULT_STRATEGY, run_case
from minesweeper.boards.cases import parse_case
from minesweeper.cli.common import (
    input_name,
    read_input,
    reports_errors,
    seed_option,
    strategy_option,
    topology_option,
)
from minesweeper.solver.registry import StrategySpec
from minesweeper.topology.base import Topology


@click.command()
@click.argument("file", type=click.File("rb"), default="-")
@strategy_option(DEFAULT_STRATEGY, help="The client's strategy.")
@seed_option(fresh=False)
@click.option("--trace", is_flag=True, help="Write every move and the map after it to stderr.")
@topology_option
@reports_errors
def advanced(
    file: IO[bytes],
    strategy: StrategySpec,
    seed: int,
    trace: bool,
    topology: type[Topology],
) -> None:
    """Play the advanced case in FILE (default stdin): the map, then the first click `r c`.

    Prints what the original prints: `YOU WIN!` or `GAME OVER!`, then the visit
    and step counts. The client sees only the maps the judge prints.
    """
    case = parse_case(read_input(file), topology, input_name(file))
    player = strategy.build(seed)
    result = run_case(case, player, sys.stderr if trace else None)
    click.echo(result.result_lines, nl=False)
    if not result.finished:
        click.echo(
            f"minesweeper: the client stopped after {result.game.step_count} move(s), "
            "before the game was decided",
            err=True,
        )
        raise SystemExit(1)
