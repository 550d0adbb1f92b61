"""Locks that make a limit atomic on SQLite and PostgreSQL alike.

A limit is a count and an insert ("fewer than 20 unfinished games: deal one"); two
requests that both count before either inserts both pass. `hold` upserts the
lock's row first, which takes the row's lock on PostgreSQL (a second transaction
upserting it waits for the first to end) and the database's write lock on SQLite
(whose driver begins the transaction at that first write), so whatever the
transaction counts after it stays true until it commits.
"""

from __future__ import annotations

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from minesweeper.ladder.schema import Lock


def hold(db: Session, name: str, now_ms: int) -> None:
    """Hold the lock ``name`` until ``db``'s transaction ends (waiting for its holder)."""
    dialect = db.get_bind().dialect.name
    insert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(Lock)
    upsert = insert.values(name=name[:120], at_ms=now_ms).on_conflict_do_update(
        index_elements=[Lock.name], set_={"at_ms": now_ms}
    )
    db.execute(upsert)
