"""`minesweeper play`: the terminal game (Textual is imported only when it runs)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from minesweeper.boards.cases import load_board
from minesweeper.cli.common import (
    board_file_option,
    delay_option,
    records_option,
    replay_dir_option,
    reports_errors,
    seed_option,
    strategy_option,
)
from minesweeper.cli.gameopts import game_options
from minesweeper.errors import UsageError
from minesweeper.play.session import Settings


@click.command()
@game_options
@board_file_option(
    "Play this layout first (its size and mines are the file's): an MBF file (.mbf) "
    "or a board in --topology's text format (a first-click line after it is ignored; a "
    "graph's nodes may carry coordinates, docs/play.md). Not recorded.",
)
@seed_option(fresh=True)
@strategy_option(
    "best", help="The computer's strategy: it plays (key a) and makes the hint's guesses (key h)."
)
@delay_option
@records_option
@replay_dir_option
@click.option(
    "--name",
    "player",
    metavar="NAME",
    help="Your name in the records, the replays and the statistics (default: the name "
    "used last, else the login name; the name typed for a record is used from then on).",
)
@reports_errors
def play(
    settings: Settings,
    board_file: Path | None,
    seed: int,
    strategy: str,
    delay: float,
    path: Path | None,
    replay_dir: Path | None,
    player: str | None,
) -> None:
    """Play in the terminal with the mouse or the keyboard.

    Mouse: left click opens (on a satisfied number: chords), right click flags,
    middle click chords. Keys: arrows (or H j k l) move, space or enter opens,
    f flags, m marks ?, c chords, r restarts the layout, n starts a new game,
    a lets the computer play (a again pauses), h shows the safest move, p
    every cell's mine probability, s the settings, t the records (tab: the
    fastest wins), q quits.

    Under --rules acm the mine count is not told: the header shows Mines ?
    and the flags placed, and the computer and the hints play without it.

    A game with a hint, the odds or the computer's moves is assisted and not
    recorded. The end of a game shows its 3BV, clicks, efficiency and 3BV/s.
    """
    board = None
    if board_file is not None:
        if settings.no_guess:
            raise UsageError("--board plays the layout given: drop --no-guess")
        # A bad file fails here, as one line, before the screen changes.
        board, _ = load_board(board_file, settings.variant.topology)
    else:
        settings.variant.make_topology()  # bad sizes fail here too
    if not is_terminal():
        raise UsageError(
            "play needs a terminal (standard input and output are not one); "
            "try `minesweeper autoplay`, or the judge protocol with `minesweeper server`"
        )
    from minesweeper.tui.app import MinesweeperApp  # Textual loads only for this command

    app = MinesweeperApp(
        settings,
        seed=seed,
        records_path=path,
        strategy=strategy,
        delay=delay,
        replay_dir=replay_dir,
        board=board,
        player=player,
    )
    app.run()
    click.echo(f"seed {seed}: --seed {seed} deals these games again", err=True)


def is_terminal() -> bool:
    """Whether a person can play here: standard input and output are a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()
