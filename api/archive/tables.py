"""Finished tables in the database once Redis lets them go.

A table's hash would outlive its finished match by ``SIXTYSIX_GAME_TTL``; with a database the
archive's drain (:meth:`api.archive.sweep.Archiver.archive_one`) keeps a finished table's doc
in ``table_results.doc`` of its first game's row (``<table_id>.1``: one row a table,
found by its key) when it archives the table's last game, and then gives the hash the game's
grace, if the table did not change meanwhile (:meth:`FinishedTables.let_go`). A read of a table
Redis let go answers from that doc (:meth:`TableArchive.load`, behind
:meth:`api.tables.store.TableStore.load`): the same table, version and all. A change of a
finished table (a rematch asked) writes it to Redis again (:attr:`api.tables.store.Table.restored`)
and notes its game again, so the doc in the database follows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Engine, Select, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from api.archive.errors import ArchiveUnavailable
from api.archive.schema import finished_games, table_results
from api.games.store import Game
from api.keys import table_key
from api.tables.store import Table, TableDoc, TableStore

#: A finished table's status (:data:`api.tables.service.FINISHED`).
FINISHED: Final = "finished"
#: Fields of a finished table's doc not kept in ``doc``: its row, its status or its last game
#: say them (``games``: ``<table_id>.1`` to its last game).
DERIVED: Final = ("table_id", "variant", "status", "expires_at", "games")
#: Values of a doc's fields that ``doc`` leaves out (read back as these). Never change one:
#: the docs kept are read back with them.
USUAL: Final = '{"invite_code":null,"rules":{},"visibility":"public","rematch":[],' \
    '"rated":true,"result":null,"settings":{"point_counter":false,"hint_66":false,' \
    '"auto_continue":false,"think_time_s":null,"on_timeout":"computer",' \
    '"timeout_level":"normal"}}'

# KEYS: the table; ARGV: its version kept in the database, grace. If the table is still at
# that version: its time to live at most the grace (1), else 0.
_LET_GO: Final = """
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
local left = redis.call('TTL', KEYS[1])
if left < 0 or left > tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1
"""


def first_game(table_id: str) -> str:
    """The id of a table's first game, whose ``table_results`` row holds its doc."""
    return f"{table_id}.1"


def _unreachable(exc: SQLAlchemyError) -> ArchiveUnavailable:
    return ArchiveUnavailable(f"the archive cannot be reached ({type(exc).__name__})",
                              retry_after=5)


