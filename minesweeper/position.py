"""Positions written by hand for `minesweeper analyze`.

Text: ``n m``, then n rows of the printed map where ``?`` is an unknown cell,
``0``-``9`` and then ``a``, ``b``, ... (10, 11, ...) a revealed count, and
``F`` a cell known to be a mine; other topologies add what their board format
adds (piece ids, edges). Blank lines are ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from minesweeper.errors import InputError, TopologyError
from minesweeper.protocol import UNKNOWN, LineReader, parse_count, parse_integers
from minesweeper.solver.view import View
from minesweeper.topology.graph import GraphError
from minesweeper.topology.registry import find_topology
from minesweeper.topology.tiling import TilingError

#: The character of a cell known to be a mine.
KNOWN_MINE = "F"


def read_position(
    stream: TextIO | Sequence[str], topology: str = "square", mine_count: int | None = None
) -> View:
    """The position ``stream`` describes, as a `View`; raises `InputError` when malformed.

    The layout follows the topology's board format, with map rows in place of
    the ``.``/``X`` rows: grids ``n m`` and n rows; tilings ``n m``, n rows,
    then n rows of m piece ids; graphs ``N E``, one row of N characters, then
    E edges ``u v``.
    """
    kind = find_topology(topology)
    reader = LineReader(stream)
    line_no, text = reader.require("the header")
    if kind.text_format == "graph":
        size, count = parse_integers(line_no, text, 2, "the header 'N E' (two integers)")
        if size < 1 or count < 0:
            raise InputError(line_no, f"a graph needs nodes and no negative edge count: {text!r}")
        rows = [_read_row(reader, 0, 1, size)]
        edges, edge_lines = [], []
        for index in range(count):
            edge_no, edge = reader.require(f"edge {index + 1} of {count}")
            edges.append(parse_integers(edge_no, edge, 2, "an edge 'u v' (two integers)"))
            edge_lines.append(edge_no)
        try:
            board = kind(size, edges)  # type: ignore[call-arg]
        except GraphError as error:
            raise InputError(
                line_no if error.edge is None else edge_lines[error.edge], str(error)
            ) from None
    else:
        n, m = parse_integers(line_no, text, 2, "the header 'n m' (two integers)")
        if n < 1 or m < 1:
            raise InputError(line_no, f"the board must be at least 1x1, got {n}x{m}")
        rows = [_read_row(reader, row, n, m) for row in range(n)]
        try:
            if kind.text_format == "tiling":
                pieces, piece_lines = [], []
                for row in range(n):
                    piece_no, ids = reader.require(f"row {row + 1} of {n} of piece ids")
                    pieces.append(parse_integers(piece_no, ids, m, f"{m} piece ids"))
                    piece_lines.append(piece_no)
                try:
                    board = kind(pieces)  # type: ignore[call-arg]
                except TilingError as error:
                    raise InputError(piece_lines[error.row or 0], str(error)) from None
            else:
                board = kind(n, m)  # type: ignore[call-arg]
        except TopologyError as error:
            raise InputError(line_no, str(error)) from None
    revealed: dict[int, int] = {}
    mines: set[int] = set()
    seen: dict[int, str] = {}
    for row, (row_no, text) in enumerate(rows):
        for col, char in enumerate(text):
            cell = board.cell_at(row, col)
            if seen.setdefault(cell, char) != char:
                raise InputError(
                    row_no, f"column {col + 1} shows {char!r} for a cell shown as {seen[cell]!r}"
                )
            if char == UNKNOWN:
                continue
            if char == KNOWN_MINE:
                mines.add(cell)
                continue
            count = parse_count(char)
            if count is None:
                raise InputError(
                    row_no,
                    f"unexpected character {char!r} in row {row + 1} "
                    "(expected '?', 'F', or a count 0-9, a-z)",
                )
            if count > len(board.neighbours(cell)):
                raise InputError(
                    row_no,
                    f"row {row + 1}, column {col + 1} shows {count}, more than the cell's "
                    f"{len(board.neighbours(cell))} neighbours",
                )
            revealed[cell] = count
    extra = reader.next()
    if extra is not None:
        raise InputError(extra[0], f"unexpected text after the position: {extra[1]!r}")
    if mine_count is not None and mine_count < 0:
        raise InputError(None, f"the mine count must not be negative, got {mine_count}")
    return View(board, revealed, frozenset(mines), mine_count)


def _read_row(reader: LineReader, row: int, rows: int, cols: int) -> tuple[int, str]:
    line_no, text = reader.require(f"row {row + 1} of {rows}")
    if len(text) != cols:
        raise InputError(line_no, f"row {row + 1} has {len(text)} characters, expected {cols}")
    return line_no, text
