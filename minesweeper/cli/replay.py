"""`minesweeper replay`: show a saved game again in the terminal, or print its statistics."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from minesweeper.cli.common import reports_errors
from minesweeper.play.replay import Replay, read_replay
from minesweeper.play.videos import is_video, read_video

F = TypeVar("F", bound=Callable[..., Any])


def viewer_options(command: F) -> F:
    """``--speed X`` and ``--stats``: how a replay is shown (here and by `records play`)."""
    command = click.option(
        "--stats", "stats_only", is_flag=True, help="Print the game's statistics only."
    )(command)
    return click.option(
        "--speed",
        type=click.FloatRange(min=0.01, max=1000),
        default=1.0,
        show_default=True,
        help="Times the real pace (2: twice as fast).",
    )(command)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@viewer_options
@click.option(
    "--analyze",
    is_flag=True,
    help="Print every click judged by the exact engine (certain, forced guess with its exact "
    "chance, avoidable risk with the safer cell) and the summary, instead of the viewer.",
)
@reports_errors
def replay(file: Path, speed: float, stats_only: bool, analyze: bool) -> None:
    """Show the game in FILE at its real pace, then its statistics.

    FILE is one of our replays (docs/replay.md) or a community video: Arbiter
    (.avf), Viennasweeper (.rmv) or Metasweeper (.evf), read by ms-toollib
    (pip install 'minesweeper[videos]').

    Keys: space pauses and resumes, left and right arrows step one click back
    or forward (and pause), home and end jump, a judges each click (the
    analysis below), q quits. With --stats, print the
    game's kind, player, result, 3BV, clicks, efficiency and 3BV/s, and nothing else.
    With --analyze, judge every click that opened cells on what the player could
    see just before it: certain, a forced guess (with its exact chance of being
    safe) or an avoidable risk (naming the cell that was safe, or safer), then the
    chance the guesses came out safe from each guess on.
    """
    # A bad file fails here, as one line, before the screen changes.
    game = read_video(file) if is_video(file) else read_replay(file)
    if analyze:
        from minesweeper.play.review import Review  # the solver loads only for the analysis

        for line in game.summary():
            click.echo(line)
        for line in Review.of(game).lines():
            click.echo(line)
        return
    show(game, speed, stats_only)


def show(game: Replay, speed: float, stats_only: bool) -> None:
    """Play ``game`` in the terminal (unless ``stats_only``), then print its statistics."""
    game.final  # noqa: B018 - a replay whose clicks make no game fails here, before the screen
    if not stats_only:
        from minesweeper.tui.replay import ReplayApp  # Textual loads only for the viewer

        ReplayApp(game, speed).run()
    for line in game.summary():
        click.echo(line)
