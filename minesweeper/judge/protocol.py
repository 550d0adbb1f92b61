"""The interactive client protocol: what the judge writes first, and how a client reads it.

The judge writes ``n m``, then the map after the case's first click (which
the judge makes). The client answers with one move ``r c`` per line; after
each move the judge writes the map. When the game is decided the judge writes
``YOU WIN!`` or ``GAME OVER!`` and ``visit_count step_count``, then closes the
pipe; it also closes it, without those lines, after the assignment's
1000-move limit (the first click included). Maps are written and flushed
whole. Grid topologies only (square, hex, triangle): their size is all a
client needs to know.
"""

from __future__ import annotations

from minesweeper.errors import InputError, MinesweeperError
from minesweeper.protocol import LineReader, parse_integers
from minesweeper.topology.base import Topology
from minesweeper.topology.registry import find_topology


class ProtocolError(MinesweeperError):
    """The other end broke the protocol (a closed pipe, a topology it cannot carry)."""


def format_header(topology: Topology) -> str:
    """The judge's first line: the board's size ``n m``."""
    if topology.text_format != "grid":
        raise ProtocolError(
            f"the client protocol carries grid boards only, not {topology.name!r} boards"
        )
    rows, cols = topology.shape
    return f"{rows} {cols}\n"


def read_header(reader: LineReader, topology: str) -> Topology:
    """The board (of the named grid topology) whose size the judge's first line gives."""
    kind = find_topology(topology)
    if kind.text_format != "grid":
        raise ProtocolError(f"the client protocol carries grid boards only, not {topology!r}")
    line_no, text = reader.require("the header 'n m'")
    rows, cols = parse_integers(line_no, text, 2, "the header 'n m' (two integers)")
    if rows < 1 or cols < 1:
        raise InputError(line_no, f"the board must be at least 1x1, got {rows}x{cols}")
    return kind(rows, cols)  # type: ignore[call-arg]
