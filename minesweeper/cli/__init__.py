"""The `minesweeper` command line: a thin layer over the core and the solver.

Commands are imported only when run, so the judge server does not pay for the
solver, rich or textual at start-up.
"""

from __future__ import annotations

import importlib

import click

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
}


class LazyGroup(click.Group):
    """A group that imports a command's module the first time the command is needed."""

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
