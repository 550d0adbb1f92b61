"""`minesweeper analyze`: the exact mine probability of every unknown cell of a position."""

from __future__ import annotations

import gc
import json
import math
import re
import shutil
import textwrap
from pathlib import Path
from time import process_time
from typing import IO

import click

from minesweeper.boards.cases import default_first, load_board
from minesweeper.boards.position import KNOWN_MINE, read_position
from minesweeper.cli import optimal as perfect
from minesweeper.cli.common import (
    board_file_option,
    input_name,
    read_input,
    reports_errors,
    topology_option,
)
from minesweeper.errors import InputError, LimitError, RulesError, UsageError
from minesweeper.play.autoplay import view_of
from minesweeper.play.session import GameSession
from minesweeper.protocol import COUNT_DIGITS
from minesweeper.resources import INTERVAL, Guard, OverBudget, resident_bytes
from minesweeper.solver.best import Best
from minesweeper.solver.local import LocalEstimate
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
    help="CPU seconds for the whole answer (reading, probabilities, best move), measured: "
    "exact counting gets half of them; past that half, or the whole, the answer is "
    "approximate (and says so); when not even that fits, one line and exit status 2.",
)
@click.option(
    "--memory-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=1000.0,
    show_default=True,
    help="Megabytes of memory (resident, measured, the process's in all); past them the "
    "answer is approximate; when not even that fits, one line and exit status 2.",
)
@click.option(
    "--optimal",
    is_flag=True,
    help="Each move's exact chance to win when every later move is perfect (the layouts "
    "listed and the game tree searched within --time-limit), the best moves, and what the "
    "`best` strategy's move costs; past its reach, once the best moves are valued, the "
    "others show a bound, else one line and exit status 2.",
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
    optimal: bool,
    board_file: Path | None,
    topology: type[Topology],
) -> None:
    """Mine probabilities of the position in FILE (default stdin), and the best move.

    FILE holds `n m`, then n rows: `?` unknown, `0`-`9` and `a`-`z` (10 and up)
    revealed counts, `F` a known mine. Without --mines the mine count is
    unknown: every density is equally likely beforehand (a uniform Beta prior).
    Counting is exact unless the position needs more than half of --time-limit
    or more than --memory-limit. Both are measured on the process itself: past
    them, the count is cut short or, when even that does not fit (a board of a
    million cells), each cell gets what its numbers say on their own. Either
    way the output says it is approximate. When not even that fits, one line
    names the limit and the exit status is 2.
    """
    held = resident_bytes() / 1e6
    until = process_time() + max(time_limit, MEASURED_SECONDS)
    megabytes = max(memory_limit, held + MEASURED_MEGABYTES)
    if board_file is not None and file is not None:
        raise UsageError("give either FILE or --board, not both")
    try:
        with Guard(until, megabytes):
            if board_file is not None:
                view = board_start(board_file, topology, mines)
            else:
                view = position_in(file or click.open_file("-", "rb"), topology, mines)
    except OverBudget as over:
        raise LimitError(beyond(over, time_limit, memory_limit, "reading it")) from None
    if optimal:
        show_optimal(view, output, until, megabytes, (time_limit, memory_limit))
        return
    # The exact count may take a share of the memory left: the rest is room for the
    # approximate answer, should the count not fit.
    exact_megabytes = held + EXACT_MEMORY_SHARE * (megabytes - held)
    answer: Answer | None = exact_answer(view, until, memory_limit, exact_megabytes)
    if answer is None:
        try:
            with Guard(until, megabytes):
                estimate = LocalEstimate(view)
                answer = estimate, estimate.safest()
        except OverBudget as over:
            raise LimitError(
                beyond(over, time_limit, memory_limit, "answering even approximately")
            ) from None
    result, best = answer
    if output == "json":
        click.echo(json.dumps(as_json(view, result, best)))
    else:
        columns = shutil.get_terminal_size().columns  # $COLUMNS, else the terminal's, else 80
        click.echo(as_text(view, result, best, max(columns, MIN_COLUMNS)), nl=False)


