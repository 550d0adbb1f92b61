"""Locks: rows a transaction upserts to hold a name until it ends, so that a limit's count
and the insert it allows cannot interleave with another request's (SQLite and PostgreSQL).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "locks",
        sa.Column("name", sa.String(120), primary_key=True),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("locks")
