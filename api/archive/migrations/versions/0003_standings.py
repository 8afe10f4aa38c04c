"""standings: ratings, rated matches, the leaderboard, tour stamps, table results

Revision ID: 0003_standings
Revises: 0002_players
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_standings"
down_revision = "0002_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("id", sa.String(80), nullable=False),
        sa.Column("mu", sa.Float(precision=53), nullable=False),
        sa.Column("sigma", sa.Float(precision=53), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("variant", "kind", "id", name="pk_ratings"),
    )
    op.create_table(
        "rated_matches",
        sa.Column("source", sa.String(120), nullable=False),
        sa.Column("match", sa.String(32), nullable=False),
        sa.Column("rated_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("source", "match", name="pk_rated_matches"),
    )
    op.create_table(
        "leaderboard_points",
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("period", sa.String(8), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(80), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("kind", "period", "variant", "player_id",
                                name="pk_leaderboard_points"),
    )
    op.create_table(
        "leaderboard_hands",
        sa.Column("player_id", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("hands_won", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "variant", name="pk_leaderboard_hands"),
    )
    op.create_table(
        "leaderboard_awards",
        sa.Column("game_id", sa.String(80), nullable=False),
        sa.Column("marker", sa.String(32), nullable=False),
        sa.Column("counted_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "marker", name="pk_leaderboard_awards"),
    )
    op.create_table(
        "tour_stamps",
        sa.Column("player_id", sa.String(80), nullable=False),
        sa.Column("station", sa.String(32), nullable=False),
        sa.Column("stamped_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "station", name="pk_tour_stamps"),
    )
    op.create_table(
        "table_results",
        sa.Column("game_id", sa.String(80), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("result", sa.String(16), nullable=True),
        sa.Column("finished_at", sa.BigInteger(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_table_results"),
    )


def downgrade() -> None:
    for name in ("table_results", "tour_stamps", "leaderboard_awards", "leaderboard_hands",
                 "leaderboard_points", "rated_matches", "ratings"):
        op.drop_table(name)
