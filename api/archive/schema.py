"""The archive's tables (SQLAlchemy Core); :mod:`api.archive.migrations` creates them.

``finished_games``: one row per finished game (``match_over`` or ``aborted``), written once,
and again only with more events (chat messages logged after the game).
``body`` is the game as Redis held it (:func:`api.archive.store.pack`: version, stored state,
meta, event log), bzip2-compressed JSON, so any read of the game answers as before; the other
columns say what it was (variant, seats with their players, status, result, when it ended)
for queries that need not unpack it.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import JSON, BigInteger, Column, Integer, LargeBinary, MetaData, String, Table

#: Constraint names fixed, so every database names them alike and a migration can name them.
metadata: Final = MetaData(naming_convention={"pk": "pk_%(table_name)s"})

finished_games: Final = Table(
    "finished_games", metadata,
    Column("game_id", String(80), primary_key=True),
    Column("variant", String(32), nullable=False),
    Column("seats", JSON, nullable=False),  # [{seat, kind, name, level, player_id}]
    Column("status", String(16), nullable=False),  # match_over, aborted
    Column("result", JSON, nullable=True),  # the record's result (null: aborted early)
    Column("finished_at", BigInteger, nullable=False),  # Unix seconds of the archive's write
    Column("version", Integer, nullable=False),  # the game's last version
    Column("event_count", Integer, nullable=False),  # events logged, chat messages included
    Column("body", LargeBinary, nullable=False),  # bzip2 of the stored game's JSON
)
