"""`minesweeper analyze`: the exact mine probability of every unknown cell of a position."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO

import click

from minesweeper.boards.cases import default_first, load_board
from minesweeper.boards.position import KNOWN_MINE, read_position
from minesweeper.cli.common import board_file_option, read_input, reports_errors, topology_option
from minesweeper.errors import RulesError, UsageError
from minesweeper.play.autoplay import view_of
from minesweeper.play.session import GameSession
from minesweeper.protocol import COUNT_DIGITS
from minesweeper.solver.best import Best
from minesweeper.solver.probability import Budget, Probabilities
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology


@click.command()
@click.argument("file", type=click.File("rb"), required=False)
@click.option(
    "--mines",
    type=click.IntRange(min=0),
    default=None,
    help="Total mines on the board (known mines F included); unknown when omitted.",
)
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="A readable map, or JSON.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0),
    default=10.0,
    show_default=True,
    help="CPU seconds for the whole answer (probabilities and best move), roughly: exact "
    "counting gets half of them; past that half, or the whole, the answer is approximate "
    "(and says so).",
)
@click.option(
    "--memory-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=1000.0,
    show_default=True,
    help="Megabytes (roughly) for exact counting; past them the answer is approximate.",
)
@board_file_option(
    "Analyse this board's start instead of a position: an MBF file (.mbf) or a board in "
    "the --topology's text format, opened at its first-click line (else at the zero nearest "
    "the middle), with its mine count known.",
)
@topology_option
@reports_errors
def analyze(
    file: IO[bytes] | None,
    mines: int | None,
    output: str,
    time_limit: float,
    memory_limit: float,
    board_file: Path | None,
    topology: type[Topology],
) -> None:
    """Mine probabilities of the position in FILE (default stdin), and the best move.

    FILE holds `n m`, then n rows: `?` unknown, `0`-`9` and `a`-`z` (10 and up)
    revealed counts, `F` a known mine. Without --mines the mine count is
    unknown: every density is equally likely beforehand (a uniform Beta prior).
    Counting is exact unless the position needs more than half of --time-limit
    or more than --memory-limit; the whole answer takes about --time-limit CPU
    seconds at most (more only with a limit under a second on a frontier of
    thousands of cells). Cut short, the output says it is approximate.
    """
    if board_file is not None:
        if file is not None:
            raise UsageError("give either FILE or --board, not both")
        view = board_start(board_file, topology, mines)
    else:
        view = read_position(read_input(file or click.open_file("-", "rb")), topology, mines)
    # Turning counts into probabilities walks them back once, at about the
    # counting's own cost: counting gets half the time, the whole answer all of it.
    player = Best(budget=Budget.within(time_limit, memory_limit, counting=0.5))
    result = player.solve(view)
    best = best_move(view, result, player)
    if output == "json":
        click.echo(json.dumps(as_json(view, result, best)))
    else:
        click.echo(as_text(view, result, best), nl=False)


def board_start(path: Path, topology: type[Topology], mines: int | None) -> View:
    """What a player sees of the board in ``path`` after its first click (the count told)."""
    board, first = load_board(path, topology)
    if mines is not None and mines != board.mine_count:
        raise UsageError(f"--mines {mines}, but the board has {board.mine_count} mines")
    if first is None:
        first = default_first(board)
    if board.is_mine(first):
        row, col = board.topology.position(first)
        raise RulesError(f"{path}: the first click ({row}, {col}) is a mine")
    session = GameSession.from_board(board)
    session.open(first)
    return view_of(session)


def best_move(view: View, result: Probabilities, player: Best) -> int | None:
    """The first cell ``player`` would open, or None when no cell is left to open."""
    if all(cell in result.mines for cell in result):
        return None
    return player.decide(view).opens[0]


def as_json(view: View, result: Probabilities, best: int | None) -> dict:
    """The JSON document: probabilities per printed position, certain cells, layouts, best move.

    Known mines (``F``) count as certain mines, with probability 1; ``approximate``
    says whether the count had to leave constraints out.
    """
    topology = view.topology
    rows, cols = topology.shape
    grid: list[list[float | None]] = []
    for row in range(rows):
        line: list[float | None] = []
        for col in range(cols):
            cell = topology.cell_at(row, col)
            if cell in view.mines:
                line.append(1.0)
            elif cell in result:
                line.append(result.chance(cell))
            else:
                line.append(None)
        grid.append(line)
    position = topology.position
    return {
        "rows": rows,
        "cols": cols,
        "probabilities": grid,
        "safe": [list(position(c)) for c in sorted(result.safe)],
        "mines": [list(position(c)) for c in sorted(result.mines | view.mines)],
        "solutions": str(result.layouts),
        "best": None if best is None else list(position(best)),
        "approximate": result.approximate,
    }


def percent(p: float) -> str:
    """A probability as a short percentage that never rounds to a certainty."""
    if p == 0:
        return "safe"
    if p == 1:
        return "MINE"
    if p < 0.005:
        return "<1%"
    if p > 0.995:
        return ">99%"
    return f"{p * 100:.0f}%"


def as_text(view: View, result: Probabilities, best: int | None) -> str:
    """The map with every unknown cell's mine probability, then the certain cells and best move."""
    topology = view.topology
    rows, cols = topology.shape
    width = 7
    lines = []
    count = "unknown (uniform prior on the density)" if view.mine_count is None else view.mine_count
    lines.append(f"mines: {count}; layouts that fit: {result.layouts}")
    if result.approximate:
        lines.append("approximate: exact counting needs more than the time or state limit")
    lines.append(" " * 4 + "".join(f"{col:>{width}}" for col in range(cols)))
    for row in range(rows):
        cells = []
        for col in range(cols):
            cell = topology.cell_at(row, col)
            if cell in view.mines:
                text = KNOWN_MINE
            elif cell in view.revealed:
                text = COUNT_DIGITS[view.revealed[cell]]
            else:
                text = percent(result.chance(cell))
            if cell == best:
                text = f"[{text}]"
            cells.append(f"{text:>{width}}")
        lines.append(f"{row:>4}" + "".join(cells))
    position = topology.position

    def listed(found) -> str:
        return " ".join(f"({r},{c})" for r, c in (position(x) for x in sorted(found))) or "none"

    lines.append(f"certain safe: {listed(result.safe)}")
    lines.append(f"certain mines: {listed(result.mines)}")
    if best is None:
        lines.append("best move: none (every unknown cell is a mine)")
    else:
        r, c = position(best)
        kind = "safe" if best in result.safe else f"guess, {result.chance(best) * 100:.2f}% mine"
        lines.append(f"best move: {r} {c} ({kind})")
    return "\n".join(lines) + "\n"
