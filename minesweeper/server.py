"""The judge server: reads a board and moves, prints a map after each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, TextIO

from minesweeper.game import Game
from minesweeper.protocol import LineReader, MapText, format_result, parse_move, read_board
from minesweeper.topology.base import Topology
from minesweeper.topology.square import SquareTopology


@dataclass
class ServeResult:
    """How a served game ended: ``finished`` is False when the moves ran out first."""

    game: Game
    finished: bool


def serve(
    stdin: IO[bytes] | IO[str], stdout: TextIO, topology: type[Topology] = SquareTopology
) -> ServeResult:
    """Play one game from ``stdin`` to ``stdout``, flushing after every map.

    ``stdin`` is best binary: each line is checked on its own (see `LineReader`).
    Raises `InputError` on malformed input; what was printed before stays printed.
    Nothing after the deciding move is read.
    """
    reader = LineReader(stdin)
    board = read_board(reader, topology)
    game = Game(board)
    text = MapText(game)
    stdout.write(str(text))
    stdout.flush()
    while not game.over:
        line = reader.next()
        if line is None:
            return ServeResult(game, finished=False)
        line_no, line_text = line
        text.after_visit(game.visit(parse_move(line_no, line_text, board.topology)))
        stdout.write(str(text))
        stdout.flush()
    stdout.write(format_result(game))
    stdout.flush()
    return ServeResult(game, finished=True)
