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

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
)

#: Constraint names fixed, so every database names them alike and a migration can name them.
metadata: Final = MetaData(naming_convention={"pk": "pk_%(table_name)s",
                                              "uq": "uq_%(table_name)s_%(column_0_name)s"})

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
    # The fields its players' history items share (api.archive.shared.SHARED), kept once
    # here rather than in each ``player_results`` row (0004); null: none archived with it.
    Column("shared", JSON, nullable=True),
)


# --------------------------------------------------- standings (api.archive.durable, 0002)
# Ratings, the leaderboard, tour stamps and table results: the database is their source of
# truth, Redis their cache (api.outbox notes each change; the workers' sweep writes it here).

#: A rating per variant and entity (kind ``human``, ``bot`` or ``computer``); ``matches`` only
#: grows, so a write keeps the row with more matches (a repeat or a late entry changes nothing).
ratings: Final = Table(
    "ratings", metadata,
    Column("variant", String(32), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("id", String(80), primary_key=True),
    Column("mu", Float(precision=53), nullable=False),
    Column("sigma", Float(precision=53), nullable=False),
    Column("matches", Integer, nullable=False),
)

#: The matches already rated, once each: ``source`` a game id or an arena run, ``match``
#: ``match:<n>``; ``rated_at`` Unix seconds.
rated_matches: Final = Table(
    "rated_matches", metadata,
    Column("source", String(120), primary_key=True),
    Column("match", String(32), primary_key=True),
    Column("rated_at", BigInteger, nullable=False),
)

#: Points per board: ``period`` ``all`` or a month ``YYYY-MM``, ``variant`` one or ``all``.
leaderboard_points: Final = Table(
    "leaderboard_points", metadata,
    Column("kind", String(16), primary_key=True),
    Column("period", String(8), primary_key=True),
    Column("variant", String(32), primary_key=True),
    Column("player_id", String(80), primary_key=True),
    Column("points", Integer, nullable=False),
)

#: Hands won in rated games per player and variant.
leaderboard_hands: Final = Table(
    "leaderboard_hands", metadata,
    Column("player_id", String(80), primary_key=True),
    Column("variant", String(32), primary_key=True),
    Column("hands_won", Integer, nullable=False),
)

#: The awards already counted (``marker`` ``hand:<n>`` or ``match:<n>`` of a game), once each:
#: an award's points are added in the transaction that inserts its row.
leaderboard_awards: Final = Table(
    "leaderboard_awards", metadata,
    Column("game_id", String(80), primary_key=True),
    Column("marker", String(32), primary_key=True),
    Column("counted_at", BigInteger, nullable=False),
)

#: A tour station a player's side won, first time (Unix seconds).
tour_stamps: Final = Table(
    "tour_stamps", metadata,
    Column("player_id", String(80), primary_key=True),
    Column("station", String(32), primary_key=True),
    Column("stamped_at", BigInteger, nullable=False),
)

#: A table's finished match: its game, how it ended (``points``, ``resigned``, ``aborted``),
#: when (Unix seconds) and the seats' player ids. ``doc``, on the row of the table's first
#: game only (``<table_id>.1``): the finished table as Redis last held it, once Redis let it
#: go (:mod:`api.archive.tables`, 0004).
table_results: Final = Table(
    "table_results", metadata,
    Column("game_id", String(80), primary_key=True),
    Column("table_id", String(40), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("result", String(16), nullable=True),
    Column("finished_at", BigInteger, nullable=False),
    Column("players", JSON, nullable=False),
    Column("doc", JSON, nullable=True),
)

# --- players and their finished matches (api.players.records) -----------------------------

#: ``players``: one row per player, written once at creation (:mod:`api.players.records`);
#: ``name_key`` and ``skeleton_key`` are the SHA-256 digests of the case-folded name and of
#: its look-alike skeleton (:func:`api.keys.name_digest`, :func:`api.keys.skeleton_digest`),
#: unique, so one name and its look-alikes are one player's; ``skeleton_key`` is null for a
#: player stored before the skeleton index whose look-alike was indexed first.
players: Final = Table(
    "players", metadata,
    Column("player_id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("kind", String(8), nullable=False),  # human, bot
    Column("created_at", BigInteger, nullable=False),  # Unix seconds
    Column("token_sha256", String(64), nullable=False, unique=True),
    Column("name_key", String(64), nullable=False, unique=True),
    Column("skeleton_key", String(64), nullable=True, unique=True),
)

#: ``player_results``: a player's finished match, written in the transaction that archives
#: the game (:meth:`api.archive.store.Archive.put`), once (the key is the pair). ``finished_at``
#: in Unix milliseconds (the history's order and cursor); ``counted``: in the matches played
#: (not an aborted match); ``started_at``: a table's match's start in Unix milliseconds (the
#: order and cursor of the player's finished games at tables, "my games"; null for another
#: game); ``entry``: the rest of the history's item (JSON; its seats, when the game is in
#: ``finished_games``, are that row's with each seat's player kind, ``kinds``).
player_results: Final = Table(
    "player_results", metadata,
    Column("player_id", String(16), primary_key=True),
    Column("game_id", String(80), primary_key=True),
    Column("finished_at", BigInteger, nullable=False),
    Column("variant", String(32), nullable=False),
    Column("result", String(8), nullable=False),  # won, lost, aborted
    Column("counted", Boolean, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("started_at", BigInteger, nullable=True),
    Column("entry", JSON, nullable=False),
    Index("ix_player_results_player_id_finished_at", "player_id", "finished_at"),
    Index("ix_player_results_player_id_started_at", "player_id", "started_at"),
)

# --- deleted players (api.archive.forgotten) -----------------------------------------------

#: ``forgotten_players``: a deleted player, by the SHA-256 of his id only (never the id), so
#: an outbox's entry naming him that is drained after his deletion writes nothing of him
#: (:func:`api.archive.forgotten.living`); ``forgotten_at`` Unix seconds.
forgotten_players: Final = Table(
    "forgotten_players", metadata,
    Column("id_sha256", String(64), primary_key=True),
    Column("forgotten_at", BigInteger, nullable=False),
)
