"""The interactive client protocol, both ends: what the judge writes and how a client plays.

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

from typing import TextIO

from minesweeper.client import Client, Outcome
from minesweeper.errors import InputError, MinesweeperError
from minesweeper.protocol import LineReader, format_move, parse_integers
from minesweeper.solver.strategy import Strategy
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


def play_stdio(stdin: TextIO, stdout: TextIO, strategy: Strategy, topology: str) -> Outcome:
    """Play one game as a client: maps from ``stdin``, moves to ``stdout``.

    The judge made the first click, so it counts towards the move limit. Once
    the game is decided (or the limit reached) the rest of the input (the
    result lines) is read, so the judge never writes into a closed pipe.
    """
    reader = LineReader(stdin)
    grid = read_header(reader, topology)
    rows = grid.shape[0]

    def read_map() -> str:
        lines = []
        for row in range(rows):
            line = reader.next()
            if line is None:
                raise ProtocolError(f"the judge closed the pipe in map row {row + 1} of {rows}")
            lines.append(line[1] + "\n")
        return "".join(lines)

    def send(move: tuple[int, ...]) -> str:
        stdout.write(format_move(grid, grid.cell_from_move(move)) + "\n")
        stdout.flush()
        return read_map()

    client = Client(grid, send, strategy)
    client.InitGame()
    client.ReadMap(read_map())
    client.moves = 1  # the judge's first click
    outcome = client.run()
    while reader.next() is not None:  # the result lines, up to the judge closing the pipe
        pass
    return outcome
