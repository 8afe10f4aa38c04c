"""players and player_results: players with their token digests, their finished matches

Revision ID: 0002_players
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_players"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("skeleton_key", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("player_id", name="pk_players"),
        sa.UniqueConstraint("token_sha256", name="uq_players_token_sha256"),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
        sa.UniqueConstraint("skeleton_key", name="uq_players_skeleton_key"),
    )
    op.create_table(
        "player_results",
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(80), nullable=False),
        sa.Column("finished_at", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.BigInteger(), nullable=True),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game_id", name="pk_player_results"),
    )
    op.create_index("ix_player_results_player_id_finished_at", "player_results",
                    ["player_id", "finished_at"])
    op.create_index("ix_player_results_player_id_started_at", "player_results",
                    ["player_id", "started_at"])


def downgrade() -> None:
    op.drop_index("ix_player_results_player_id_started_at", table_name="player_results")
    op.drop_index("ix_player_results_player_id_finished_at", table_name="player_results")
    op.drop_table("player_results")
    op.drop_table("players")
