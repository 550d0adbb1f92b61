"""The `minesweeper` command line: a thin layer over the core and the solver."""

from __future__ import annotations

import click

from minesweeper.cli.advanced import advanced
from minesweeper.cli.analyze import analyze
from minesweeper.cli.bench import bench
from minesweeper.cli.autoplay import autoplay
from minesweeper.cli.generate import generate
from minesweeper.cli.grade import grade
from minesweeper.cli.play import play
from minesweeper.cli.records import records
from minesweeper.cli.server import server
from minesweeper.cli.topology import topology


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="minesweeper")
def main() -> None:
    """Minesweeper judge, solver, benchmarks and game."""


main.add_command(server)
main.add_command(topology)
main.add_command(analyze)
main.add_command(advanced)
main.add_command(bench)
main.add_command(grade)
main.add_command(generate)
main.add_command(records)
main.add_command(autoplay)
main.add_command(play)

__all__ = ["main"]
