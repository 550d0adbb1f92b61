"""Pieces every command shares: error reporting and common options."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import IO, Any, TypeVar

import click
from click.shell_completion import CompletionItem

from minesweeper.errors import MinesweeperError, TopologyError
from minesweeper.inputs import read_limited
from minesweeper.topology import TOPOLOGIES, find_topology

F = TypeVar("F", bound=Callable[..., Any])

#: Exit status for bad input or a failed check.
EXIT_BAD_INPUT = 2


def fail(message: str, status: int = EXIT_BAD_INPUT) -> None:
    """Print ``minesweeper: message`` on stderr and exit with ``status``.

    Standard output is flushed first, so what was printed comes before the error.
    """
    sys.stdout.flush()
    click.echo(f"minesweeper: {message}", err=True)
    sys.exit(status)


def input_name(file: IO[bytes]) -> str:
    """How messages name an input FILE argument: its path, or ``standard input``."""
    name = getattr(file, "name", "-")
    return "standard input" if name in ("-", "<stdin>") else str(name)


def read_input(file: IO[bytes]) -> bytes:
    """All of a FILE argument opened by ``click.File("rb")``, within `MAX_FILE_BYTES`."""
    return read_limited(file, input_name(file))


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


#: What click (8.2 and later) raises to show a group's help when it is given no command.
_NO_ARGS_IS_HELP: type = getattr(click.exceptions, "NoArgsIsHelpError", ())


class _OneLineError(click.ClickException):
    """A bad option value reported like every other error: one ``minesweeper:`` line."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file: Any = None) -> None:
        click.echo(f"minesweeper: {self.format_message()}", err=True)


def one_line_usage_error(error: click.UsageError) -> click.ClickException:
    """``error`` as one ``minesweeper: COMMAND: problem`` line, not click's usage block.

    A group run without a command still prints its help, as click does.
    """
    if isinstance(error, _NO_ARGS_IS_HELP):
        return error
    ctx = error.ctx
    message = error.format_message()
    if ctx is not None and ctx.parent is not None:  # name the (sub)command, not the program
        command = ctx.command_path.split(" ", 1)[1]
        message = f"{command}: {message} (see '{ctx.command_path} --help')"
    elif ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    one_line = _OneLineError(message)
    one_line.exit_code = error.exit_code
    return one_line


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
