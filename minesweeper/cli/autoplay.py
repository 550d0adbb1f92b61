"""`minesweeper autoplay`: the computer plays a person's game and enters the records."""

from __future__ import annotations

import time
from pathlib import Path

import click
from rich.console import Console
from rich.live import Live
from rich.text import Text

from minesweeper.cli.common import (
    delay_option,
    records_option,
    replay_dir_option,
    reports_errors,
    seed_option,
    strategy_option,
)
from minesweeper.cli.gameopts import game_options
from minesweeper.limits import check_solved_cells
from minesweeper.play.autoplay import COMPUTER, AutoPlayer, Move, new_session
from minesweeper.play.ending import Ending, enters_records
from minesweeper.play.records import Records, RecordsError, entered
from minesweeper.play.session import CellState, GameSession, Settings
from minesweeper.protocol import COUNT_DIGITS
from minesweeper.solver.registry import StrategySpec

#: One character per display state (counts print as digits).
SYMBOLS = {
    CellState.CLOSED: "?",
    CellState.FLAGGED: "F",
    CellState.EXPLODED: "X",
    CellState.MINE: "*",
    CellState.WRONG_FLAG: "!",
}
#: Colours on a terminal: the classic number colours, flags and mines in red.
COLOURS = {
    "?": "grey50",
    "F": "bold red",
    "X": "bold white on red",
    "*": "bold",
    "!": "bold red",
    "0": "grey70",
    "1": "bold blue",
    "2": "bold green",
    "3": "bold red",
    "4": "bold navy_blue",
    "5": "bold dark_red",
    "6": "bold dark_cyan",
    "7": "bold",
    "8": "bold grey50",
}


def render(session: GameSession) -> str:
    """The board as text: ``?`` closed, digits, ``F`` flag; at the end ``*``, ``X``, ``!``."""
    topology = session.topology
    rows, cols = topology.shape
    lines = []
    for row in range(rows):
        chars = []
        for col in range(cols):
            cell = topology.cell_at(row, col)
            state = session.cell_state(cell)
            if state is CellState.OPENED:
                chars.append(COUNT_DIGITS[session.count(cell) or 0])
            else:
                chars.append(SYMBOLS[state])
        lines.append("".join(chars))
    return "\n".join(lines)


def coloured(text: str) -> Text:
    """A rendered board with each symbol in its colour."""
    shown = Text()
    for char in text:
        shown.append(char, style=COLOURS.get(char, "bold magenta" if char.isalnum() else ""))
    return shown


def describe(session: GameSession, move: Move) -> str:
    where = " ".join(str(v) for v in session.topology.move_of(move.cell))
    return f"{move.kind} {where}" + (" (guess)" if move.guess else "")


@click.command()
@game_options
@seed_option(fresh=True)
@strategy_option("best")
@records_option
@delay_option
@click.option("--quiet", is_flag=True, help="Print only the result.")
@replay_dir_option
@reports_errors
def autoplay(
    settings: Settings,
    seed: int,
    strategy: StrategySpec,
    path: Path | None,
    delay: float,
    quiet: bool,
    replay_dir: Path | None,
) -> None:
    """Let a strategy play one game, seeing only what a player sees; show each move.

    On a terminal the board is redrawn in place, in colour, every --delay
    seconds; piped, every move and the map after it are printed as plain text
    (moves in the judge protocol's form, counting from 0), without waiting.
    The result enters the records under the name Computer, with its replay;
    then come the game's 3BV, clicks, efficiency and 3BV/s.
    """
    check_solved_cells(settings.variant.rows * settings.variant.cols, "autoplay")
    session = new_session(settings, seed=seed)
    player = AutoPlayer(session, strategy.build(seed))
    console = Console(highlight=False)
    watched = console.is_terminal and not quiet
    step = 0
    if watched:
        with Live(console=console, auto_refresh=False) as live:
            for moves in player.play():
                step += 1
                said = f"step {step}: " + ", ".join(describe(session, move) for move in moves)
                if len(said) > console.width:  # one line, so the board stays in place
                    said = said[: console.width - 1] + "…"
                live.update(Text(said + "\n") + coloured(render(session)))
                live.refresh()
                if not session.over:
                    time.sleep(delay)
    else:
        for moves in player.play():
            step += 1
            if not quiet:
                said = ", ".join(describe(session, move) for move in moves)
                click.echo(f"step {step}: {said}")
                click.echo(render(session))
                click.echo()
    verdict = "won" if session.won else "lost"
    click.echo(
        f"{settings.category().label}: {verdict} in {step} step(s), "
        f"{session.points} points, {session.elapsed:.2f} s (seed {seed})"
    )
    click.echo(session.stats().summary(by_computer=True))
    ending = Ending(Records(path), replay_dir=replay_dir)
    kept = ending.keep(session, settings.category(), COMPUTER)
    if kept.replay_problem is not None:
        click.echo(f"minesweeper: the replay was not saved: {kept.replay_problem}", err=True)
    elif kept.replay is not None:
        click.echo(f"replay saved: {kept.replay}")
    if kept.history_problem is not None:
        click.echo(f"minesweeper: {kept.history_problem}", err=True)
    if not enters_records(session):  # the computer played alone: it always does
        return
    try:
        place = ending.enter(session, settings.category(), COMPUTER)
    except RecordsError as error:
        click.echo(f"minesweeper: {error}", err=True)
        click.echo("minesweeper: the result was not recorded", err=True)
        return
    note = ending.records.kept_aside_note()
    if note is not None:
        click.echo(f"minesweeper: {note}", err=True)
    click.echo(entered(place, None, session.won) or "not in the top 10 of its category")
