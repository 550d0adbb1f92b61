"""Limits that hold under concurrency, on SQLite and PostgreSQL: a count and the insert it
guards are one step, so requests arriving together cannot all pass the same count."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from doubles import FakeClock
from ladder_helpers import config
from ladder_servers import postgres  # noqa: F401 (a fixture)
from sqlalchemy import func, select

from minesweeper.ladder.categories import GameRequest
from minesweeper.ladder.errors import LadderError
from minesweeper.ladder.schema import Account, Game
from minesweeper.ladder.service import Ladder

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    return request.getfixturevalue("postgres").new_database()


def at_once(count: int, work: Callable[[int], object]) -> list[object]:
    """``work(i)`` for i < ``count``, all threads released together; what each returned or
    the `LadderError` it raised."""
    start = threading.Barrier(count)

    def run(index: int) -> object:
        start.wait()
        try:
            return work(index)
        except LadderError as error:
            return error

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_sixty_creations_at_once_leave_at_most_the_limit_unfinished(database: str) -> None:
    # Two services on one database: two server processes, each with its own connections.
    services = [Ladder(config(database)) for _ in range(2)]
    try:
        with services[0].transaction() as db:
            alice = services[0].accounts.bot_token(db, "alice").player

        def create(index: int) -> object:
            service = services[index % 2]
            with service.transaction() as db:
                return service.games.create(db, alice, GameRequest(mode="ranked"))

        results = at_once(60, create)
        with services[0].transaction() as db:
            unfinished = db.scalar(
                select(func.count()).select_from(Game).where(Game.account_id == alice.id)
            )
        limit = services[0].config.open_games
        assert unfinished == limit
        refused = [r for r in results if isinstance(r, LadderError)]
        assert len(refused) == 60 - limit and {r.status for r in refused} == {409}
    finally:
        for service in services:
            service.close()


def test_sign_ups_at_once_from_one_address_keep_its_limit(database: str) -> None:
    services = [Ladder(config(database)) for _ in range(2)]
    try:

        def sign_up(index: int) -> object:
            service = services[index % 2]
            with service.transaction() as db:
                return service.accounts.sign_up(db, f"player{index}", "long enough", "10.0.0.1")

        results = at_once(30, sign_up)
        with services[0].transaction() as db:
            accounts = db.scalar(select(func.count()).select_from(Account))
        limit = services[0].config.sign_up_per_address.count
        assert accounts == limit
        assert sum(isinstance(r, LadderError) and r.status == 429 for r in results) == 30 - limit
    finally:
        for service in services:
            service.close()


def test_guesses_sent_at_once_are_each_counted_before_they_are_checked(database: str) -> None:
    """On a clock that stands still: on a loaded machine the 20 guesses took more than the
    1 s the first back-off lasts, and a sixth guess was rightly let through."""
    clock = FakeClock(1_000_000.0)
    services = [Ladder(config(database, clock)) for _ in range(2)]
    try:
        with services[0].transaction() as db:
            services[0].accounts.sign_up(db, "alice", "the password", "192.0.2.1")

        def guess(index: int) -> object:
            service = services[index % 2]
            with service.transaction() as db:
                return service.accounts.sign_in(db, "alice", "a wrong one", "198.51.100.1")

        statuses = [result.status for result in at_once(20, guess)]  # type: ignore[attr-defined]
        free = services[0].config.sign_in_failures_per_address.free
        assert statuses.count(401) == free and statuses.count(429) == 20 - free
    finally:
        for service in services:
            service.close()
