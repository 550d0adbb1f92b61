"""The `minesweeper` command line: a thin layer over the core and the solver.

Commands are imported only when run, so the judge server does not pay for the
solver, rich or textual at start-up.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

import click

from minesweeper.cli.common import one_line_usage_error

#: Every command: its name and where it lives (``module:attribute``).
COMMANDS = {
    "server": "minesweeper.cli.server:server",
    "advanced": "minesweeper.cli.advanced:advanced",
    "grade": "minesweeper.cli.grade:grade",
    "client": "minesweeper.cli.client:client",
    "judge": "minesweeper.cli.judge:judge",
    "bench": "minesweeper.cli.bench:bench",
    "analyze": "minesweeper.cli.analyze:analyze",
    "topology": "minesweeper.cli.topology:topology",
    "generate": "minesweeper.cli.generate:generate",
    "records": "minesweeper.cli.records:records",
    "autoplay": "minesweeper.cli.autoplay:autoplay",
    "play": "minesweeper.cli.play:play",
    "replay": "minesweeper.cli.replay:replay",
    "stats": "minesweeper.cli.stats:stats",
    "strategies": "minesweeper.cli.strategies:strategies",
    "ladder": "minesweeper.cli.ladder:ladder",
}


#: One column wide like "-", but textwrap does not break a line after it.
_GLUED_HYPHEN = "\u2011"


class HelpFormatter(click.HelpFormatter):
    """Click's help formatter, except that a word is never cut at its hyphen
    (``gauss-`` / ``powermean``, ``--no-`` / ``sandbox``): click wraps with textwrap,
    which breaks after any hyphen, and has no switch for it.
    """

    def write_text(self, text: str) -> None:
        super().write_text(text.replace("-", _GLUED_HYPHEN))

    def write_dl(
        self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        glued = [(term, text.replace("-", _GLUED_HYPHEN)) for term, text in rows]
        super().write_dl(glued, col_max, col_spacing)

    def getvalue(self) -> str:
        return super().getvalue().replace(_GLUED_HYPHEN, "-")


class HelpContext(click.Context):
    """The context of every command here: its help is written by `HelpFormatter`."""

    formatter_class = HelpFormatter


def _with_help_context(command: click.Command) -> click.Command:
    """``command``, and the commands of a group, made with `HelpContext`."""
    command.context_class = HelpContext
    for subcommand in getattr(command, "commands", {}).values():
        _with_help_context(subcommand)
    return command


class LazyGroup(click.Group):
    """A group that imports a command's module the first time the command is needed.

    Usage errors of the group and of every command under it are reported in one
    line, like every other error (``--help`` is unchanged).
    """

    context_class = HelpContext

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            raise one_line_usage_error(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            raise one_line_usage_error(error) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attribute = target.split(":")
        return _with_help_context(getattr(importlib.import_module(module), attribute))


@click.group(
    cls=LazyGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="minesweeper")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Minesweeper judge, solver, benchmarks and game."""
    if ctx.invoked_subcommand is None:  # alone, the command says what it does: not an error
        click.echo(ctx.get_help())


__all__ = ["COMMANDS", "main"]
