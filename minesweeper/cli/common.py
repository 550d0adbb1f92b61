"""Pieces every command shares: error reporting and common options."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from minesweeper.errors import MinesweeperError
from minesweeper.topology import TOPOLOGIES

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


def topology_option(command: F) -> F:
    """The ``--topology NAME`` option (default ``square``)."""
    return click.option(
        "--topology",
        type=click.Choice(sorted(TOPOLOGIES), case_sensitive=False),
        default="square",
        show_default=True,
        help="Shape of the board's cells.",
    )(command)
