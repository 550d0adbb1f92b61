"""The interactive client protocol: what the judge writes first, and how a client reads it.

The judge writes ``n m``, then the map after the case's first click (which
the judge makes). The client answers with one move ``r c`` per line; after
each move the judge writes the map. When the game is decided the judge writes
``YOU WIN!`` or ``GAME OVER!`` and ``visit_count step_count``, then closes the
pipe; it also closes it, without those lines, after the assignment's
1000-move limit (the first click included). Maps are written and flushed
whole. On tilings the header goes on with the piece ids, on graphs it is
``N E`` and the edges (`format_header`).
"""

from __future__ import annotations

from minesweeper.errors import InputError, JudgeError, TopologyError
from minesweeper.protocol import LineReader, parse_integers
from minesweeper.topology.base import Topology


class ProtocolError(JudgeError):
    """The other end broke the protocol: it closed the pipe in the middle of a map."""


def format_header(topology: Topology) -> str:
    """What the judge writes first: the board's shape in its topology's format, without mines.

    Grids: ``n m``. Tilings: ``n m`` and n rows of m piece ids. Graphs: ``N E``
    and E edges ``u v``.
    """
    if topology.text_format == "graph":
        edges = topology.edges()
        return f"{topology.size} {len(edges)}\n" + "".join(f"{u} {v}\n" for u, v in edges)
    rows, cols = topology.shape
    header = f"{rows} {cols}\n"
    if topology.text_format == "tiling":
        grid = [[topology.cell_at(row, col) for col in range(cols)] for row in range(rows)]
        header += "".join(" ".join(map(str, row)) + "\n" for row in grid)
    return header


def read_header(reader: LineReader, kind: type[Topology]) -> Topology:
    """The board shape the judge's first lines give, for a topology of ``kind``."""
    line_no, text = reader.require("the header")
    first, second = parse_integers(line_no, text, 2, "a header of two integers")
    try:
        if kind.text_format == "graph":
            edges = [
                parse_integers(*reader.require(f"edge {index + 1}"), 2, "an edge 'u v'")
                for index in range(second)
            ]
            return kind(first, edges)  # type: ignore[call-arg]
        if first < 1 or second < 1:
            raise InputError(line_no, f"the board must be at least 1x1, got {first}x{second}")
        if kind.text_format == "tiling":
            pieces = [
                parse_integers(*reader.require(f"row {row + 1} of piece ids"), second, "piece ids")
                for row in range(first)
            ]
            return kind(pieces)  # type: ignore[call-arg]
        return kind(first, second)  # type: ignore[call-arg]
    except TopologyError as error:
        raise InputError(reader.line_no, str(error)) from None
