"""forgotten_players: deleted players, by the SHA-256 of their ids

Revision ID: 0004_forgotten
Revises: 0003_standings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_forgotten"
down_revision = "0003_standings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "forgotten_players",
        sa.Column("id_sha256", sa.String(64), nullable=False),
        sa.Column("forgotten_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id_sha256", name="pk_forgotten_players"),
    )


def downgrade() -> None:
    op.drop_table("forgotten_players")
