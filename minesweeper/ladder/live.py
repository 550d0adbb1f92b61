"""Games being played in this process: their sessions kept in memory, and brought up to the
moves stored in the database (by another process, or before a restart).

A kept session is made whole again only when it must be: when this process has never
seen the game, or its board was laid elsewhere. Otherwise the moves stored since are
made on it, and nothing more, so a game played through two servers in turn costs each
move once.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from minesweeper.ladder.schema import Game, Move
from minesweeper.play.session import GameSession

#: Cells of the games kept in memory per process (the rest are rebuilt from the database
#: when asked): about 2,000 expert games, or 100 of the largest practice boards (a random
#: tiling of 10,000 pieces holds about 5 MB of neighbour lists).
CACHE_CELLS = 1_000_000


class ManualClock:
    """A session's clock that shows what it is set to: the server's time of the move."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Live:
    """A game being played in this process: its session, and how many moves it has made."""

    session: GameSession
    clock: ManualClock
    moves: int


class LiveGames:
    """The sessions of recently played games, least recently used dropped first once their
    cells pass ``capacity`` (cells, not games: a board's memory grows with its cells)."""

    def __init__(self, capacity: int = CACHE_CELLS) -> None:
        self.capacity = capacity
        self._cells = 0
        self._games: OrderedDict[str, Live] = OrderedDict()
        self._guard = threading.Lock()
        # One lock per game, kept while someone holds or waits for it: a lock shared by
        # several games (64 of them hashed) made a move wait for another game's no-guess
        # search (six games at once shared one 21% of the time).
        self._locks: weakref.WeakValueDictionary[str, threading.Lock] = (
            weakref.WeakValueDictionary()
        )

    @contextmanager
    def locked(self, game_id: str) -> Iterator[None]:
        """Hold this process's lock of ``game_id`` (moves of one game go one at a time)."""
        with self._guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
        with lock:
            yield

    def get(self, game_id: str) -> Live | None:
        with self._guard:
            live = self._games.get(game_id)
            if live is not None:
                self._games.move_to_end(game_id)
            return live

    def put(self, game_id: str, live: Live) -> None:
        with self._guard:
            self._forget(game_id)
            self._games[game_id] = live
            self._cells += live.session.topology.size
            while self._cells > self.capacity and len(self._games) > 1:
                self._forget(next(iter(self._games)))

    def drop(self, game_id: str) -> None:
        with self._guard:
            self._forget(game_id)

    def _forget(self, game_id: str) -> None:
        live = self._games.pop(game_id, None)
        if live is not None:
            self._cells -= live.session.topology.size


def play_moves(session: GameSession, clock: ManualClock, moves: list[Move]) -> None:
    """Make the stored ``moves`` on ``session``, each at its time."""
    for move in moves:
        clock.now = move.ms / 1000
        apply_move(session, "flag" if move.kind in ("flag", "unflag") else move.kind, move.cell)


def apply_move(session: GameSession, kind: str, cell: int) -> list[int]:
    """Make one move on ``session``; the cells it changed (opened, or the mines that went off)."""
    if kind == "open":
        return session.open(cell)
    if kind == "chord":
        return session.chord(cell)
    session.toggle_flag(cell)
    return []


def caught_up(db: Session, game: Game, live: Live) -> bool:
    """Bring a kept session up to the moves other processes stored since, making only those
    (a game of 40,000 moves played through two servers in turn was made whole again at
    each move); False when it cannot be (then it is rebuilt from the database)."""
    session = live.session
    made = len(session.actions)
    if live.moves != made or made > game.moves:
        return False
    if made < game.moves:
        if session.board is None and game.board is not None:
            return False  # laid elsewhere: the stored board, not a deal made again
        newer = select(Move).where(Move.game_id == game.id, Move.number > made)
        play_moves(session, live.clock, list(db.scalars(newer.order_by(Move.number))))
        live.moves = len(session.actions)
        helped = json.loads(game.assists)
        session.assists[:] = [(kind, at) for kind, at in helped if at <= live.moves]
    return live.moves == game.moves
