"""Rate limits kept in the database, so that every server process counts the same events.

`RateLimiter.hit` holds the bucket's lock (`minesweeper.ladder.locks`) while it counts
and records, so requests arriving together cannot all pass one count.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from minesweeper.ladder.config import Backoff, RateLimit
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

    def record(self, db: Session, bucket: str) -> int:
        """Count one event in ``bucket``; its id (`forget` takes it back)."""
        attempt = Attempt(bucket=bucket, at_ms=self._now())
        db.add(attempt)
        db.flush()
        return attempt.id

    def forget(self, db: Session, attempts: list[int]) -> None:
        """Take back events counted by `record` (an attempt that turned out well)."""
        db.execute(delete(Attempt).where(Attempt.id.in_(attempts)))

    def wait(self, db: Session, bucket: str, backoff: Backoff, what: str) -> None:
        """`RateLimited` while ``bucket``'s failures past ``backoff.free`` ask for a wait."""
        now = self._now()
        since = now - backoff.window * 1000
        db.execute(delete(Attempt).where(Attempt.bucket == bucket, Attempt.at_ms <= since))
        count, latest = db.execute(
            select(func.count(), func.max(Attempt.at_ms)).where(Attempt.bucket == bucket)
        ).one()
        if count < backoff.free:
            return
        pause = min(backoff.longest, 2 ** min(count - backoff.free, 32))
        left = latest + pause * 1000 - now
        if left > 0:
            wait = (left + 999) // 1000
            raise RateLimited(f"too many {what}: try again in {wait} s", wait)

    def mark(self, db: Session, bucket: str) -> None:
        """Note that ``bucket``'s event happened now (one row, however often it happens)."""
        db.execute(delete(Attempt).where(Attempt.bucket == bucket))
        self.record(db, bucket)

    def seen(self, db: Session, bucket: str, seconds: int) -> bool:
        """Whether ``bucket``'s event happened within ``seconds`` (see `mark`)."""
        since = self._now() - seconds * 1000
        found = select(Attempt.id).where(Attempt.bucket == bucket, Attempt.at_ms > since)
        return db.scalar(found.limit(1)) is not None

    def hit(self, db: Session, bucket: str, limit: RateLimit, what: str) -> None:
        """Check ``bucket`` and count one more event in it, as one step."""
        hold(db, f"bucket:{bucket}", self._now())
        self.check(db, bucket, limit, what)
        self.record(db, bucket)
