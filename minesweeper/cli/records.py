"""`minesweeper records`: print the records tables; `records verify` checks the file."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from minesweeper.cli.common import reports_errors
from minesweeper.generate import PRESETS
from minesweeper.records import Category, Entry, Records

records_option = click.option(
    "--records",
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The records file (default: records.json in the user data directory).",
)


def title(category: Category) -> str:
    """The category's label, with the preset's name when it is one."""
    for preset in PRESETS.values():
        if (preset.rows, preset.cols, preset.mines) == (
            category.rows,
            category.cols,
            category.mines,
        ):
            return f"{preset.name}: {category.label}"
    return category.label


def render(category: Category, entries: list[Entry]) -> Table:
    """One category's table for rich."""
    table = Table(title=title(category), title_justify="left")
    table.add_column("Place", justify="right")
    table.add_column("Name")
    table.add_column("Points", justify="right")
    table.add_column("Time", justify="right")
    table.add_column("Result")
    table.add_column("Date (UTC)")
    for place, entry in enumerate(entries, 1):
        date = datetime.fromisoformat(entry.date).strftime("%Y-%m-%d %H:%M")
        table.add_row(
            str(place),
            entry.name,
            str(entry.points),
            f"{entry.seconds:.1f} s",
            "won" if entry.won else "lost",
            date,
        )
    return table


@click.group(invoke_without_command=True)
@click.option(
    "--category",
    "categories",
    multiple=True,
    metavar="TEXT",
    help="Only categories whose title contains TEXT (e.g. expert, hex, no-guess); repeatable.",
)
@records_option
@click.pass_context
@reports_errors
def records(ctx: click.Context, categories: tuple[str, ...], path: Path | None) -> None:
    """Print the top-10 table of every category played (or of the --category ones)."""
    ctx.obj = path
    if ctx.invoked_subcommand is not None:
        return
    store = Records(path)
    tables = store.load()
    console = Console()
    shown = 0
    for category in sorted(tables):
        name = title(category).lower()
        if categories and not any(text.lower() in name for text in categories):
            continue
        console.print(render(category, tables[category]))
        shown += 1
    if not shown:
        what = "matching records" if categories else "records"
        click.echo(f"no {what} yet in {store.path}")


@records.command()
@records_option
@click.pass_obj
@reports_errors
def verify(group_path: Path | None, path: Path | None) -> None:
    """Check the records file's signature; exit 2 when it fails."""
    store = Records(path or group_path)
    if not store.path.exists():
        click.echo(f"no records file at {store.path} (nothing to check)")
        return
    count = store.verify()
    click.echo(f"{store.path}: signature OK, {count} result(s)")
