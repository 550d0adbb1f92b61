"""The ACM judge's text protocol: reading boards and moves, printing maps.

Input: ``n m``; n rows of ``.`` (no mine) and ``X`` (mine); then one move per
line. Output: a map after the board and after every move, where a cell
prints ``?`` (unvisited), ``X`` (the visited mine), ``@`` (every mine, on the
map after the winning move) or its count (``0``-``9``, then ``a`` = 10, ...).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator, Sequence
from typing import TextIO

from minesweeper.board import Board
from minesweeper.errors import InputError, TopologyError
from minesweeper.game import Game, State
from minesweeper.topology.base import Topology
from minesweeper.topology.registry import find_topology

UNKNOWN = "?"
EXPLODED = "X"
MINE_AT_WIN = "@"
#: Count digits: 0-9, then lowercase letters for 10 and more.
COUNT_DIGITS = string.digits + string.ascii_lowercase
WIN_LINE = "YOU WIN!"
_UNKNOWN, _EXPLODED, _MINE_AT_WIN = (ord(char) for char in (UNKNOWN, EXPLODED, MINE_AT_WIN))
_COUNT_BYTES = COUNT_DIGITS.encode("ascii")
#: Deletes the two legal characters of a mine row, leaving any stray ones.
_MINE_ROW_CHARS = str.maketrans("", "", ".X")
LOSS_LINE = "GAME OVER!"


def format_count(count: int) -> str:
    """The map character of a revealed safe cell with ``count`` mines around it."""
    return COUNT_DIGITS[count]


def parse_count(char: str) -> int | None:
    """The count a map character shows, or None when it is not a count."""
    index = COUNT_DIGITS.find(char)
    return index if index >= 0 and len(char) == 1 else None


class LineReader:
    """Numbered, stripped lines of a text stream, read lazily, blank lines skipped.

    Lazy reading matters: a peer on a pipe sends each move only after it saw
    the previous map.
    """

    def __init__(self, stream: TextIO | Sequence[str]) -> None:
        self._lines: Iterator[str] = iter(stream)
        self.line_no = 0

    def next(self) -> tuple[int, str] | None:
        """The next non-blank line as ``(line_no, text)``, or None at the end of input."""
        for raw in self._lines:
            self.line_no += 1
            text = raw.strip()
            if text:
                return self.line_no, text
        return None

    def require(self, what: str) -> tuple[int, str]:
        """The next non-blank line; raises `InputError` naming ``what`` was missing."""
        line = self.next()
        if line is None:
            raise InputError(self.line_no + 1, f"input ended where {what} was expected")
        return line


def parse_integers(line_no: int, text: str, count: int, what: str) -> tuple[int, ...]:
    """Exactly ``count`` whitespace-separated integers, or an `InputError` about ``what``."""
    tokens = text.split()
    try:
        values = tuple(int(token) for token in tokens)
    except ValueError:
        values = ()
    if len(values) != count:
        raise InputError(line_no, f"expected {what}, got {text!r}")
    return values


def read_board(reader: LineReader, topology: str = "square") -> Board:
    """Read the header and the mine rows of a grid board."""
    line_no, text = reader.require("the header 'n m'")
    rows, cols = parse_integers(line_no, text, 2, "the header 'n m' (two integers)")
    if rows < 1 or cols < 1:
        raise InputError(line_no, f"the board must be at least 1x1, got {rows}x{cols}")
    try:
        grid = find_topology(topology)(rows, cols)  # type: ignore[call-arg]
    except TopologyError as error:
        raise InputError(line_no, str(error)) from None
    mines = read_mine_rows(reader, grid)
    if len(mines) == grid.size:
        raise InputError(reader.line_no, "the board has no safe cell")
    return Board(grid, mines)


def read_mine_rows(reader: LineReader, topology: Topology) -> list[int]:
    """Read the ``.``/``X`` rows of the printed layout; the mined cells they show."""
    rows, cols = topology.shape
    mines = []
    for row in range(rows):
        line_no, text = reader.require(f"row {row + 1} of {rows}")
        if len(text) != cols:
            raise InputError(line_no, f"row {row + 1} has {len(text)} characters, expected {cols}")
        stray = text.translate(_MINE_ROW_CHARS)
        if stray:
            raise InputError(
                line_no,
                f"unexpected character {stray[0]!r} in row {row + 1} (expected '.' or 'X')",
            )
        col = text.find("X")
        while col >= 0:
            mines.append(topology.cell_at(row, col))
            col = text.find("X", col + 1)
    return mines


def parse_move(line_no: int, text: str, topology: Topology) -> int:
    """The cell a move line names."""
    arity = topology.move_arity
    what = "a move 'x y' (two integers)" if arity == 2 else f"a move of {arity} integer(s)"
    values = parse_integers(line_no, text, arity, what)
    try:
        return topology.cell_from_move(values)
    except TopologyError as error:
        raise InputError(line_no, f"move {text!r}: {error}") from None


class MapText:
    """The map the judge prints for a game, kept up to date move by move.

    Only the cells a move changed are redrawn, so big boards print fast.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        topology = game.board.topology
        rows, cols = topology.shape
        self._cols = cols
        self._buffer = bytearray((b"?" * cols + b"\n") * rows)
        self._positions = topology.printed_positions
        if any(game.revealed):
            self.redraw(topology.cells())

    def redraw(self, cells: Iterable[int]) -> None:
        """Recompute the characters of ``cells``."""
        buffer, cols, positions = self._buffer, self._cols, self._positions
        game = self.game
        revealed, mines, counts = game.revealed, game.board.mines, game.board.counts
        won = game.state is State.WON
        for cell in cells:
            if cell in mines:
                char = _MINE_AT_WIN if won else _EXPLODED if revealed[cell] else _UNKNOWN
            else:
                char = _COUNT_BYTES[counts[cell]] if revealed[cell] else _UNKNOWN
            for index in positions(cell):
                buffer[index + index // cols] = char  # one newline per row precedes it

    def after_visit(self, opened: Iterable[int]) -> None:
        """Redraw what a visit changed: the opened cells, and every mine once the game is won."""
        self.redraw(opened)
        if self.game.state is State.WON:
            self.redraw(self.game.board.mines)

    def __str__(self) -> str:
        return self._buffer.decode("ascii")


def layout(topology: Topology) -> list[list[int]]:
    """The cell shown at each printed position, row by row."""
    rows, cols = topology.shape
    return [[topology.cell_at(row, col) for col in range(cols)] for row in range(rows)]


def format_map(game: Game, rows: object = None) -> str:
    """The map the judge prints for ``game``, one line per row, newline-terminated.

    ``rows`` is accepted for older callers and ignored.
    """
    return str(MapText(game))


def format_result(game: Game) -> str:
    """The two closing lines: the verdict, then ``visit_count step_count``."""
    verdict = WIN_LINE if game.state is State.WON else LOSS_LINE
    return f"{verdict}\n{game.visit_count} {game.step_count}\n"
