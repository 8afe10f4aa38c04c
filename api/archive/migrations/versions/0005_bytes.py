"""bytes: a history item's shared fields once per game, a finished table's doc

``finished_games.shared``: the fields every player's history item of the game shares
(:data:`api.archive.shared.SHARED`), moved out of the game's ``player_results`` entries (the
rows written with their archived game: those with ``kinds``) into its row.
``table_results.doc``: a finished table Redis let go (:mod:`api.archive.tables`).

Revision ID: 0005_bytes
Revises: 0004_forgotten
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005_bytes"
down_revision = "0004_forgotten"
branch_labels = None
depends_on = None

#: The shared fields as this revision knows them (the code's list may grow later).
SHARED = ("reason", "points", "matches_won", "rated", "private", "table_id", "tour_station",
          "kinds")
#: Games moved per round.
BATCH = 500

_games = sa.table("finished_games", sa.column("game_id", sa.String),
                  sa.column("shared", sa.JSON))
_results = sa.table("player_results", sa.column("player_id", sa.String),
                    sa.column("game_id", sa.String), sa.column("entry", sa.JSON))


def upgrade() -> None:
    op.add_column("finished_games", sa.Column("shared", sa.JSON(), nullable=True))
    op.add_column("table_results", sa.Column("doc", sa.JSON(), nullable=True))
    conn = op.get_bind()
    after = ""
    while True:
        games = list(conn.execute(sa.select(_games.c.game_id).where(
            _games.c.game_id > after, _games.c.shared.is_(None))
            .order_by(_games.c.game_id).limit(BATCH)).scalars())
        if not games:
            return
        _move(conn, games)
        after = games[-1]


def _move(conn: sa.Connection, games: list[str]) -> None:
    """Move the shared fields of ``games``' archived entries into their rows."""
    rows: dict[str, list[Any]] = defaultdict(list)
    for row in conn.execute(sa.select(_results).where(_results.c.game_id.in_(games))):
        if "kinds" in row.entry:
            rows[row.game_id].append(row)
    for game_id, found in rows.items():
        shared = {k: found[0].entry[k] for k in SHARED if k in found[0].entry}
        conn.execute(sa.update(_games).where(_games.c.game_id == game_id).values(shared=shared))
        for row in found:
            if all(k in row.entry and row.entry[k] == v for k, v in shared.items()):
                conn.execute(sa.update(_results).where(
                    _results.c.player_id == row.player_id, _results.c.game_id == game_id)
                    .values(entry={k: v for k, v in row.entry.items() if k not in shared}))


def downgrade() -> None:
    conn = op.get_bind()
    for game_id, shared in list(conn.execute(sa.select(_games.c.game_id, _games.c.shared)
                                             .where(_games.c.shared.is_not(None)))):
        for row in list(conn.execute(sa.select(_results).where(_results.c.game_id == game_id))):
            conn.execute(sa.update(_results).where(
                _results.c.player_id == row.player_id, _results.c.game_id == game_id)
                .values(entry={**shared, **row.entry}))
    with op.batch_alter_table("table_results") as batch:
        batch.drop_column("doc")
    with op.batch_alter_table("finished_games") as batch:
        batch.drop_column("shared")
