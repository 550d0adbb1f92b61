"""The reference client: the project's `Client` speaking the client protocol on stdin/stdout."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, TextIO

from minesweeper.client import Client
from minesweeper.game import State
from minesweeper.judge.protocol import ProtocolError, read_header
from minesweeper.protocol import LineReader, format_move
from minesweeper.solver.strategy import Strategy
from minesweeper.topology.base import Topology


def play_stdio(
    stdin: IO[bytes] | IO[str], stdout: TextIO, strategy: Strategy, topology: type[Topology]
) -> State:
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

    def send(move: Sequence[int]) -> str:
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
