"""A daily board is played once per player: a unique index, so two requests at once cannot
both start one (other games have no day, and NULLs never collide).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "uq_games_daily", "games", ["account_id", "mode", "category", "day"], unique=True
    )


def downgrade() -> None:
    op.drop_index("uq_games_daily", "games")
