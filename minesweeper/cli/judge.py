"""`minesweeper judge`: one advanced case played by a foreign client, optionally traced.

Also the options every command that runs foreign programs shares: the
command lines and their limits.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from minesweeper.cases import read_cases_file
from minesweeper.cli.common import reports_errors, topology_option
from minesweeper.judge.interactive import play_client
from minesweeper.judge.process import Limits
from minesweeper.judge.report import outcome
from minesweeper.judge.runner import advanced_grade, for_topology
from minesweeper.protocol import format_result

F = TypeVar("F", bound=Callable[..., Any])


class CommandLine(click.ParamType):
    """A program and its arguments, split like a shell would (no shell runs it)."""

    name = "command"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[str, ...]:
        if isinstance(value, tuple):
            return value
        try:
            words = tuple(shlex.split(str(value)))
        except ValueError as error:
            self.fail(f"{value!r}: {error}", param, ctx)
        if not words:
            self.fail("the command is empty", param, ctx)
        if shutil.which(words[0]) is None:
            self.fail(f"{words[0]!r} is not an executable program", param, ctx)
        return words


def limits_options(command: F) -> F:
    """``--move-seconds``, ``--game-seconds``, ``--memory`` and ``--output-bytes``."""
    defaults = Limits()
    options = [
        click.option(
            "--move-seconds",
            type=click.FloatRange(min=0, min_open=True),
            default=defaults.move_seconds,
            show_default=True,
            help="Wall seconds a client may take per move (the first includes its start).",
        ),
        click.option(
            "--game-seconds",
            type=click.FloatRange(min=0, min_open=True),
            default=defaults.game_seconds,
            show_default=True,
            help="Wall seconds per game (per case for a server).",
        ),
        click.option(
            "--memory",
            type=click.IntRange(min=16),
            default=defaults.memory_mib,
            show_default=True,
            help="Address-space limit of the program, in MiB.",
        ),
        click.option(
            "--output-bytes",
            type=click.IntRange(min=1),
            default=defaults.output_bytes,
            show_default=True,
            help="Bytes the program may write to stdout per game.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def limits_from(move_seconds: float, game_seconds: float, memory: int, output_bytes: int) -> Limits:
    return Limits(move_seconds, game_seconds, memory, output_bytes)


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
    move_seconds: float,
    game_seconds: float,
    memory: int,
    output_bytes: int,
    topology: str,
) -> None:
    """Play the advanced case(s) in FILE with a fresh CMD process each (docs/judge.md).

    Prints each game's `YOU WIN!` or `GAME OVER!` and visit and step counts.
    Exits 1 when the client misbehaves (crashes, exceeds a limit, writes
    something that is not a move, moves off the board, stops early); the
    problem is one line on stderr. A lost game is a result, not a failure.
    """
    limits = limits_from(move_seconds, game_seconds, memory, output_bytes)
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
