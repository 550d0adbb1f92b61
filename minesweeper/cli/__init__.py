"""The `minesweeper` command line: a thin layer over the core and the solver.

Commands are imported only when run, so the judge server does not pay for the
solver, rich or textual at start-up.
"""

from __future__ import annotations

import importlib
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


class LazyGroup(click.Group):
    """A group that imports a command's module the first time the command is needed.

    Usage errors of the group and of every command under it are reported in one
    line, like every other error (``--help`` is unchanged).
    """

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
        command: click.Command = getattr(importlib.import_module(module), attribute)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="minesweeper")
def main() -> None:
    """Minesweeper judge, solver, benchmarks and game."""


__all__ = ["COMMANDS", "main"]
