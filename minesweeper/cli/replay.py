"""`minesweeper replay`: show a saved game again in the terminal, or print its statistics."""

from __future__ import annotations

from pathlib import Path

import click

from minesweeper.cli.common import reports_errors
from minesweeper.play.replay import Replay, read_replay


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--speed",
    type=click.FloatRange(min=0.01, max=1000),
    default=1.0,
    show_default=True,
    help="Times the real pace (2: twice as fast).",
)
@click.option("--stats", "stats_only", is_flag=True, help="Print the game's statistics only.")
@reports_errors
def replay(file: Path, speed: float, stats_only: bool) -> None:
    """Show the game in FILE (a replay, see docs/replay.md) at its real pace, then its statistics.

    Keys: space pauses and resumes, left and right arrows step one click back
    or forward (and pause), home and end jump, q quits. With --stats, print the
    game's kind, player, result, 3BV, clicks, efficiency and 3BV/s, and nothing else.
    """
    show(read_replay(file), speed, stats_only)


def show(game: Replay, speed: float, stats_only: bool) -> None:
    """Play ``game`` in the terminal (unless ``stats_only``), then print its statistics."""
    game.final  # noqa: B018 - a replay whose clicks make no game fails here, before the screen
    if not stats_only:
        from minesweeper.tui.replay import ReplayApp  # Textual loads only for the viewer

        ReplayApp(game, speed).run()
    for line in game.summary():
        click.echo(line)
