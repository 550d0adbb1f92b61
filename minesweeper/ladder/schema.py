"""The ladder's tables (SQLAlchemy 2). Alembic's migrations in ``migrations/`` create them.

Times are integers: milliseconds since the Unix epoch, by the server's clock, so
SQLite and PostgreSQL store and compare them alike.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Account(Base):
    """A player: a person (with a password), a bot or a guest (with tokens only)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    #: ``name`` in lower case: names are unique regardless of case.
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    #: A guest plays practice games only, signed in by its token alone.
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class Token(Base):
    """A session: the SHA-256 of a bearer token (the token itself is never stored)."""

    __tablename__ = "tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger)


class Game(Base):
    """One game on the server: what it is, its secret seed, and where it stands.

    ``board`` (the layout in its topology's text format) is stored at the first open,
    when the mines are laid; before that the game is its ``seed`` and ``settings``.
    The result columns are written by the move that ends the game, in its transaction.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    #: ``ranked``, ``daily``, ``weekly`` or ``practice``.
    mode: Mapped[str] = mapped_column(String(16))
    #: The category's name (``expert``, ``expert/classic``: `Variant`'s text); practice games
    #: are ``practice`` and their variant.
    category: Mapped[str] = mapped_column(String(200))
    #: The period of a shared board (UTC): a daily board's day (``YYYY-MM-DD``), a weekly
    #: board's ISO week (``YYYY-Www``); None otherwise.
    day: Mapped[str | None] = mapped_column(String(10), nullable=True)
    is_bot: Mapped[bool] = mapped_column(Boolean)
    #: The `Settings` fields, as JSON text.
    settings: Mapped[str] = mapped_column(Text)
    #: Decimal digits of the secret seed (128 bits do not fit a BIGINT).
    seed: Mapped[str] = mapped_column(String(64))
    board: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: Help the player had, as JSON ``[[kind, action index], ...]``.
    assists: Mapped[str] = mapped_column(Text, default="[]")
    created_ms: Mapped[int] = mapped_column(BigInteger)
    started_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    ended_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: ``playing``, ``won`` or ``lost``.
    state: Mapped[str] = mapped_column(String(8), default="playing")
    #: Moves stored so far; each move raises it by one, guarded by its old value.
    moves: Mapped[int] = mapped_column(Integer, default=0)
    #: The result: milliseconds from the first click to the last, points, 3BV, clicks.
    ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bbbv: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bbbv_per_second: Mapped[float | None] = mapped_column(Float, nullable=True)
    clicks: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (
        Index("ix_games_account_state", "account_id", "state"),
        Index("ix_games_ladder", "mode", "category", "is_bot", "state"),
        Index("uq_games_daily", "account_id", "mode", "category", "day", unique=True),
    )


class Move(Base):
    """One click of a game, numbered from 1, with its time since the first open."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    cell: Mapped[int] = mapped_column(Integer)
    #: Milliseconds since the game's first open (0 before it).
    ms: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_moves_game_number"),)


class Attempt(Base):
    """One rate-limited event (a sign-in, a failed sign-in, a sign-up) in a bucket."""

    __tablename__ = "attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    bucket: Mapped[str] = mapped_column(String(120))
    at_ms: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_attempts_bucket_at", "bucket", "at_ms"),)


class Secret(Base):
    """Server secrets shared by every process of a ladder (the daily boards' key)."""

    __tablename__ = "secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class Lock(Base):
    """A name to serialise on: a transaction that upserts a lock's row holds it until it ends
    (`minesweeper.ladder.locks`), so a count and the insert it allows are one step."""

    __tablename__ = "locks"

    name: Mapped[str] = mapped_column(String(120), primary_key=True)
    at_ms: Mapped[int] = mapped_column(BigInteger)
