"""`minesweeper judge`: one advanced case played by a foreign client, optionally traced."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from minesweeper.boards.cases import read_cases_file
from minesweeper.cli.common import reports_errors, topology_option
from minesweeper.cli.programs import CommandLine, limits_options, sandbox_options
from minesweeper.judge.escape import printable
from minesweeper.judge.interactive import play_client
from minesweeper.judge.process import Limits
from minesweeper.judge.report import outcome
from minesweeper.judge.runner import advanced_grade, for_topology
from minesweeper.judge.sandbox import Sandbox, describe, require
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
@sandbox_options
@topology_option
@reports_errors
def judge(
    file: Path,
    command: tuple[str, ...],
    trace: bool,
    limits: Limits,
    sandbox: Sandbox | None,
    topology: type[Topology],
) -> None:
    """Play the advanced case(s) in FILE with a fresh CMD process each (docs/judge.md).

    Prints each game's `YOU WIN!` or `GAME OVER!` and visit and step counts.
    Exits 1 when the client misbehaves (crashes, exceeds a limit, writes
    something that is not a move, moves off the board, stops early); the
    problem is one line on stderr. A lost game is a result, not a failure.
    The client runs in a sandbox (docs/judge.md) unless `--no-sandbox` is given;
    then the first line on stderr says it ran unsandboxed.
    """
    if sandbox is None:
        click.echo(f"minesweeper: {describe(None)}", err=True)
    else:
        require()
        sandbox = dataclasses.replace(sandbox, hidden=(file.resolve().parent,))
    failed = False
    for case in read_cases_file(file, topology):
        program = for_topology(command, topology)
        run = play_client(case, program, limits, sys.stderr if trace else None, sandbox=sandbox)
        grade = advanced_grade(run)
        if run.problem:
            failed = True
            click.echo(f"minesweeper: {printable(case.name)}: {run.problem}", err=True)
        elif not grade.finished:
            click.echo(f"minesweeper: {printable(case.name)}: {outcome(grade)}", err=True)
        else:
            click.echo(format_result(run.game), nl=False)
    if failed:
        sys.exit(1)
