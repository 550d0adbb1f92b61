"""Options of the commands that run foreign programs (`judge`, `grade`): the programs'
command lines and the limits they run under.
"""

from __future__ import annotations

import functools
import shlex
import shutil
from collections.abc import Callable
from typing import Any, TypeVar

import click

from minesweeper.judge.process import Limits

F = TypeVar("F", bound=Callable[..., Any])

#: The parameters `limits_options` adds, in `Limits`' order.
LIMIT_OPTIONS = ("move_seconds", "game_seconds", "memory", "output_bytes")


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
    """Adds ``--move-seconds``, ``--game-seconds``, ``--memory`` and ``--output-bytes``,
    and hands the command one ``limits: Limits``.
    """

    @functools.wraps(command)
    def with_limits(*args: Any, **kwargs: Any) -> Any:
        limits = Limits(*(kwargs.pop(name) for name in LIMIT_OPTIONS))
        return command(*args, limits=limits, **kwargs)

    defaults = Limits()
    seconds = click.FloatRange(min=0, min_open=True)
    options = [
        click.option(
            "--move-seconds",
            type=seconds,
            default=defaults.move_seconds,
            show_default=True,
            help="Wall seconds a client may take per move (the first includes its start).",
        ),
        click.option(
            "--game-seconds",
            type=seconds,
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
    wrapped: Any = with_limits
    for option in reversed(options):
        wrapped = option(wrapped)
    return wrapped  # type: ignore[no-any-return]
