"""`minesweeper server`: the judge over stdin/stdout."""

from __future__ import annotations

import sys
from typing import IO

import click

from minesweeper.cli.common import reports_errors, topology_option
from minesweeper.server import serve
from minesweeper.topology.base import Topology


@click.command()
@click.argument("file", type=click.File("rb"), default="-")
@topology_option
@reports_errors
def server(file: IO[bytes], topology: type[Topology]) -> None:
    """Judge one game: read the board and moves from FILE (default stdin), print the maps."""
    result = serve(file, sys.stdout, topology)
    if not result.finished:
        click.echo(
            f"minesweeper: input ended after {result.game.step_count} move(s), "
            "before the game was decided",
            err=True,
        )
