"""The first schema: accounts, tokens, games, moves, rate-limit attempts, secrets.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("is_bot", sa.Boolean, nullable=False),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("category", sa.String(200), nullable=False),
        sa.Column("day", sa.String(10), nullable=True),
        sa.Column("is_bot", sa.Boolean, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("board", sa.Text, nullable=True),
        sa.Column("assists", sa.Text, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("started_ms", sa.BigInteger, nullable=True),
        sa.Column("ended_ms", sa.BigInteger, nullable=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("ms", sa.BigInteger, nullable=True),
        sa.Column("points", sa.Integer, nullable=True),
        sa.Column("bbbv", sa.Integer, nullable=True),
        sa.Column("bbbv_per_second", sa.Float, nullable=True),
        sa.Column("clicks", sa.Integer, nullable=True),
    )
    op.create_index("ix_games_account_state", "games", ["account_id", "state"])
    op.create_index("ix_games_ladder", "games", ["mode", "category", "is_bot", "state"])
    op.create_table(
        "moves",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("cell", sa.Integer, nullable=False),
        sa.Column("ms", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("game_id", "number", name="uq_moves_game_number"),
    )
    op.create_table(
        "attempts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("bucket", sa.String(120), nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_attempts_bucket_at", "attempts", ["bucket", "at_ms"])
    op.create_table(
        "secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    for table in ("secrets", "attempts", "moves", "games", "tokens", "accounts"):
        op.drop_table(table)
