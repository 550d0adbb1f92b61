"""The ACM judge's text protocol: reading boards and moves, printing maps.

Input: ``n m``; n rows of ``.`` (no mine) and ``X`` (mine); then one move per
line. Output: a map after the board and after every move, where a cell
prints ``?`` (unvisited), ``X`` (the visited mine), ``@`` (every mine, on the
map after the winning move) or its count (``0``-``9``, then ``a`` = 10, ...).

Each topology names its board format in ``text_format``: ``"grid"`` as above;
``"tiling"`` adds n rows of m piece ids after the mine rows; ``"graph"`` is
``N E``, one line of N ``.``/``X``, E lines ``u v``, and moves of one node id.
"""

from __future__ import annotations

import io
import math
import re
import string
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from minesweeper.board import Board
from minesweeper.errors import EncodingError, InputError, TooLargeError, TopologyError
from minesweeper.game import Game, State
from minesweeper.limits import (
    MAX_DIGITS,
    MAX_EDGES,
    MAX_LINE_BYTES,
    check_cells,
    human_bytes,
    quote,
)
from minesweeper.topology.base import Topology
from minesweeper.topology.graph import GraphError
from minesweeper.topology.square import SquareTopology
from minesweeper.topology.tiling import TilingError

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
    """Numbered, stripped lines of text input, read lazily, blank lines skipped.

    The source is a stream (binary or text), or a whole input as bytes, a string
    or a sequence of lines. Every line is checked before it is used: at most
    `MAX_LINE_BYTES` long, and printable ASCII (tabs allowed), so a stray byte
    is reported on its line (`EncodingError`) after what came before was
    played. Lazy reading matters: a peer on a pipe sends each move only after
    it saw the previous map.
    """

    def __init__(self, source: IO[bytes] | IO[str] | bytes | str | Iterable[bytes | str]) -> None:
        self._lines = _raw_lines(source)
        self._peeked: tuple[int, str] | None = None
        self.line_no = 0

    def next(self) -> tuple[int, str] | None:
        """The next non-blank line as ``(line_no, text)``, or None at the end of input."""
        if self._peeked is not None:
            line, self._peeked = self._peeked, None
            return line
        for raw in self._lines:
            self.line_no += 1
            text = checked_line(self.line_no, raw)
            if text:
                return self.line_no, text
        return None

    def at_end(self) -> bool:
        """Whether only blank lines are left (reads ahead one line when not)."""
        if self._peeked is None:
            self._peeked = self.next()
        return self._peeked is None

    def require(self, what: str) -> tuple[int, str]:
        """The next non-blank line; raises `InputError` naming ``what`` was missing."""
        line = self.next()
        if line is None:
            raise InputError(self.line_no + 1, f"input ended where {what} was expected")
        return line


def _raw_lines(
    source: IO[bytes] | IO[str] | bytes | str | Iterable[bytes | str],
) -> Iterator[bytes | str]:
    """The lines of ``source``, line ends kept; a stream's are read at most `MAX_LINE_BYTES`
    and a line end at a time, so an endless line costs no more than that."""
    if isinstance(source, bytes):
        source = io.BytesIO(source)
    elif isinstance(source, str):
        source = io.StringIO(source)
    if hasattr(source, "readline"):
        while line := source.readline(MAX_LINE_BYTES + 2):
            yield line
    else:
        yield from source


#: Bytes a line may hold besides printable ASCII: the tab, and the line end.
_STRAY_BYTE = re.compile(rb"[^\t\n\r\x20-\x7e]")


def checked_line(line_no: int, raw: bytes | str) -> str:
    """``raw`` stripped of surrounding whitespace, once checked to be a short printable line.

    Raises `TooLargeError` past `MAX_LINE_BYTES` and `EncodingError` on a byte
    that is not printable ASCII, naming it (and the character, when UTF-8).
    """
    data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
    if len(data.rstrip(b"\r\n")) > MAX_LINE_BYTES:
        raise TooLargeError(line_no, f"the line is longer than {human_bytes(MAX_LINE_BYTES)}")
    stray = _STRAY_BYTE.search(data)
    if stray is not None:
        raise EncodingError(line_no, _describe_stray(data, stray.start()))
    return data.strip().decode("ascii")


def _describe_stray(data: bytes, index: int) -> str:
    column = f"column {index + 1}"
    byte = data[index]
    if byte < 0x80:
        return f"control character {chr(byte)!r} at {column}: the input must be printable text"
    try:
        char = data[index:].decode("utf-8")[0]
    except UnicodeDecodeError as error:
        if error.start > 0:  # a valid character, then a broken one
            char = data[index:].decode("utf-8", "replace")[0]
        else:
            return f"byte 0x{byte:02x} at {column} is not UTF-8 text"
    return f"non-ASCII character {char!r} at {column}: the input must be ASCII"


#: An integer of the protocol: ASCII digits only, with an optional minus sign.
_INTEGER = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