def show_optimal(
    view: View, output: str, until: float, megabytes: float, limits: tuple[float, float]
) -> None:
    """`analyze --optimal`: perfect play within the time and memory left (``limits``: the
    --time-limit and --memory-limit given)."""
    try:
        with Guard(until, megabytes):
            room = megabytes - resident_bytes() / 1e6  # what its positions may take
            found = perfect.optimal(view, until - process_time(), room)
    except OverBudget as over:
        raise LimitError(beyond(over, *limits, "perfect play")) from None
    if output == "json":
        click.echo(json.dumps(perfect.as_json(found)))
    else:
        columns = shutil.get_terminal_size().columns
        click.echo(perfect.as_text(found, max(columns, MIN_COLUMNS)), nl=False)


def position_in(file: IO[bytes], topology: type[Topology], mines: int | None) -> View:
    """The position in ``file``; its errors name the file, and say so when it holds a case."""
    data = read_input(file)
    try:
        return read_position(data, topology, mines)
    except InputError as error:
        case = re.search(rb"^[.X]+\s*$", data, re.MULTILINE)  # no position has such a row
        hint = " (a case, not a position: `minesweeper advanced FILE` plays it)" if case else ""
        raise error.found_in(input_name(file), hint) from None


#: The narrowest text output: a map's row label and one cell.
MIN_COLUMNS = 40
#: The guard measures CPU time every few milliseconds and memory in pages: a smaller
#: --time-limit is held to this many seconds, and a --memory-limit under what the process
#: holds at the start (Python and its modules) to this many megabytes on top of it.
MEASURED_SECONDS = 0.05
MEASURED_MEGABYTES = 2.0
#: CPU seconds the approximate answer and the output take per cell of the board, with room
#: for a loaded machine (a 1000x1000 board: about 4 s; kept back from the exact count), and
#: for the guard's lateness: compiled stretches of the count hold the GIL, and the watchdog
#: waits for it (up to 0.09 s of CPU on 200x200, half revealed).
RESERVE_SECONDS_PER_CELL = 9e-6
#: The share of the time left that is also kept back from the exact count: stopped, it
#: frees what it built, which grows with the time it had (on 150x150, 0.03-0.1 s of 2 s).
UNWIND_SHARE = 0.1
#: The share of the memory left at the start that the exact count may take.
EXACT_MEMORY_SHARE = 0.8


#: The probabilities shown (counted, or each number's alone) and the best move.
Answer = tuple["Probabilities | LocalEstimate", "int | None"]


def exact_answer(
    view: View, until: float, memory_limit: float, megabytes: float
) -> tuple[Probabilities, int | None] | None:
    """The engine's answer and best move within the limits (None: they do not fit).

    The engine's own budget makes it approximate when its plan will not fit; the
    guard stops it when what it takes, measured, passes what is left of the time
    (less what the approximate answer would need) or ``megabytes`` in all.
    """
    left = until - process_time()
    # The guard looks every `INTERVAL`: it may stop the count that much late.
    reserve = RESERVE_SECONDS_PER_CELL * view.topology.size + UNWIND_SHARE * left + INTERVAL
    seconds = left - reserve
    if seconds <= 0:
        return None
    # Turning counts into probabilities walks them back once, at about the
    # counting's own cost: counting gets half the time, the whole answer all of it.
    player = Best(budget=Budget.within(seconds, memory_limit, counting=0.5))
    try:
        with Guard(until - reserve, megabytes):
            result = player.solve(view)
            return result, best_move(view, result, player)
    except OverBudget as over:
        # Stopped for memory, the count's cycles are freed at once; stopped for time, the
        # time left is the answer's: a full collection of a large heap takes tens of ms.
        if over.what == "memory":
            gc.collect()
        return None


def beyond(over: OverBudget, time_limit: float, memory_limit: float, doing: str) -> str:
    """The one line saying which limit ``doing`` passed."""
    if over.what == "time":
        limit = f"--time-limit {time_limit:g} (CPU seconds)"
    else:
        limit = f"--memory-limit {memory_limit:g} (MB of memory)"
    return f"the position does not fit in {limit}: {doing} took more"


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


