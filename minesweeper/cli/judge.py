"""`minesweeper judge`: one advanced case played by a foreign client, optionally traced."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from minesweeper.boards.cases import read_cases_file
from minesweeper.cli.builds import built_headers
from minesweeper.cli.common import EXIT_JUDGE_ERROR, reports_errors, topology_option
from minesweeper.cli.programs import CommandLine, compile_options, limits_options, sandbox_options
from minesweeper.judge.escape import printable
from minesweeper.judge.headers import Role
from minesweeper.judge.interactive import play_client
from minesweeper.judge.process import Limits, is_judge_error
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
    metavar="CMD",
    help='The client program, e.g. "./a.out" or "python3 client.py".',
)
@click.option(
    "--client-header",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Or a student's client.h, built with the project's harness (docs/headers.md).",
)
@click.option(
    "--trace", is_flag=True, help="Write the conversation (and the build's command) to stderr."
)
@limits_options(servers=False)
@compile_options
@sandbox_options
@topology_option
@reports_errors
def judge(
    file: Path,
    command: tuple[str, ...] | None,
    client_header: Path | None,
    trace: bool,
    limits: Limits,
    compile_limits: Limits,
    sandbox: Sandbox | None,
    topology: type[Topology],
) -> None:
    """Play the advanced case(s) in FILE with a fresh client process each (docs/judge.md).

    Prints each game's `YOU WIN!` or `GAME OVER!` and visit and step counts.
    Exits 1 when the client misbehaves (crashes, exceeds a limit, writes
    something that is not a move, moves off the board, stops early); the
    problem is one line on stderr. A lost game is a result, not a failure. Exits 3
    when the machine failed to start the client even when tried again (a judge
    error, not the client's result).

    The client runs in a sandbox (docs/judge.md); with `--no-sandbox` it does
    not, and the first line on stderr says so. `--client-header FILE` builds a
    student's `client.h` first and plays the program so built.
    """
    if (command is None) == (client_header is None):
        raise click.UsageError("give the client: --client CMD or --client-header FILE")
    if sandbox is None:
        click.echo(f"minesweeper: {describe(None)}", err=True)
    else:
        require()
        sandbox = dataclasses.replace(sandbox, hidden=(file.resolve().parent,))
    with built_headers({Role.CLIENT: client_header}, compile_limits, sandbox, trace) as built:
        status = play(file, built.get(Role.CLIENT, command), trace, limits, sandbox, topology)
    if status:
        sys.exit(status)


def play(
    file: Path,
    command: tuple[str, ...] | None,
    trace: bool,
    limits: Limits,
    sandbox: Sandbox | None,
    topology: type[Topology],
) -> int:
    """Play every case of ``file`` and print each result; the exit status: 1 when the client
    misbehaved, `EXIT_JUDGE_ERROR` when the machine failed it, else 0."""
    assert command is not None
    status = 0
    for case in read_cases_file(file, topology):
        program = for_topology(command, topology)
        run = play_client(case, program, limits, sys.stderr if trace else None, sandbox=sandbox)
        grade = advanced_grade(run)
        if run.problem:
            status = max(status, EXIT_JUDGE_ERROR if is_judge_error(run.problem) else 1)
            click.echo(f"minesweeper: {printable(case.name)}: {run.problem}", err=True)
        elif not grade.finished:
            click.echo(f"minesweeper: {printable(case.name)}: {outcome(grade)}", err=True)
        else:
            click.echo(format_result(run.game), nl=False)
    return status
