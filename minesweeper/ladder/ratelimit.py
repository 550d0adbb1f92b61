"""Rate limits kept in the database, so that every server process counts the same events.

`RateLimiter.hit` holds the bucket's lock (`minesweeper.ladder.locks`) while it counts
and records, so requests arriving together cannot all pass one count.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from minesweeper.ladder.config import RateLimit
from minesweeper.ladder.errors import RateLimited
from minesweeper.ladder.locks import hold
from minesweeper.ladder.schema import Attempt


class RateLimiter:
    """Counts events per bucket in a sliding window of the limit's length."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock

    def _now(self) -> int:
        return int(self.clock() * 1000)

    def check(self, db: Session, bucket: str, limit: RateLimit, what: str) -> None:
        """`RateLimited` when ``bucket`` already holds ``limit.count`` recent events."""
        now = self._now()
        since = now - limit.seconds * 1000
        db.execute(delete(Attempt).where(Attempt.bucket == bucket, Attempt.at_ms <= since))
        count, oldest = db.execute(
            select(func.count(), func.min(Attempt.at_ms)).where(
                Attempt.bucket == bucket, Attempt.at_ms > since
            )
        ).one()
        if count >= limit.count:
            wait = max(1, (oldest + limit.seconds * 1000 - now + 999) // 1000)
            raise RateLimited(
                f"too many {what}: at most {limit.count} in {limit.seconds} s; "
                f"try again in {wait} s",
                wait,
            )

    def record(self, db: Session, bucket: str) -> None:
        db.add(Attempt(bucket=bucket, at_ms=self._now()))

    def hit(self, db: Session, bucket: str, limit: RateLimit, what: str) -> None:
        """Check ``bucket`` and count one more event in it, as one step."""
        hold(db, f"bucket:{bucket}", self._now())
        self.check(db, bucket, limit, what)
        self.record(db, bucket)