def parse_integers(line_no: int | None, text: str, count: int, what: str) -> tuple[int, ...]:
    """Exactly ``count`` whitespace-separated integers, or an `InputError` about ``what``.

    Integers are ASCII digits with an optional ``-``: no ``+``, ``_`` or other scripts' digits.
    """
    tokens = text.split(maxsplit=count)  # a line of a million numbers is not split up
    if len(tokens) != count or not all(_INTEGER.fullmatch(token) for token in tokens):
        raise InputError(line_no, f"expected {what}, got {quote(text)}")
    return tuple(int(token) for token in tokens)


#: Checks one drawn row (``line_no``, ``text``, a label for messages); raises `InputError`.
RowCheck = Callable[[int, str, str], None]


@dataclass(frozen=True)
class Drawing:
    """A topology read from text, and the rows of characters drawn over its printed map.

    Boards draw ``.``/``X``; positions for `minesweeper analyze` draw map symbols.
    """

    topology: Topology
    rows: list[tuple[int, str]]

    def cells_showing(self, char: str) -> list[int]:
        """The cells drawn with ``char`` (call `marks` first where cells span squares)."""
        found = []
        for row, (_, text) in enumerate(self.rows):
            col = text.find(char)
            while col >= 0:
                found.append(self.topology.cell_at(row, col))
                col = text.find(char, col + 1)
        return found

    def marks(self, problem: str) -> dict[int, tuple[str, int]]:
        """Each cell's character and the line it is on; every square of a cell must agree.

        ``problem`` words the error when two squares of one cell disagree.
        """
        topology = self.topology
        found: dict[int, tuple[str, int]] = {}
        for row, (line_no, text) in enumerate(self.rows):
            for col, char in enumerate(text):
                cell = topology.cell_at(row, col)
                first, _ = found.setdefault(cell, (char, line_no))
                if first != char:
                    first_row, first_col = topology.position(cell)
                    raise InputError(
                        line_no,
                        f"the piece at ({first_row}, {first_col}) {problem}: "
                        f"({first_row}, {first_col}) is {first!r} but ({row}, {col}) is {char!r}",
                    )
        return found


def read_drawing(reader: LineReader, topology: type[Topology], check: RowCheck) -> Drawing:
    """Read a topology in its text format, with rows of characters each checked by ``check``."""
    return DRAWING_READERS[topology.text_format](reader, topology, check)


def read_board(reader: LineReader, topology: type[Topology] = SquareTopology) -> Board:
    """Read a board in the text format of ``topology``."""
    drawing = read_drawing(reader, topology, check_mine_row)
    grid = drawing.topology
    rows, cols = grid.shape
    if grid.size != rows * cols:  # cells spanning several squares must be all mine or not
        drawing.marks("is half mined")
    board = Board(grid, drawing.cells_showing("X"))
    if board.mine_count == grid.size:
        raise InputError(reader.line_no, "the board has no safe cell")
    return board


def check_mine_row(line_no: int, text: str, label: str) -> None:
    """A row of a board: only ``.`` and ``X``."""
    stray = text.translate(_MINE_ROW_CHARS)
    if stray:
        raise InputError(
            line_no, f"unexpected character {stray[0]!r} in {label} (expected '.' or 'X')"
        )


def read_grid_drawing(reader: LineReader, kind: type[Topology], check: RowCheck) -> Drawing:
    """``n m`` and n rows of m characters: one character per cell."""
    line_no, text = reader.require("the header 'n m'")
    rows, cols = _read_size(line_no, text, kind)
    try:
        grid = kind(rows, cols)  # type: ignore[call-arg]
    except TopologyError as error:
        raise InputError(line_no, str(error)) from None
    return Drawing(grid, _read_rows(reader, rows, cols, check))


def read_tiling_drawing(reader: LineReader, kind: type[Topology], check: RowCheck) -> Drawing:
    """``n m``, n rows of m characters, then n rows of m piece ids."""
    line_no, text = reader.require("the header 'n m'")
    rows, cols = _read_size(line_no, text, kind)
    drawn = _read_rows(reader, rows, cols, check)
    pieces, piece_lines = [], []
    for row in range(rows):
        line_no, text = reader.require(f"row {row + 1} of {rows} of piece ids")
        pieces.append(parse_integers(line_no, text, cols, f"{cols} piece ids (row {row + 1})"))
        piece_lines.append(line_no)
    try:
        tiling = kind(pieces)  # type: ignore[call-arg]
    except TilingError as error:
        raise InputError(piece_lines[error.row or 0], str(error)) from None
    return Drawing(tiling, drawn)


