"""`minesweeper records`: print the records tables; `records verify` checks the file.

`records --times` prints the fastest wins of people instead of the points;
`records verify --replays` plays every entry's replay again and checks it.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from minesweeper.cli.common import fail, records_option, reports_errors
from minesweeper.cli.replay import viewer_options
from minesweeper.play.records import Category, Entry, Ranking, Records, replay_digest


def title(category: Category) -> str:
    """The category's label, with the preset's name when it is one.

    A game under the acm rules does not tell its mine count, so its label leaves
    it out; outside any game the count is no secret, and without a preset's name
    it is what tells two such categories of one size apart.
    """
    variant = category.variant
    preset = variant.preset_name
    if preset is not None:
        return f"{preset}: {category.label}"
    if not variant.count_told:
        return f"{category.label}, {variant.mines} mines"
    return category.label


def render(category: Category, entries: list[Entry], ranking: Ranking = Ranking.POINTS) -> Table:
    """One category's table by ``ranking`` for rich."""
    heading = title(category)
    if ranking is Ranking.TIMES:
        heading += f": {ranking.title}"
    table = Table(title=heading, title_justify="left")
    for name, numeric in ranking.columns:
        table.add_column(name, justify="right" if numeric else "left")
    for place, entry in enumerate(entries, 1):
        table.add_row(*ranking.row(place, entry))
    return table


@click.group(invoke_without_command=True)
@click.option(
    "--category",
    "categories",
    multiple=True,
    metavar="TEXT",
    help="Only categories whose title contains TEXT (e.g. expert, hex, no-guess); repeatable.",
)
@click.option(
    "--times",
    is_flag=True,
    help="The 10 fastest wins of people per category (with 3BV/s) instead of the points.",
)
@records_option
@click.pass_context
@reports_errors
def records(
    ctx: click.Context, categories: tuple[str, ...], times: bool, path: Path | None
) -> None:
    """Print the top-10 table of every category played (or of the --category ones).

    Games with a hint, the odds or the computer's moves are not recorded; the
    computer's own games are, as Computer (in the points table only).
    """
    ctx.obj = path
    if ctx.invoked_subcommand is not None:
        return
    store = Records(path)
    ranking = Ranking.TIMES if times else Ranking.POINTS
    tables = store.load(ranking)
    console = Console()
    shown = 0
    for category in sorted(tables):
        name = title(category).lower()
        if categories and not any(text.lower() in name for text in categories):
            continue
        console.print(render(category, tables[category], ranking))
        shown += 1
    if not shown:
        what = "matching records" if categories else "records"
        if times:
            what = "fastest wins by people" if not categories else "matching fastest wins"
        click.echo(f"no {what} yet in {store.path}")


@records.command()
@records_option
@click.option(
    "--replays",
    is_flag=True,
    help="Also play every entry's replay again and check its points, time and result.",
)
@click.pass_obj
@reports_errors
def verify(group_path: Path | None, path: Path | None, replays: bool) -> None:
    """Check the records file's signature; exit 2 when it fails.

    With --replays, every entry must carry a replay that bears it out: the
    same kind of game, result, points, time, 3BV and clicks, the name's player
    (Computer for the computer alone, nobody's help for a person).
    """
    store = Records(path or group_path)
    if not store.path.exists():
        click.echo(f"no records file at {store.path} (nothing to check)")
        return
    count = store.verify()
    click.echo(f"{store.path}: signature OK, {count} result(s)")
    if replays:
        failed = check_replays(store)
        if failed:
            fail(f"{failed} of {count} result(s) are not borne out by their replays")
        click.echo(f"every replay bears out its result ({count})")


@records.command("play")
@click.argument("place", type=click.IntRange(min=1))
@click.option(
    "--category",
    "categories",
    multiple=True,
    metavar="TEXT",
    help="The category whose title contains TEXT (e.g. expert); needed when several are played.",
)
@click.option("--times", is_flag=True, help="PLACE in the fastest wins instead of the points.")
@viewer_options
@records_option
@click.pass_obj
@reports_errors
def play_entry(
    group_path: Path | None,
    place: int,
    categories: tuple[str, ...],
    times: bool,
    speed: float,
    stats_only: bool,
    path: Path | None,
) -> None:
    """Watch the replay of the entry at PLACE (as `minesweeper replay` shows a file)."""
    from minesweeper.cli.replay import show  # the viewer loads only for this command
    from minesweeper.play.replay import read_replay

    store = Records(path or group_path)
    ranking = Ranking.TIMES if times else Ranking.POINTS
    tables = store.load(ranking)
    found = [
        category
        for category in sorted(tables)
        if not categories or any(text.lower() in title(category).lower() for text in categories)
    ]
    if not found:
        fail(f"no {ranking.title} table matches in {store.path}")
    if len(found) > 1:
        names = "; ".join(title(category) for category in found)
        fail(f"{len(found)} tables match, choose one with --category: {names}")
    (category,) = found
    entries = tables[category]
    if place > len(entries):
        fail(
            f"{title(category)} has {len(entries)} entries in its {ranking.title}, no place {place}"
        )
    entry = entries[place - 1]
    replay_path = store.replay_path(entry)
    if replay_path is None:
        fail(
            f"place {place} ({entry.name}) has no replay: it was recorded before replays were kept"
        )
    show(read_replay(replay_path), speed, stats_only)


def check_replays(store: Records) -> int:
    """Check every entry against its replay, printing one line per failure; how many failed."""
    from minesweeper.play.replay import (
        ReplayError,
        check_entry,
        deal_problems,
        read_replay,
        read_replay_bytes,
    )

    failed = 0
    seen: set[Entry] = set()
    for category, both in sorted(store.standings().items()):
        for entry in [*both.points, *both.times]:
            if entry in seen:
                continue
            seen.add(entry)
            where = f"{title(category)}: {entry.name}, {entry.points} points, {entry.date}"
            replay_path = store.replay_path(entry)
            if replay_path is None:
                problems = ["no replay (recorded before replays were kept, or stripped)"]
            elif not replay_path.exists():
                problems = [f"its replay {replay_path} is missing"]
            else:
                try:  # read once, at most the largest replay: a link to a device cannot hang it
                    data = read_replay_bytes(replay_path)
                    if replay_digest(data) != entry.replay:
                        problems = [f"its replay {replay_path} was changed"]
                    else:
                        replay = read_replay(replay_path)
                        problems = check_entry(replay, category, entry) or deal_problems(replay)
                except ReplayError as error:
                    problems = [str(error)]
            for problem in problems:
                click.echo(f"minesweeper: {where}: {problem}", err=True)
            failed += bool(problems)
    return failed
