"""`minesweeper play`: the terminal game (Textual is imported only when it runs)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from minesweeper.cli.common import delay_option, reports_errors, seed_option, strategy_option
from minesweeper.cli.gameopts import game_options
from minesweeper.cli.records import records_option
from minesweeper.errors import InputError, MinesweeperError
from minesweeper.protocol import LineReader, read_board
from minesweeper.session import Settings


@click.command()
@game_options
@click.option(
    "--board",
    "board_file",
    type=click.File("r"),
    help="Play this layout first (its size and mines are the file's): a board in "
    "--topology's text format; a graph's nodes may carry coordinates (docs/play.md).",
)
@seed_option(fresh=True)
@strategy_option("best", help="The computer's strategy when it plays (key a).")
@delay_option
@records_option
@reports_errors
def play(
    settings: Settings,
    board_file: click.utils.LazyFile | None,
    seed: int,
    strategy: str,
    delay: float,
    path: Path | None,
) -> None:
    """Play in the terminal with the mouse or the keyboard.

    Mouse: left click opens (on a satisfied number: chords), right click flags,
    middle click chords. Keys: arrows (or H j k l) move, space or enter opens,
    f flags, m marks ?, c chords, r restarts the layout, n starts a new game,
    a lets the computer play (a again pauses), h shows the safest move, p
    every cell's mine probability, s the settings, t the records, q quits.
    """
    if not is_terminal():
        raise MinesweeperError(
            "play needs a terminal (standard input and output are not one); "
            "try `minesweeper autoplay`, or the judge protocol with `minesweeper server`"
        )
    board = None
    if board_file is not None:
        if settings.no_guess:
            raise MinesweeperError("--board plays the layout given: drop --no-guess")
        try:
            board = read_board(LineReader(board_file), settings.topology)
        except InputError as error:
            raise MinesweeperError(f"{board_file.name}: {error}") from None
    else:
        settings.make_topology()  # bad sizes fail here, as one line, before the screen changes
    from minesweeper.tui.app import MinesweeperApp  # Textual loads only for this command

    app = MinesweeperApp(
        settings, seed=seed, records_path=path, strategy=strategy, delay=delay, board=board
    )
    app.run()
    click.echo(f"seed {seed}: --seed {seed} deals these games again", err=True)


def is_terminal() -> bool:
    """Whether a person can play here: standard input and output are a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()
