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
@click.option(
    "--ladder",
    "ladder_url",
    metavar="URL",
    help="Play ranked on the ladder at URL (--preset beginner, intermediate or expert; "
    "--rules modern or classic). Sign in once: the token is kept in your config folder.",
)
@click.option("--sign-up", is_flag=True, help="With --ladder: make your account first.")
@click.option(
    "--web",
    is_flag=True,
    help="Play in a web browser instead: serves the game on 127.0.0.1 (the ladder service "
    "with its embedded database) and opens the page, or prints its address.",
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
    ladder_url: str | None,
    sign_up: bool,
    web: bool,
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

    With --ladder URL the games are ranked games on that ladder server: it deals
    and judges them, and they are played unaided.
    """
    if ladder_url is not None:
        if board_file is not None or settings.no_guess:
            raise UsageError("--ladder plays the server's boards: drop --board/--no-guess")
        play_ranked(ladder_url, settings, sign_up)
        return
    if web:
        if board_file is not None:
            raise UsageError("--web deals its boards on the server: drop --board")
        settings.variant.make_topology()  # bad sizes fail here, before the server starts
        from minesweeper.web.local import serve  # the service loads only for --web

        serve(settings, say=lambda line: click.echo(line, err=True))
        return
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


def play_ranked(url: str, settings: Settings, sign_up: bool) -> None:
    """Sign in to the ladder at ``url`` (once: the token is kept) and play ranked there."""
    from minesweeper.ladder.categories import parse_ranked
    from minesweeper.ladder.remote import LadderClient, RemoteError, TokenStore

    parse_ranked(str(settings.variant))  # a game that is not ranked fails before anything
    if not is_terminal():
        raise UsageError("play needs a terminal (standard input and output are not one)")
    store = TokenStore()
    remote = LadderClient(url, store.get(url))
    try:
        if remote.token is None or sign_up or remote.me()["bot"]:
            raise RemoteError("sign in")
    except RemoteError as error:
        if error.status not in (None, 401):
            raise
        remote.token = None
    if remote.token is None:
        name = click.prompt(f"{'new ' if sign_up else ''}name on {url}")
        password = click.prompt("password", hide_input=True, confirmation_prompt=sign_up)
        remote.sign_in(name, password, new=sign_up)
        assert remote.token is not None
        store.put(url, name, remote.token)
        click.echo(f"signed in; the token is kept in {store.path} (mode 0600)")
    from minesweeper.tui.app import MinesweeperApp  # Textual loads only for this command
    from minesweeper.tui.ladder import LadderController

    MinesweeperApp(settings, controller=LadderController(remote, settings)).run()
    remote.close()


def is_terminal() -> bool:
    """Whether a person can play here: standard input and output are a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()
