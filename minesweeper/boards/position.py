"""Positions written by hand for `minesweeper analyze`.

Text: ``n m``, then n rows of the printed map where ``?`` is an unknown cell,
``0``-``9`` and then ``a``, ``b``, ... (10, 11, ...) a revealed count, and
``F`` a cell known to be a mine; other topologies add what their board format
adds (piece ids, edges). Blank lines are ignored.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from minesweeper.errors import InputError
from minesweeper.limits import quote
from minesweeper.protocol import UNKNOWN, LineReader, parse_count, read_drawing
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology
from minesweeper.topology.square import SquareTopology

#: The character of a cell known to be a mine.
KNOWN_MINE = "F"


def read_position(
    stream: IO[bytes] | IO[str] | bytes | str | Iterable[bytes | str],
    topology: type[Topology] = SquareTopology,
    mine_count: int | None = None,
) -> View:
    """The position ``stream`` describes, as a `View`; raises `InputError` when malformed.

    The layout follows the topology's board format, with map rows in place of
    the ``.``/``X`` rows: grids ``n m`` and n rows; tilings ``n m``, n rows,
    then n rows of m piece ids; graphs ``N E``, one row of N characters, then
    E edges ``u v``.
    """
    if mine_count is not None and mine_count < 0:
        raise InputError(None, f"the mine count must not be negative, got {mine_count}")
    reader = LineReader(stream)
    drawing = read_drawing(reader, topology, _check_map_row)
    board = drawing.topology
    revealed: dict[int, int] = {}
    mines: set[int] = set()
    for cell, (char, line_no) in drawing.marks("is shown two ways").items():
        if char == KNOWN_MINE:
            mines.add(cell)
        elif char != UNKNOWN:
            count = parse_count(char)
            assert count is not None  # _check_map_row let only counts through
            around = len(board.neighbours(cell))
            if count > around:
                row, col = board.position(cell)
                raise InputError(
                    line_no,
                    f"row {row + 1}, column {col + 1} shows {count}, "
                    f"more than the cell's {around} neighbours",
                )
            revealed[cell] = count
    extra = reader.next()
    if extra is not None:
        raise InputError(extra[0], f"unexpected text after the position: {quote(extra[1])}")
    return View(board, revealed, frozenset(mines), mine_count)


def _check_map_row(line_no: int, text: str, label: str) -> None:
    for char in text:
        if char not in (UNKNOWN, KNOWN_MINE) and parse_count(char) is None:
            raise InputError(
                line_no,
                f"unexpected character {char!r} in {label} "
                "(expected '?', 'F', or a count 0-9, a-z)",
            )
