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

from minesweeper.judge.headers import COMPILE_LIMITS
from minesweeper.judge.process import Limits
from minesweeper.judge.sandbox import Sandbox

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


def limits_options(*, servers: bool) -> Callable[[F], F]:
    """Adds ``--move-seconds``, ``--game-seconds``, ``--memory`` and ``--output-bytes``,
    and hands the command one ``limits: Limits``; ``servers``: the command grades servers
    too, whose game time is per case.
    """
    return functools.partial(_limits_options, servers=servers)


def _limits_options(command: F, *, servers: bool) -> F:

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
            help="Wall seconds per game" + (" (per case for a server)." if servers else "."),
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
    return wrapped


def sandbox_options(command: F) -> F:
    """Adds ``--no-sandbox`` and ``--pass-env NAME`` and hands the command one
    ``sandbox: Sandbox | None`` (None: unsandboxed). The command adds what to hide."""

    @functools.wraps(command)
    def with_sandbox(*args: Any, no_sandbox: bool, pass_env: tuple[str, ...], **kwargs: Any) -> Any:
        if no_sandbox and pass_env:
            raise click.UsageError("--pass-env: with --no-sandbox the program gets everything")
        sandbox = None if no_sandbox else Sandbox(pass_env=tuple(dict.fromkeys(pass_env)))
        return command(*args, sandbox=sandbox, **kwargs)

    no_sandbox = click.option(
        "--no-sandbox",
        is_flag=True,
        help="Run the programs as this user, seeing its files and network "
        "(where bubblewrap cannot run; the report then says unsandboxed).",
    )
    pass_env = click.option(
        "--pass-env",
        multiple=True,
        metavar="NAME",
        help="Also give the program this environment variable (repeatable); "
        "it gets PATH, LANG, HOME and TMPDIR of its own.",
    )
    return no_sandbox(pass_env(with_sandbox))  # type: ignore[return-value]


def compile_options(command: F) -> F:
    """Adds ``--compile-seconds`` and ``--compile-memory`` (the limits of building a
    student's header) and hands the command one ``compile_limits: Limits``."""

    @functools.wraps(command)
    def with_compile_limits(
        *args: Any, compile_seconds: float, compile_memory: int, **kwargs: Any
    ) -> Any:
        limits = Limits(compile_seconds, compile_seconds, compile_memory)
        return command(*args, compile_limits=limits, **kwargs)

    seconds = click.option(
        "--compile-seconds",
        type=click.FloatRange(min=0, min_open=True),
        default=COMPILE_LIMITS.game_seconds,
        show_default=True,
        help="Wall seconds to build one header.",
    )
    memory = click.option(
        "--compile-memory",
        type=click.IntRange(min=64),
        default=COMPILE_LIMITS.memory_mib,
        show_default=True,
        help="Address-space limit of the compiler, in MiB.",
    )
    wrapped: Any = seconds(memory(with_compile_limits))
    return wrapped
