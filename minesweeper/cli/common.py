"""Pieces every command shares: error reporting and common options."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from click.shell_completion import CompletionItem

from minesweeper.errors import MinesweeperError, TopologyError
from minesweeper.topology import TOPOLOGIES, find_topology

F = TypeVar("F", bound=Callable[..., Any])

#: Exit status for bad input or a failed check.
EXIT_BAD_INPUT = 2


def fail(message: str, status: int = EXIT_BAD_INPUT) -> None:
    """Print ``minesweeper: message`` on stderr and exit with ``status``."""
    click.echo(f"minesweeper: {message}", err=True)
    sys.exit(status)


def reports_errors(command: F) -> F:
    """Turn the package's errors into one stderr line and exit status 2, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except MinesweeperError as error:
            fail(str(error))
        except BrokenPipeError:
            # The reader went away (e.g. `| head`): nothing left to say.
            sys.stderr.close()
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


class _OneLineError(click.ClickException):
    """A bad option value reported like every other error: one ``minesweeper:`` line."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file: Any = None) -> None:
        click.echo(f"minesweeper: {self.format_message()}", err=True)


class _TopologyName(click.ParamType):
    """A registered topology name, any case; an unknown one is a one-line error."""

    name = "topology"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            return find_topology(str(value)).name
        except TopologyError as error:
            raise _OneLineError(f"--topology: {error}") from None

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        return [CompletionItem(name) for name in sorted(TOPOLOGIES) if name.startswith(incomplete)]


def topology_option(command: F) -> F:
    """The ``--topology NAME`` option (default ``square``)."""
    return click.option(
        "--topology",
        type=_TopologyName(),
        metavar="NAME",
        default="square",
        show_default=True,
        help=f"Shape of the board's cells: {', '.join(sorted(TOPOLOGIES))}.",
    )(command)


def replay_dir_option(command: F) -> F:
    """The ``--replay-dir DIR`` option: where the replay of every finished game is saved."""
    return click.option(
        "--replay-dir",
        type=click.Path(file_okay=False, path_type=Path),
        metavar="DIR",
        help="Save the replay of every finished game in DIR (see docs/replay.md).",
    )(command)
