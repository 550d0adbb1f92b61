"""`minesweeper stats`: a player's lifetime figures per kind of game, from their history."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich import box
from rich.console import Console
from rich.table import Table

from minesweeper.cli.common import records_option, reports_errors
from minesweeper.cli.records import title
from minesweeper.play.history import COLUMNS, LEGEND, Figures, History, as_dict, row
from minesweeper.play.records import Records


def render(heading: str, items: list[Figures]) -> Table:
    """One category's figures, a row per player and way of playing."""
    table = Table(title=heading, title_justify="left", box=box.SIMPLE_HEAD, padding=0)
    table.add_column("Player", no_wrap=True)
    for name, numeric in COLUMNS:
        table.add_column(name, justify="right" if numeric else "left", no_wrap=True)
    for item in items:
        table.add_row(item.player, *row(item))
    return table


@click.command()
@click.option(
    "--player", metavar="NAME", help="Only this player's games (Computer: the computer's)."
)
@click.option(
    "--category",
    "categories",
    multiple=True,
    metavar="TEXT",
    help="Only categories whose title contains TEXT (e.g. expert, hex, no-guess); repeatable.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@records_option
@reports_errors
def stats(
    player: str | None, categories: tuple[str, ...], as_json: bool, path: Path | None
) -> None:
    """Print lifetime figures per kind of game: games, wins, win rate with its 95%
    interval, current / best streak, best and median winning time, best 3BV/s and
    median efficiency of the wins.

    Every finished game of `play` and `autoplay` counts (games on a --board file
    do not), kept in history.json beside the records file. Unaided, assisted (a
    hint, the odds, the computer taking over) and the computer's own games are
    shown apart, never mixed; no-guess boards are categories of their own.
    """
    history = History.beside(Records(path))
    found = [
        item
        for item in history.figures(player)
        if not categories
        or any(text.lower() in title(item.category).lower() for text in categories)
    ]
    if as_json:
        click.echo(json.dumps(as_dict(found), indent=2))
        return
    if not found:
        who = f" of {player}" if player else ""
        click.echo(f"no games{who} yet in {history.path}")
        return
    console = Console()
    by_category: dict[object, list[Figures]] = {}
    for item in found:
        by_category.setdefault(item.category, []).append(item)
    for items in by_category.values():
        console.print(render(title(items[0].category), items))
    console.print(LEGEND, style="dim")