def read_graph_drawing(reader: LineReader, kind: type[Topology], check: RowCheck) -> Drawing:
    """``N E``, a line of N characters, then E edges ``u v`` (node ids from 0).

    A header ``N E xy`` adds, after the node line, N lines ``x y``: where each
    node is drawn (any numbers; y grows downwards).
    """
    header_no, text = reader.require("the header 'N E'")
    words = text.split(maxsplit=3)
    placed = len(words) == 3 and words[2] == "xy"
    if placed:
        text = " ".join(words[:2])
    size, count = parse_integers(header_no, text, 2, "the header 'N E' (two integers)")
    if size < 1:
        raise InputError(header_no, f"a graph needs at least 1 node, got {size}")
    if count < 0:
        raise InputError(header_no, f"the edge count cannot be negative, got {count}")
    check_cells(size, kind.text_format, header_no)
    if count > MAX_EDGES:
        raise TooLargeError(header_no, f"{count:,} edges are too many (at most {MAX_EDGES:,})")
    drawn = _read_row(reader, size, "the node line", f"the line of {size} nodes", check)
    coordinates = [_read_point(reader, node, size) for node in range(size)] if placed else None
    edges, edge_lines = [], []
    for index in range(count):
        line_no, text = reader.require(f"edge {index + 1} of {count}")
        u, v = parse_integers(line_no, text, 2, "an edge 'u v' (two integers)")
        edges.append((u, v))
        edge_lines.append(line_no)
    try:
        graph = kind(size, edges, coordinates)  # type: ignore[call-arg]
    except GraphError as error:
        line_no = header_no if error.edge is None else edge_lines[error.edge]
        raise InputError(line_no, str(error)) from None
    return Drawing(graph, [drawn])


def _read_point(reader: LineReader, node: int, size: int) -> tuple[float, float]:
    line_no, text = reader.require(f"the coordinates 'x y' of node {node} of {size}")
    words = text.split(maxsplit=2)
    if len(words) != 2 or not all(_DECIMAL.fullmatch(word) for word in words):
        raise InputError(
            line_no, f"expected the coordinates 'x y' of node {node}, got {quote(text)}"
        )
    x, y = map(float, words)
    if not all(map(math.isfinite, (x, y))):
        raise InputError(
            line_no, f"the coordinates of node {node} must be finite, got {quote(text)}"
        )
    return x, y


#: A coordinate: an ASCII decimal number, perhaps signed, perhaps with an exponent.
_DECIMAL = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


#: The reader of each ``Topology.text_format``.
DRAWING_READERS: dict[str, Callable[[LineReader, type[Topology], RowCheck], Drawing]] = {
    "grid": read_grid_drawing,
    "tiling": read_tiling_drawing,
    "graph": read_graph_drawing,
}


def _read_size(line_no: int, text: str, kind: type[Topology]) -> tuple[int, int]:
    rows, cols = parse_integers(line_no, text, 2, "the header 'n m' (two integers)")
    if rows < 1 or cols < 1:
        raise InputError(line_no, f"the board must be at least 1x1, got {rows}x{cols}")
    check_cells(rows * cols, kind.text_format, line_no)
    return rows, cols


def _read_rows(reader: LineReader, rows: int, cols: int, check: RowCheck) -> list[tuple[int, str]]:
    return [
        _read_row(reader, cols, f"row {row + 1}", f"row {row + 1} of {rows}", check)
        for row in range(rows)
    ]


def _read_row(
    reader: LineReader, cols: int, label: str, missing: str, check: RowCheck
) -> tuple[int, str]:
    """The next line, checked to be ``cols`` characters that ``check`` accepts."""
    line_no, text = reader.require(missing)
    if len(text) != cols:
        raise InputError(line_no, f"{label} has {len(text)} characters, expected {cols}")
    check(line_no, text, label)
    return line_no, text


def parse_move(line_no: int, text: str, topology: Topology) -> int:
    """The cell a move line names."""
    arity = topology.move_arity
    what = "a move 'x y' (two integers)" if arity == 2 else f"a move of {arity} integer(s)"
    values = parse_integers(line_no, text, arity, what)
    try:
        return topology.cell_from_move(values)
    except TopologyError as error:
        raise InputError(line_no, f"move {quote(text)}: {error}") from None


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


def format_result(game: Game) -> str:
    """The two closing lines: the verdict, then ``visit_count step_count``."""
    verdict = WIN_LINE if game.state is State.WON else LOSS_LINE
    return f"{verdict}\n{game.visit_count} {game.step_count}\n"


def format_board(board: Board) -> str:
    """``board`` in its topology's text format, as `read_board` reads it back."""
    topology = board.topology
    marks = ["X" if board.is_mine(cell) else "." for cell in topology.cells()]
    if topology.text_format == "graph":
        edges = topology.edges()
        lines = [f"{topology.size} {len(edges)}", "".join(marks)]
        lines += [f"{u} {v}" for u, v in edges]
    else:
        rows, cols = topology.shape
        grid = [[topology.cell_at(row, col) for col in range(cols)] for row in range(rows)]
        lines = [f"{rows} {cols}", *("".join(marks[cell] for cell in row) for row in grid)]
        if topology.text_format == "tiling":
            lines += [" ".join(map(str, row)) for row in grid]
    return "".join(line + "\n" for line in lines)


def format_move(topology: Topology, cell: int) -> str:
    """The move line that visits ``cell``."""
    return " ".join(map(str, topology.move_of(cell)))
