"""`minesweeper judge`: one advanced case played by a foreign client, optionally traced."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from minesweeper.boards.cases import read_cases_file
from minesweeper.cli.common import reports_errors, topology_option
from minesweeper.cli.programs import CommandLine, limits_options
from minesweeper.judge.interactive import play_client
from minesweeper.judge.process import Limits
from minesweeper.judge.report import outcome
from minesweeper.judge.runner import advanced_grade, for_topology
from minesweeper.protocol import format_result
from minesweeper.topology.base import Topology


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--client",
    "command",
    type=CommandLine(),
    required=True,
    metavar="CMD",
    help='The client program, e.g. "./a.out" or "python3 client.py".',
)
@click.option("--trace", is_flag=True, help="Write the conversation to stderr.")
@limits_options
@topology_option
@reports_errors
def judge(
    file: Path,
    command: tuple[str, ...],
    trace: bool,
    limits: Limits,
    topology: type[Topology],
) -> None:
    """Play the advanced case(s) in FILE with a fresh CMD process each (docs/judge.md).

    Prints each game's `YOU WIN!` or `GAME OVER!` and visit and step counts.
    Exits 1 when the client misbehaves (crashes, exceeds a limit, writes
    something that is not a move, moves off the board, stops early); the
    problem is one line on stderr. A lost game is a result, not a failure.
    """
    failed = False
    for case in read_cases_file(file, topology):
        program = for_topology(command, topology)
        run = play_client(case, program, limits, sys.stderr if trace else None)
        grade = advanced_grade(run)
        if run.problem:
            failed = True
            click.echo(f"minesweeper: {case.name}: {run.problem}", err=True)
        elif not grade.finished:
            click.echo(f"minesweeper: {case.name}: {outcome(grade)}", err=True)
        else:
            click.echo(format_result(run.game), nl=False)
    if failed:
        sys.exit(1)
