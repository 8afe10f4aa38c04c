"""A deleted player's standings in the database: removed, and kept out for good.

:func:`forget` (in the transaction that deletes a player, :mod:`api.accounts.service`) deletes
his ratings, board points, hands won and tour stamps, takes his id out of the finished
tables' results (``null`` in its place), and notes him in ``forgotten_players`` by the
SHA-256 of his id only. Every write of :mod:`api.archive.durable` (an outbox's drain, a copy
of Redis) passes its rows through :func:`living` first, so an entry naming him that was
noted before his deletion and drained after it writes nothing of him, and a rebuild or a
cache load (both from the database) cannot bring him back. On PostgreSQL a write takes a
shared transaction-level advisory lock (:data:`LOCK`) before it asks who is forgotten, and
:func:`forget` takes it exclusively first: a drain that asked before the deletion commits
before the deletion's rows go (and the deletion removes what it wrote), one that asks after
sees him forgotten. (SQLite has one writer at a time.) :func:`stored` is what the database
holds of a player (his export).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Sequence
from typing import Any, Final

from sqlalchemy import Connection, String, Table, cast, delete, func, insert, select, update

from api.archive.schema import (
    forgotten_players,
    leaderboard_hands,
    leaderboard_points,
    ratings,
    table_results,
    tour_stamps,
)

Row = dict[str, Any]

#: The tables naming a player in one column, and that column.
OWNED: Final[tuple[tuple[Table, str], ...]] = (
    (ratings, "id"), (leaderboard_points, "player_id"), (leaderboard_hands, "player_id"),
    (tour_stamps, "player_id"))
#: The kinds of rating that are a player's (a ``computer``'s id is its level).
PLAYER_KINDS: Final = ("human", "bot")
#: Most ids one ``IN`` asks about (below every SQLite's variable limit).
CHUNK: Final = 500
#: The PostgreSQL advisory lock between deletions (exclusive) and writes of standings (shared).
LOCK: Final = 0x5166_6F72_6765_74  # "Qforget"


def _lock(conn: Connection, shared: bool) -> None:
    """Take :data:`LOCK` until the transaction ends (PostgreSQL; nothing on SQLite)."""
    if conn.dialect.name == "postgresql":
        take = func.pg_advisory_xact_lock_shared if shared else func.pg_advisory_xact_lock
        conn.execute(select(take(LOCK)))


def id_digest(player_id: str) -> str:
    """The SHA-256 (hex) of a player's id, as ``forgotten_players`` keeps it."""
    return hashlib.sha256(player_id.encode()).hexdigest()


def forgotten(conn: Connection, player_ids: Iterable[str | None]) -> set[str]:
    """Those of ``player_ids`` whose player was deleted."""
    digests = {id_digest(p): p for p in player_ids if p}
    keys = sorted(digests)
    gone: set[str] = set()
    for start in range(0, len(keys), CHUNK):
        gone |= {digests[d] for d in conn.execute(select(forgotten_players.c.id_sha256).where(
            forgotten_players.c.id_sha256.in_(keys[start:start + CHUNK]))).scalars()}
    return gone


def living(conn: Connection, table: Table, rows: Sequence[Row]) -> list[Row]:
    """``rows`` for ``table`` without a deleted player's: his rows of :data:`OWNED` dropped,
    his id in a table result's ``players`` made ``None``; other tables' rows as they are.
    Takes :data:`LOCK` shared when it asks."""
    column = dict((t.name, c) for t, c in OWNED).get(table.name)
    if not rows or (column is None and table is not table_results):
        return list(rows)
    _lock(conn, shared=True)
    if column is None:  # table_results
        gone = forgotten(conn, (p for r in rows for p in r["players"]))
        return [{**r, "players": [None if p in gone else p for p in r["players"]]}
                if gone.intersection(r["players"]) else r for r in rows]
    gone = forgotten(conn, (r[column] for r in rows))
    return [r for r in rows if r[column] not in gone]


def forget(conn: Connection, player_id: str) -> None:
    """Delete ``player_id``'s standings, anonymise his tables' results and note him as
    deleted (a repeat is harmless); call it first in its transaction (it takes :data:`LOCK`)."""
    _lock(conn, shared=False)
    if not forgotten(conn, [player_id]):
        conn.execute(insert(forgotten_players).values(id_sha256=id_digest(player_id),
                                                      forgotten_at=int(time.time())))
    conn.execute(delete(ratings).where(ratings.c.id == player_id,
                                       ratings.c.kind.in_(PLAYER_KINDS)))
    for table, column in OWNED[1:]:
        conn.execute(delete(table).where(table.c[column] == player_id))
    for row in _his_tables(conn, player_id):
        conn.execute(update(table_results).where(table_results.c.game_id == row.game_id)
                     .values(players=[None if p == player_id else p for p in row.players]))


def _his_tables(conn: Connection, player_id: str) -> list[Any]:
    """The table results that name ``player_id`` among their players."""
    rows = conn.execute(select(table_results.c.game_id, table_results.c.players).where(
        cast(table_results.c.players, String).contains(f'"{player_id}"'))).all()
    return [r for r in rows if player_id in r.players]


def stored(conn: Connection, player_id: str) -> dict[str, list[Row]]:
    """What the database holds of ``player_id``'s standings: ratings per variant, board
    points, hands won, tour stamps (Unix seconds) and the results of the tables he sat at."""
    def rows(table: Table, where: Any, *skip: str) -> list[Row]:
        return [{k: v for k, v in r._mapping.items() if k not in skip}
                for r in conn.execute(select(table).where(where).order_by(
                    *table.primary_key.columns)).all()]

    return {
        "ratings": rows(ratings, (ratings.c.id == player_id)
                        & ratings.c.kind.in_(PLAYER_KINDS), "id"),
        "leaderboard_points": rows(leaderboard_points,
                                   leaderboard_points.c.player_id == player_id, "player_id"),
        "leaderboard_hands": rows(leaderboard_hands,
                                  leaderboard_hands.c.player_id == player_id, "player_id"),
        "tour_stamps": rows(tour_stamps, tour_stamps.c.player_id == player_id, "player_id"),
        "table_results": [
            {k: v for k, v in r._mapping.items() if k != "players"} for r in conn.execute(
                select(table_results).where(table_results.c.game_id.in_(
                    [t.game_id for t in _his_tables(conn, player_id)]))
                .order_by(table_results.c.game_id)).all()],
    }
