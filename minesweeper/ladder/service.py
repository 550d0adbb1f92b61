"""`Ladder`: one ladder service (its database, accounts and games), used by every face."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session, sessionmaker

from minesweeper.ladder.accounts import Accounts
from minesweeper.ladder.config import LadderConfig
from minesweeper.ladder.cpu import CpuSlots
from minesweeper.ladder.database import migrate, open_engine
from minesweeper.ladder.games import Games


class Ladder:
    """The service: opens (and migrates) the database; hands out transactions."""

    def __init__(self, config: LadderConfig) -> None:
        self.config = config
        self.engine = open_engine(config.database_url)
        migrate(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: Slots for heavy work (`minesweeper.ladder.cpu`), one pool per kind, so that no kind
        #: starves another: players' games (deals, aids, boards), what anyone may ask without
        #: signing in (replays, drawings, player pages), and password hashes (sign-ins).
        self.cpu = CpuSlots(config.cpu_slots, config.cpu_wait_seconds)
        self.public = CpuSlots(config.cpu_slots, config.cpu_wait_seconds)
        self.accounts = Accounts(config, CpuSlots(config.cpu_slots, config.cpu_wait_seconds))
        self.games = Games(config, self.cpu)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A database session, committed when the block ends, rolled back if it raises."""
        with self._sessions() as db:
            try:
                yield db
                db.commit()
            except BaseException:
                db.rollback()
                raise

    def now_ms(self) -> int:
        return int(self.config.clock() * 1000)

    def close(self) -> None:
        self.engine.dispose()
