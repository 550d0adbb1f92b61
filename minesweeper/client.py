"""The client: plays a game knowing only the board's size and what the server prints.

`Player` (`minesweeper.solver.player`) holds what a player sees and the decision
loop; it asks a strategy for moves and never visits a cell twice, never visits a
proved mine, and stops after ``max_moves`` moves. Two front ends share it:

- `Client`, the assignment's compatibility layer (``InitGame``, ``Execute``,
  ``ReadMap``, ``Decide``): each move goes through a `Connection` and the map
  text it returns is the only channel back, as in the original ``advanced.cpp``;
- `play`, the benchmark's fast loop, which reads the revealed counts straight
  from a `Game` (what the player sees, never the mines) instead of printing
  and parsing text.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from minesweeper.board import Board
from minesweeper.errors import InputError
from minesweeper.game import Game, State
from minesweeper.play.stats import bbbv
from minesweeper.protocol import EXPLODED, MINE_AT_WIN, UNKNOWN, MapText, parse_count
from minesweeper.solver.player import MAX_MOVES, GuessObserver, Player, play_out
from minesweeper.solver.strategy import Strategy
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology

__all__ = [
    "MAX_MOVES",
    "Client",
    "Connection",
    "GameRecord",
    "GuessObserver",
    "MapError",
    "Player",
    "SeenMap",
    "judge_connection",
    "parse_map",
    "play",
    "play_on",
    "traced",
]

#: Sends one move (the protocol's integers) to the server; returns the map printed after it.
Connection = Callable[[Sequence[int]], str]


class MapError(InputError):
    """Map text that does not fit the board: wrong shape, unknown character, impossible count."""


@dataclass(frozen=True)
class SeenMap:
    """What one printed map shows: revealed counts, known mines, and the outcome."""

    revealed: dict[int, int]
    mines: frozenset[int]
    outcome: State


def parse_map(text: str, topology: Topology) -> SeenMap:
    """Read the judge's map text for ``topology``; raises `MapError` when it is malformed."""
    rows, cols = topology.shape
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) != rows:
        raise MapError(None, f"the map has {len(lines)} row(s), expected {rows}")
    revealed: dict[int, int] = {}
    mines: set[int] = set()
    exploded = won = False
    for row, line in enumerate(lines):
        if len(line) != cols:
            raise MapError(None, f"map row {row + 1} has {len(line)} character(s), expected {cols}")
        for col, char in enumerate(line):
            cell = topology.cell_at(row, col)
            if char == UNKNOWN:
                continue
            if char in (EXPLODED, MINE_AT_WIN):
                exploded |= char == EXPLODED
                won |= char == MINE_AT_WIN
                mines.add(cell)
                continue
            count = parse_count(char)
            if count is None:
                raise MapError(None, f"unexpected character {char!r} in map row {row + 1}")
            if count > len(topology.neighbours(cell)):
                raise MapError(
                    None,
                    f"map row {row + 1}, column {col + 1} shows {count}, "
                    f"more than the cell's {len(topology.neighbours(cell))} neighbours",
                )
            if revealed.setdefault(cell, count) != count:
                raise MapError(
                    None, f"map row {row + 1} shows cell {cell} with two different counts"
                )
    if exploded and won:
        raise MapError(None, "the map shows both an exploded mine 'X' and a won game '@'")
    if exploded:
        outcome = State.LOST
    elif won or len(revealed) + len(mines) == topology.size:
        outcome = State.WON
    else:
        outcome = State.PLAYING
    return SeenMap(revealed, frozenset(mines), outcome)


class Client(Player):
    """The assignment's client: moves go out through ``connection``, maps come back as text.

    It knows the board's topology (its size and shape) and nothing else about it.
    """

    def __init__(
        self,
        topology: Topology,
        connection: Connection,
        strategy: Strategy,
        max_moves: int = MAX_MOVES,
    ) -> None:
        super().__init__(topology, strategy, None, max_moves)
        self.connection = connection

    def InitGame(self, first: Sequence[int] | None = None) -> None:
        """Start a game; ``first`` is the first click, made on the client's behalf."""
        self.reset()
        if first is not None:
            cell = self.topology.cell_from_move(first)
            self.move(cell, lambda _: self.Execute(*first))

    def Execute(self, *move: int) -> None:
        """Make ``move`` (``row, col`` on grids) on the server and read the map it prints."""
        self.ReadMap(self.connection(move))

    def ReadMap(self, text: str) -> None:
        """Take in the map the server printed; raises `MapError` when it is malformed."""
        seen = parse_map(text, self.topology)
        self.revealed = seen.revealed
        self.outcome = seen.outcome
        if seen.outcome is State.LOST:
            self.mines.update(seen.mines)

    def Decide(self) -> None:
        """Ask the strategy and execute the move(s) it chose."""
        self.turn(lambda cell: self.Execute(*self.topology.move_of(cell)))

    def run(self) -> State:
        """Decide until the game is decided or the move limit is reached."""
        while not self.over:
            self.Decide()
        return self.outcome


def judge_connection(game: Game) -> Connection:
    """A connection to an in-process judge: visits on ``game``, returns the printed map."""
    topology = game.board.topology
    text = MapText(game)

    def send(move: Sequence[int]) -> str:
        text.after_visit(game.visit(topology.cell_from_move(move)))
        return str(text)

    return send


def traced(connection: Connection, stream: TextIO) -> Connection:
    """``connection``, writing each move line and the map printed after it to ``stream``."""

    def send(move: Sequence[int]) -> str:
        text = connection(move)
        stream.write(" ".join(str(value) for value in move) + "\n" + text)
        stream.flush()
        return text

    return send


@dataclass(frozen=True)
class GameRecord:
    """How one game went: ``steps`` counts every visit; ``seconds`` is CPU time."""

    won: bool
    finished: bool
    visit_count: int
    steps: int
    safe_cells: int
    guesses: int
    seconds: float
    #: The board's 3BV (see `minesweeper.play.stats`), so that results can be set against it.
    bbbv: int | None = None

    @property
    def safe_share(self) -> float:
        """The share of the board's safe cells the player revealed."""
        return self.visit_count / self.safe_cells if self.safe_cells else 1.0


def play(
    board: Board,
    first: int,
    strategy: Strategy,
    tell_mine_count: bool = False,
    max_moves: int = MAX_MOVES,
    on_guess: GuessObserver | None = None,
) -> GameRecord:
    """Play ``board`` from the first click ``first`` with ``strategy``, without map text.

    The strategy sees what the client would see: revealed counts, never the mines.
    ``on_guess`` is told of every guess (in the CPU time of the game).
    """
    return play_on(
        board, View(board.topology, {}), first, strategy, tell_mine_count, max_moves, on_guess
    )


def play_on(
    board: Board,
    view: View,
    cell: int,
    strategy: Strategy,
    tell_mine_count: bool = False,
    max_moves: int = MAX_MOVES,
    on_guess: GuessObserver | None = None,
) -> GameRecord:
    """Play ``board`` on from the position ``view`` (its revealed cells opened, its known
    mines known) by opening ``cell``, then with ``strategy`` to the end (`play_out`).

    ``view`` must be a position of ``board``: its numbers are the board's.
    """
    start = time.process_time()
    game, player = play_out(board, view, cell, strategy, tell_mine_count, max_moves, on_guess)
    return GameRecord(
        won=game.state is State.WON,
        finished=game.over,
        visit_count=game.visit_count,
        steps=game.step_count,
        safe_cells=board.safe_count,
        guesses=player.guesses,
        seconds=time.process_time() - start,
        bbbv=bbbv(board),
    )
