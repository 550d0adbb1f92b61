"""`minesweeper replay`: show a saved game again in the terminal, or print its statistics."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from minesweeper.cli.common import reports_errors, seed_option
from minesweeper.play.replay import Replay, read_replay
from minesweeper.play.videos import is_video, open_video

F = TypeVar("F", bound=Callable[..., Any])
#: Layouts played per guess by --analyze unless told (a 95% interval of about +-7%).
DEFAULT_LAYOUTS = 200


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
@click.option(
    "--layouts",
    type=click.IntRange(min=0, max=100_000),
    default=DEFAULT_LAYOUTS,
    show_default=True,
    help="With --analyze: layouts played by the best strategy to estimate the chance to win "
    "from each guess (0: no estimate).",
)
@seed_option(fresh=False)
@click.option(
    "--budget",
    type=click.FloatRange(min=0, max=86_400),
    default=60.0,
    show_default=True,
    help="With --analyze: seconds of CPU for those estimates, shared among the guesses "
    "(what one leaves goes to the next); each says how many layouts it played.",
)
@reports_errors
def replay(
    file: Path,
    speed: float,
    stats_only: bool,
    analyze: bool,
    layouts: int,
    seed: int,
    budget: float,
) -> None:
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
    exact chance that the guesses from each guess on came out safe, and the chance
    the game could still be won from that position: exact with perfect play where
    the endgame search covers it, else the share of --layouts layouts (drawn
    uniformly from those that fit what the player saw, seeded by --seed) that
    the best strategy wins from there, with its 95% interval.
    """
    # A bad file fails here, as one line, before the screen changes.
    if is_video(file):
        game, video = open_video(file)
        told = [video.figures.summary(video.software)]
    else:
        game, told = read_replay(file), []
    if analyze:
        for line in [*game.summary(), *told, *analysis(game, layouts, seed, budget)]:
            click.echo(line)
        return
    show(game, speed, stats_only, told)


def analysis(game: Replay, layouts: int, seed: int, budget: float) -> list[str]:
    """The analysis' lines, under progress bars: each click judged, then the chance to
    win from each guess, within ``budget`` seconds of CPU for the latter."""
    # The solver loads only for the analysis.
    from minesweeper.bench.outlook import outlook
    from minesweeper.play.review import Review

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn(), console=Console(stderr=True)) as progress:
        judging = progress.add_task("judging each click", total=len(game.actions))
        review = Review.of(game, tick=functools.partial(progress.advance, judging))
        worth: list[str] = []
        if not layouts or not review.guesses:
            return list(review.lines(worth))
        guesses = review.guesses
        task = progress.add_task("chance to win from each guess", total=layouts * len(guesses))
        start = time.process_time()
        for number, guess in enumerate(guesses):
            # The budget is shared among the guesses left; what one leaves goes to the next.
            now = time.process_time()
            share = (budget - (now - start)) / (len(guesses) - number)
            spent = functools.partial(_past, now + share)
            tick = functools.partial(progress.advance, task)
            found = outlook(review.position(guess), layouts, seed + number, tick=tick, stop=spent)
            progress.update(task, completed=layouts * (number + 1))
            worth.append(found.describe())
    return list(review.lines(worth))


def _past(deadline: float) -> bool:
    return time.process_time() >= deadline


def show(game: Replay, speed: float, stats_only: bool, told: Sequence[str] = ()) -> None:
    """Play ``game`` in the terminal (unless ``stats_only``), then print its statistics
    (and the lines ``told`` about it)."""
    game.final  # noqa: B018 - a replay whose clicks make no game fails here, before the screen
    if not stats_only:
        from minesweeper.tui.replay import ReplayApp  # Textual loads only for the viewer

        ReplayApp(game, speed).run()
    for line in [*game.summary(), *told]:
        click.echo(line)
