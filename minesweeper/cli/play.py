"""`minesweeper play`: the terminal game (Textual is imported only when it runs)."""

from __future__ import annotations

from pathlib import Path

import click

from minesweeper.cases import load_board
from minesweeper.cli.common import replay_dir_option, reports_errors
from minesweeper.cli.gameopts import game_options
from minesweeper.cli.records import records_option
from minesweeper.session import Settings, SettingsError


@click.command()
@game_options
@click.option(
    "--seed", type=int, help="Random seed of the layouts (the same seed, the same games)."
)
@click.option(
    "--strategy",
    default="best",
    show_default=True,
    help="The computer's strategy when it plays (key a).",
)
@click.option(
    "--delay",
    type=click.FloatRange(min=0.01),
    default=0.25,
    show_default=True,
    help="Seconds between the computer's moves.",
)
@records_option
@click.option(
    "--board",
    "board_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Play this board first: an MBF file (.mbf) or a board in the --topology's text "
    "format (a first-click line after it is ignored). Not recorded.",
)
@replay_dir_option
@reports_errors
def play(
    settings: Settings,
    seed: int | None,
    strategy: str,
    delay: float,
    path: Path | None,
    board_file: Path | None,
    replay_dir: Path | None,
) -> None:
    """Play in the terminal with the mouse or the keyboard.

    Mouse: left click opens, right click flags, middle click chords; a click after
    the end plays the same layout again. Keys: arrows (or H j k l) move, space or
    enter opens, f flags, c chords, r restarts the layout, n starts a new game,
    a lets the computer play (a again pauses), h shows the safest move, p shows
    every cell's mine probability, s opens the settings, t the records, q quits.

    A game with a hint, the odds or the computer's moves is assisted and not
    recorded. The end of a game shows its 3BV, clicks, efficiency and 3BV/s.
    """
    if settings.topology.lower() == "graph":
        raise SettingsError("graph boards have no drawing: play them with the text protocol")
    board = None
    if board_file is not None:
        # A bad file fails here, as one line, before the screen changes.
        board, _ = load_board(board_file, settings.topology)
    else:
        settings.make_topology()  # bad sizes fail here too
    from minesweeper.tui.app import MinesweeperApp  # Textual loads only for this command

    MinesweeperApp(
        settings,
        seed=seed,
        records_path=path,
        strategy=strategy,
        delay=delay,
        replay_dir=replay_dir,
        board=board,
    ).run()
