"""Opening a ladder's database: the engine, and the migrations run at start-up.

SQLite runs in WAL mode (readers never wait for the writer; a committed move
survives the process being killed) with a busy timeout, so several server
processes can share one file. PostgreSQL URLs (``postgresql://``) use psycopg 3.
Migrations take a lock first (a PostgreSQL advisory lock; a lock file beside an
SQLite database), so processes starting together migrate once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from filelock import FileLock
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import StaticPool

from minesweeper.ladder.errors import BadRequest

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The key of the PostgreSQL advisory lock held while migrating (any constant will do).
_MIGRATION_LOCK = 0x6D696E6573


class DatabaseError(BadRequest):
    """A database URL that cannot be used."""


def open_engine(url: str) -> Engine:
    """An engine for ``url`` (``sqlite:///PATH``, ``sqlite://`` in memory, ``postgresql://...``)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(f"not a database URL: {url!r}") from None
    backend = parsed.get_backend_name()
    if backend == "postgresql":
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        return create_engine(parsed, pool_pre_ping=True, pool_size=10, max_overflow=20)
    if backend != "sqlite":
        raise DatabaseError(f"unsupported database {backend!r}: use sqlite:/// or postgresql://")
    options: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if not parsed.database or parsed.database == ":memory:":
        options["poolclass"] = StaticPool
    engine = create_engine(parsed, **options)
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest revision (a no-op when it is there)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
        with FileLock(f"{engine.url.database}.migrate.lock"), engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
        return
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
