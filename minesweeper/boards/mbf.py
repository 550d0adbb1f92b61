"""MBF: the binary board format of Minesweeper X, Minesweeper Arbiter and JSMinesweeper.

Bytes: the width (columns), the height (rows), the mine count as two bytes
(big-endian), then each mine as two bytes, its column then its row. Boards
are squares only, at most 255 x 255, with at most 65535 mines. MBF holds no
first click.
"""

from __future__ import annotations

from minesweeper.board import Board
from minesweeper.errors import InputError
from minesweeper.topology.square import SquareTopology

#: The largest side and mine count the format can hold.
MAX_SIDE = 255
MAX_MINES = 0xFFFF
#: The suffix of MBF files.
SUFFIX = ".mbf"
#: Bytes before the mines: width, height, mine count.
HEADER = 4


class MbfError(InputError):
    """Bytes that are not an MBF board, or a board MBF cannot hold."""


def read_mbf(data: bytes) -> Board:
    """The board in MBF ``data``; raises `MbfError` naming the first problem and its byte."""
    if len(data) < HEADER:
        raise MbfError(None, f"{len(data)} byte(s): too short for an MBF header (4 bytes)")
    cols, rows = data[0], data[1]
    mines = data[2] << 8 | data[3]
    if cols < 1 or rows < 1:
        raise MbfError(None, f"bytes 0-1: a {cols}x{rows} board has no cells")
    if mines >= rows * cols:
        raise MbfError(
            None, f"bytes 2-3: {mines} mine(s) leave no safe cell on a {cols}x{rows} board"
        )
    expected = HEADER + 2 * mines
    if len(data) != expected:
        how = "truncated" if len(data) < expected else "too long"
        raise MbfError(
            None, f"{how}: {mines} mine(s) take {expected} bytes, the file has {len(data)}"
        )
    cells: set[int] = set()
    for offset in range(HEADER, expected, 2):
        col, row = data[offset], data[offset + 1]
        if col >= cols or row >= rows:
            raise MbfError(
                None,
                f"byte {offset}: mine at column {col}, row {row} is off the {cols}x{rows} board",
            )
        cell = row * cols + col
        if cell in cells:
            raise MbfError(None, f"byte {offset}: mine at column {col}, row {row} is listed twice")
        cells.add(cell)
    return Board(SquareTopology(rows, cols), cells)


def write_mbf(board: Board) -> bytes:
    """``board`` as MBF bytes (mines in row-major order); `MbfError` if MBF cannot hold it."""
    topology = board.topology
    if not isinstance(topology, SquareTopology):
        raise MbfError(None, f"MBF holds square boards only, not {topology.name} ones")
    rows, cols = topology.shape
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise MbfError(None, f"MBF holds boards up to {MAX_SIDE}x{MAX_SIDE}, not {rows}x{cols}")
    if board.mine_count > MAX_MINES:
        raise MbfError(None, f"MBF holds up to {MAX_MINES} mines, not {board.mine_count}")
    data = bytearray([cols, rows, board.mine_count >> 8, board.mine_count & 0xFF])
    for cell in sorted(board.mines):
        row, col = divmod(cell, cols)
        data += bytes([col, row])
    return bytes(data)
