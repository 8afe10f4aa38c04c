"""finished_games: one row per finished game

Revision ID: 0001
Revises:
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
        "finished_games",
        sa.Column("game_id", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("finished_at", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("event_count", sa.Integer(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_finished_games"),
    )
    if op.get_bind().dialect.name == "postgresql":
        # a body is compressed already and fits a page: kept in the row, not in TOAST
        # (whose chunks and index cost more than the body itself)
        op.execute("ALTER TABLE finished_games ALTER COLUMN body SET STORAGE MAIN")


def downgrade() -> None:
    op.drop_table("finished_games")
