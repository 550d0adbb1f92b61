"""Positions written by hand for `minesweeper analyze`.

Text: ``n m``, then n rows of the printed map where ``?`` is an unknown cell,
``0``-``9`` and then ``a``, ``b``, ... (10, 11, ...) a revealed count, and
``F`` a cell known to be a mine. Blank lines are ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from minesweeper.errors import InputError, TopologyError
from minesweeper.protocol import UNKNOWN, LineReader, parse_count, parse_integers
from minesweeper.solver.view import View
from minesweeper.topology.registry import find_topology

#: The character of a cell known to be a mine.
KNOWN_MINE = "F"


def read_position(
    stream: TextIO | Sequence[str], topology: str = "square", mine_count: int | None = None
) -> View:
    """The position ``stream`` describes, as a `View`; raises `InputError` when malformed."""
    reader = LineReader(stream)
    line_no, text = reader.require("the header 'n m'")
    rows, cols = parse_integers(line_no, text, 2, "the header 'n m' (two integers)")
    if rows < 1 or cols < 1:
        raise InputError(line_no, f"the board must be at least 1x1, got {rows}x{cols}")
    try:
        board = find_topology(topology)(rows, cols)  # type: ignore[call-arg]
    except TopologyError as error:
        raise InputError(line_no, str(error)) from None
    rows, cols = board.shape
    revealed: dict[int, int] = {}
    mines: set[int] = set()
    seen: dict[int, str] = {}
    for row in range(rows):
        line_no, text = reader.require(f"row {row + 1} of {rows}")
        if len(text) != cols:
            raise InputError(line_no, f"row {row + 1} has {len(text)} characters, expected {cols}")
        for col, char in enumerate(text):
            cell = board.cell_at(row, col)
            if seen.setdefault(cell, char) != char:
                raise InputError(
                    line_no, f"column {col + 1} shows {char!r} for a cell shown as {seen[cell]!r}"
                )
            if char == UNKNOWN:
                continue
            if char == KNOWN_MINE:
                mines.add(cell)
                continue
            count = parse_count(char)
            if count is None:
                raise InputError(
                    line_no,
                    f"unexpected character {char!r} in row {row + 1} "
                    "(expected '?', 'F', or a count 0-9, a-z)",
                )
            if count > len(board.neighbours(cell)):
                raise InputError(
                    line_no,
                    f"row {row + 1}, column {col + 1} shows {count}, more than the cell's "
                    f"{len(board.neighbours(cell))} neighbours",
                )
            revealed[cell] = count
    extra = reader.next()
    if extra is not None:
        raise InputError(extra[0], f"unexpected text after the map: {extra[1]!r}")
    if mine_count is not None and mine_count < 0:
        raise InputError(None, f"the mine count must not be negative, got {mine_count}")
    return View(board, revealed, frozenset(mines), mine_count)