@dataclass(frozen=True, slots=True)
class TableArchive:
    """Finished tables' docs in the database behind ``engine``."""

    engine: Engine

    def keep(self, table: Table) -> bool:
        """Keep a finished table's doc (unless one as new is there); False if the row of its
        first game is not written yet (its result still in the outbox) and this is not it.
        :class:`ArchiveUnavailable` if the database cannot be reached."""
        doc = table.doc.to_dict()
        key = first_game(table.table_id)
        try:
            with self.engine.begin() as conn:
                found = conn.execute(_rows(key)).first()
                if found is None:
                    if doc["game_id"] != key:
                        return False
                    row = {"players": [s.get("player_id") for s in doc["seats"]],
                           "result": doc["result"], "finished_at": doc.get("finished_at") or 0}
                    game = conn.execute(select(finished_games.c.seats, finished_games.c.shared)
                                        .where(finished_games.c.game_id == key)).first()
                    conn.execute(insert(table_results).values(
                        game_id=key, table_id=table.table_id, variant=doc["variant"], **row,
                        doc=_compact(doc, key, row | (game._asdict() if game else {}))
                        | {"v": table.version}))
                elif found.doc is None or found.doc["v"] < table.version:
                    kept = _compact(doc, key, found._asdict()) | {"v": table.version}
                    conn.execute(update(table_results).where(
                        table_results.c.game_id == key).values(doc=kept))
                return True
        except SQLAlchemyError as exc:
            raise _unreachable(exc) from exc

    def load(self, table_id: str) -> Table | None:
        """The finished table kept for ``table_id``, or ``None``."""
        key = first_game(table_id)
        try:
            with self.engine.connect() as conn:
                found = conn.execute(_rows(key).where(table_results.c.doc.is_not(None))).first()
        except SQLAlchemyError as exc:
            raise _unreachable(exc) from exc
        if found is None or found.doc is None:
            return None
        kept: dict[str, Any] = dict(found.doc)
        version = kept.pop("v")
        if "game_id" not in kept:  # its first game: the row's
            kept.update(game_id=key, result=found.result, finished_at=found.finished_at)
        last = int(kept["game_id"].rpartition(".")[2])
        doc = {"table_id": table_id, "variant": found.variant, "status": FINISHED,
               "expires_at": None, "games": [f"{table_id}.{n}" for n in range(1, last + 1)],
               "created_at": kept["created_ms"] // 1000, **json.loads(USUAL), **kept}
        if "seats" not in kept:  # its first game's
            doc["seats"] = _seats(found._asdict())
        doc["seats"] = [{**s, "player_id": p} if s["kind"] == "player" and "player_id" not in s
                        else s for s, p in zip(doc["seats"], found.players, strict=True)]
        doc.setdefault("creator", _first_player(doc["seats"]))
        return Table(table_id, version, TableDoc.from_dict(doc), restored=True)


def _rows(key: str) -> Select[Any]:
    """The ``table_results`` row of a table's first game ``key`` with that game's seats and
    shared fields (``finished_games``), what a kept doc may leave to them."""
    return select(table_results.c.variant, table_results.c.players, table_results.c.result,
                  table_results.c.finished_at, table_results.c.doc, finished_games.c.seats,
                  finished_games.c.shared).outerjoin(
        finished_games, finished_games.c.game_id == table_results.c.game_id).where(
        table_results.c.game_id == key)


def _seats(row: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """A table's seats as its first game's row says them (its seats, their players' kinds),
    or ``None`` without that row."""
    seats, shared = row.get("seats"), row.get("shared")
    if seats is None or shared is None or "kinds" not in shared:
        return None
    return [{"kind": "player", "player_id": s["player_id"], "name": s["name"],
             "bot": kind == "bot"} if s["kind"] == "human"
            else {"kind": s["kind"], "level": s["level"]}
            for s, kind in zip(seats, shared["kinds"], strict=True)]


def _first_player(seats: list[dict[str, Any]]) -> str | None:
    return next((s.get("player_id") for s in seats if s["kind"] == "player"), None)


def _compact(doc: dict[str, Any], key: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """What ``doc`` keeps of a finished table's doc (``key``: its first game, whose ``row``
    has ``players``, ``result``, ``finished_at`` and the game's ``seats`` and ``shared``): not
    the :data:`DERIVED` fields, nor those with their :data:`USUAL` value, nor ``created_at``
    when it is ``created_ms``'s second, nor the ``creator`` when he is the first player seated,
    nor the seats when the first game's say them (:func:`_seats`), else nor their player ids
    when they are the row's ``players``, nor the last game, its result and end when they are
    the row's."""
    usual = json.loads(USUAL)
    kept = {k: v for k, v in doc.items()
            if k not in DERIVED and not (k in usual and usual[k] == v)}
    if kept["created_at"] == kept["created_ms"] // 1000:
        del kept["created_at"]
    if kept["creator"] == _first_player(doc["seats"]):
        del kept["creator"]
    if _seats(row) == doc["seats"]:
        del kept["seats"]
    elif row["players"] == [s.get("player_id") for s in doc["seats"]]:
        kept["seats"] = [{k: v for k, v in s.items() if k != "player_id"} for s in doc["seats"]]
    if (doc["game_id"], doc["result"], doc.get("finished_at")) == (
            key, row["result"], row["finished_at"]):
        for field in ("game_id", "result", "finished_at"):
            kept.pop(field, None)
    return kept


@dataclass(frozen=True, slots=True)
class FinishedTables:
    """Lets a finished table of ``tables`` go after ``grace`` seconds, kept in ``archive``."""

    tables: TableStore
    archive: TableArchive
    grace: int

    def let_go(self, game: Game) -> bool:
        """If ``game`` (archived) is the last of a finished table Redis holds: keep the table
        in the database, then give its hash the grace unless it changed meanwhile; whether it
        did. :class:`ArchiveUnavailable` if the database cannot be reached."""
        info = game.meta.get("table")
        if info is None:
            return False
        table = self.tables.live(info["table_id"])
        if table is None or table.doc.status != FINISHED or table.doc.game_id != game.game_id:
            return False
        if not self.archive.keep(table):
            return False
        return bool(self.tables.redis.eval(_LET_GO, 1, table_key(table.table_id),
                                           table.version, self.grace))