def as_json(view: View, result: Probabilities | LocalEstimate, best: int | None) -> dict:
    """The JSON document: probabilities per printed position, certain cells, layouts, best move.

    Known mines (``F``) count as certain mines, with probability 1; ``approximate``
    says whether the count had to leave constraints out; ``counted`` False (with
    ``solutions`` null) that counting did not fit the limits at all and each
    chance is what the cell's numbers say on their own.
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
        "solutions": None if result.layouts is None else count_text(result.layouts),
        "best": None if best is None else list(position(best)),
        "approximate": result.approximate,
        "counted": isinstance(result, Probabilities),
    }


#: Digits of a count shown exactly; a larger count is shown in scientific form.
EXACT_DIGITS = 60


def count_text(count: int) -> str:
    """``count`` in full up to `EXACT_DIGITS` digits, else as ``1.23457e+4512``.

    A count of layouts on a big board has hundreds of thousands of digits:
    writing them out would trip Python's limit on int-to-text conversion (and
    take seconds), so the digits are found by arithmetic instead.
    """
    if count < 10**EXACT_DIGITS:
        return str(count)
    exponent = int(math.log10(count))
    if 10**exponent > count:  # the float logarithm can be one too high or too low
        exponent -= 1
    elif 10 ** (exponent + 1) <= count:
        exponent += 1
    lead = count // 10 ** (exponent - 6)  # the first 7 digits
    mantissa = round(lead / 10**6, 5)
    if mantissa >= 10:  # 9.999995... rounds up
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.5f}e+{exponent}"


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


def as_text(
    view: View, result: Probabilities | LocalEstimate, best: int | None, columns: int = 80
) -> str:
    """The map with every unknown cell's mine probability, then the certain cells and best
    move, in lines of at most ``columns`` characters: a map wider than that is shown in
    blocks of its columns, one under another."""
    topology = view.topology
    rows, cols = topology.shape
    lines = []
    count = "unknown (uniform prior on the density)" if view.mine_count is None else view.mine_count
    if isinstance(result, LocalEstimate):
        lines.append(f"mines: {count}; layouts that fit: not counted")
        lines.append(
            "approximate: counting did not fit in the time or memory limit; "
            "each cell's chance is what its numbers say on their own"
        )
    else:
        lines.append(f"mines: {count}; layouts that fit: {count_text(result.layouts)}")
    if isinstance(result, Probabilities) and result.approximate:
        lines.append("approximate: exact counting needs more than the time or state limit")
    wrapped = [part for line in lines for part in textwrap.wrap(line, columns)]
    per_block = max(1, (columns - ROW_LABEL) // CELL_WIDTH)
    for first in range(0, cols, per_block):
        shown = range(first, min(cols, first + per_block))
        if first:
            wrapped.append("")
        wrapped.append(" " * ROW_LABEL + "".join(f"{col:>{CELL_WIDTH}}" for col in shown))
        for row in range(rows):
            cells = (cell_text(view, result, best, topology.cell_at(row, col)) for col in shown)
            wrapped.append(f"{row:>{ROW_LABEL}}" + "".join(f"{t:>{CELL_WIDTH}}" for t in cells))
    lines = wrapped
    position = topology.position

    def listed(found) -> str:
        return " ".join(f"({r},{c})" for r, c in (position(x) for x in sorted(found))) or "none"

    indent = " " * 4
    lines += textwrap.wrap(
        f"certain safe: {listed(result.safe)}", columns, subsequent_indent=indent
    )
    lines += textwrap.wrap(
        f"certain mines: {listed(result.mines)}", columns, subsequent_indent=indent
    )
    if best is None:
        lines.append("best move: none (every unknown cell is a mine)")
    else:
        r, c = position(best)
        kind = "safe" if best in result.safe else f"guess, {result.chance(best) * 100:.2f}% mine"
        lines.append(f"best move: {r} {c} ({kind})")
    return "\n".join(lines) + "\n"


#: Characters of the row numbers, and of each cell, in the text map.
ROW_LABEL = 4
CELL_WIDTH = 7


def cell_text(
    view: View, result: Probabilities | LocalEstimate, best: int | None, cell: int
) -> str:
    """What the text map shows for ``cell``: a known mine, a count, or the chance of a mine
    (the best move in brackets)."""
    if cell in view.mines:
        text = KNOWN_MINE
    elif cell in view.revealed:
        text = COUNT_DIGITS[view.revealed[cell]]
    else:
        text = percent(result.chance(cell))
    return f"[{text}]" if cell == best else text
