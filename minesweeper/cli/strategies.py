"""`minesweeper strategies`: every strategy by name, and the settings each declares."""

from __future__ import annotations

import click

from minesweeper.cli.common import reports_errors


def listing(names: tuple[str, ...]) -> str:
    """The strategies ``names`` (all when none), each with its summary and its settings."""
    from minesweeper.solver.registry import STRATEGIES, find_strategy

    blocks = []
    for name in names or sorted(STRATEGIES):
        cls = find_strategy(name)
        summary = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        lines = [f"{name}: {summary}"]
        lines += [f"  {setting.describe()}" for setting in cls.settings().values()]
        if len(lines) == 1:
            lines.append("  (no settings)")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


@click.command()
@click.argument("names", nargs=-1, metavar="[NAME]...")
@reports_errors
def strategies(names: tuple[str, ...]) -> None:
    """List the strategies (or those NAMEd) and their settings: name=default, kind and
    range, what it does. A strategy picked by name takes its settings after a colon
    (--strategy best:cutoff=0.8,regions=1); a thinking budget (think, in its unit) is one
    of them, which --think gives too."""
    click.echo(listing(names))
