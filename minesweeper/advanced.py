"""Advanced runs: the judge and the client in one process, talking through map text."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TextIO

from minesweeper.boards.cases import AdvancedCase
from minesweeper.client import MAX_MOVES, Client, judge_connection, traced
from minesweeper.game import Game, State
from minesweeper.protocol import format_result
from minesweeper.solver.strategy import Strategy

#: The strategy the client plays unless told otherwise.
DEFAULT_STRATEGY = "gauss-powermean"


@dataclass(frozen=True)
class AdvancedResult:
    """How an advanced case went; ``seconds`` is the CPU time of the whole game."""

    game: Game
    seconds: float

    @property
    def won(self) -> bool:
        return self.game.state is State.WON

    @property
    def finished(self) -> bool:
        """False when the client stopped at the move limit before the game was decided."""
        return self.game.over

    @property
    def result_lines(self) -> str:
        """What the original prints at the end: the verdict, then visit and step counts."""
        return format_result(self.game)


def run_case(
    case: AdvancedCase,
    strategy: Strategy,
    trace: TextIO | None = None,
    max_moves: int = MAX_MOVES,
) -> AdvancedResult:
    """Play ``case``: the first click on the client's behalf, then the client's own moves.

    With ``trace``, every move line and the map printed after it are written there.
    """
    start = time.process_time()
    game = Game(case.board)
    topology = case.board.topology
    connection = judge_connection(game)
    if trace is not None:
        connection = traced(connection, trace)
    client = Client(topology, connection, strategy, max_moves)
    client.InitGame(topology.move_of(case.first))
    client.run()
    return AdvancedResult(game, time.process_time() - start)
