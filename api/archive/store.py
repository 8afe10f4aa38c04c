"""Finished games in a SQL database, read back as the game Redis held.

:meth:`Archive.put` inserts a finished game unless its id is there already (a repeat is
harmless: the first write stands, unless the game has logged chat messages since), and in
the same transaction its players' results (``player_results``, each once: a match is listed
once in a history);
:meth:`Archive.load` answers it as a :class:`~api.games.store.Game` with its whole event
log, so the store's readers (:class:`~api.games.store.GameStore` with an archive) answer
views, records and events of a game Redis let go exactly as before. A database that cannot
be reached raises :class:`ArchiveUnavailable` (a 503): the game is neither lost nor found.

The database is ``DATABASE_URL`` (SQLAlchemy's URL: ``sqlite:///<path>``,
``postgresql+psycopg://...``); :meth:`Archive.open` migrates it to the head first, or, when it
cannot be reached then, on the first use that can (:meth:`Archive.ready`): a process starts
with its database down.
"""

from __future__ import annotations

import bz2
import logging
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sqlalchemy import Connection, Engine, insert, select, text, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from api.archive.engine import open_engine
from api.archive.errors import ArchiveUnavailable
from api.archive.migrations import upgrade
from api.archive.schema import finished_games, player_results
from api.archive.shared import shared_of, split_shared
from api.fastjson import dumps, loads
from api.games.service import public_seats
from api.games.store import Game, Logged
from api.live.chat import is_chat
from api.standings import seat_players
from engine.hosted import build_record, from_stored, is_over, status_of, to_stored

log = logging.getLogger(__name__)

#: bzip2's level for a body: the smallest. bzip2, not zlib: a match's log (its events repeat
#: few shapes) comes out about a quarter smaller (a 440-event match: 3.7 KB, zlib 4.9 KB).
LEVEL: Final = 9
#: Format of a body's JSON, kept in it as ``f``.
BODY_FORMAT: Final = 1


__all__ = ["Archive", "ArchiveUnavailable", "pack", "row", "unpack"]


def unreachable(exc: Exception) -> ArchiveUnavailable:
    """The 503 of a database that cannot be reached (``exc``: SQLAlchemy's error)."""
    return ArchiveUnavailable(f"the archive cannot be reached ({type(exc).__name__})",
                              retry_after=5)


def pack(game: Game, log: list[Logged]) -> bytes:
    """The body of a finished game: its version, stored state, meta, event count, which events
    its last save logged (``recent``: first index, count) and its log, as bzip2'd JSON."""
    first = game.recent[0].seq - 1 if game.recent else 0
    body = {"f": BODY_FORMAT, "v": game.version, "state": to_stored(game.state),
            "meta": game.meta, "n": game.event_count, "recent": [first, len(game.recent)],
            "log": [{"seq": e.seq, **e.event.to_dict()} for e in log]}
    return bz2.compress(dumps(body), LEVEL)


def unpack(game_id: str, body: bytes) -> Game:
    """The game of a body (:func:`pack`), with its event log in ``log``."""
    data = loads(bz2.decompress(body))
    log = [Logged.from_dict(e) for e in data["log"]]
    first, count = data["recent"]
    return Game(game_id, data["v"], from_stored(data["state"]), data["meta"], data["n"],
                log[first:first + count], None, log)


def row(game: Game, log: list[Logged]) -> dict[str, Any]:
    """The ``finished_games`` row of a finished game and its whole event log."""
    players = seat_players(game.meta) or [None] * len(game.meta["seats"])
    record = build_record(game.state, [e.event for e in log if not is_chat(e)], reveal=True,
                          seat=None)
    return {"game_id": game.game_id, "variant": record["variant"],
            "seats": [{**s, "player_id": p}
                      for s, p in zip(public_seats(game.meta), players, strict=True)],
            "status": status_of(game.state), "result": record.get("result"),
            "finished_at": int(time.time()), "version": game.version,
            "event_count": game.event_count, "body": pack(game, log)}


class Archive:
    """The finished games of the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._migrated = False
        self._migrating = threading.Lock()

    @classmethod
    def open(cls, url: str, timeout: float = 5.0) -> Archive:
        """The archive at ``url``, migrated to the head (:func:`api.archive.migrations.upgrade`)
        now if it can be reached, else by its first use that can (:meth:`ready`); ``timeout``:
        seconds a PostgreSQL connect waits."""
        archive = cls(open_engine(url, timeout))
        try:
            archive.ready()
        except ArchiveUnavailable as exc:
            log.warning("archive not migrated at start, on its first use instead: %s", exc)
        return archive

    def ready(self) -> None:
        """Migrate the database to the head unless this process did;
        :class:`ArchiveUnavailable` if it cannot be reached."""
        with self._migrating:
            if not self._migrated:
                try:
                    upgrade(self.engine)
                except SQLAlchemyError as exc:
                    raise unreachable(exc) from exc
                self._migrated = True

    def ping(self) -> None:
        """Reach the database (migrated); :class:`ArchiveUnavailable` if it cannot be."""
        self.ready()
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except SQLAlchemyError as exc:
            raise unreachable(exc) from exc

    def put(self, game: Game, log: list[Logged],
            results: Sequence[Mapping[str, Any]] = ()) -> bool:
        """Insert a finished game and its whole event log unless its id is there, or replace
        one kept with fewer events (chat messages logged after the game), and, in the same
        transaction, those of its players' ``results`` (``player_results`` rows) not there
        yet; whether this call wrote the game. :class:`ArchiveUnavailable` if the database
        cannot be reached."""
        if not is_over(game.state):
            raise ValueError(f"game {game.game_id!r} is not over: only finished games are kept")
        self.ready()
        values = row(game, log)
        try:
            with self.engine.begin() as conn:
                found = conn.execute(select(finished_games.c.event_count,
                                            finished_games.c.shared).where(
                    finished_games.c.game_id == game.game_id)).first()
                shared = shared_of(results) if found is None else found.shared
                insert_results(conn, split_shared(results, {game.game_id: shared}))
                kept = None if found is None else found.event_count
                if kept is None:
                    conn.execute(insert(finished_games).values(**values, shared=shared))
                    return True
                written = conn.execute(update(finished_games).where(
                    finished_games.c.game_id == game.game_id,
                    finished_games.c.event_count < game.event_count).values(
                    body=values["body"], event_count=game.event_count))
                return bool(written.rowcount)
        except IntegrityError:  # another process inserted it meanwhile: the first one stands
            return False
        except SQLAlchemyError as exc:
            raise unreachable(exc) from exc

    def put_results(self, results: Sequence[Mapping[str, Any]]) -> int:
        """Insert those ``player_results`` rows not there yet (histories alone: of a game
        archived before, or one Redis let go); how many. :class:`ArchiveUnavailable`."""
        try:
            with self.engine.begin() as conn:
                shared = {game_id: kept for game_id, kept in conn.execute(select(
                    finished_games.c.game_id, finished_games.c.shared).where(
                    finished_games.c.game_id.in_({r["game_id"] for r in results})))}
                return insert_results(conn, split_shared(results, shared))
        except IntegrityError:  # another process inserted them meanwhile
            return 0
        except SQLAlchemyError as exc:
            raise unreachable(exc) from exc

    def load(self, game_id: str) -> Game | None:
        """The archived game with its event log in ``log``, or ``None`` if it is not there;
        :class:`ArchiveUnavailable` if the database cannot be reached."""
        self.ready()
        try:
            with self.engine.connect() as conn:
                body = conn.execute(select(finished_games.c.body).where(
                    finished_games.c.game_id == game_id)).scalar_one_or_none()
        except SQLAlchemyError as exc:
            raise unreachable(exc) from exc
        return None if body is None else unpack(game_id, body)

    def close(self) -> None:
        self.engine.dispose()


def insert_results(conn: Connection, results: Sequence[Mapping[str, Any]]) -> int:
    """Insert those ``player_results`` rows whose player has none for their game yet; how
    many."""
    if not results:
        return 0
    pairs = player_results.c.player_id, player_results.c.game_id
    there = {(p, g) for p, g in conn.execute(select(*pairs).where(
        pairs[0].in_({r["player_id"] for r in results}),
        pairs[1].in_({r["game_id"] for r in results})))}
    rows = {(r["player_id"], r["game_id"]): dict(r) for r in results}
    fresh = [r for key, r in rows.items() if key not in there]
    if fresh:
        conn.execute(insert(player_results), fresh)
    return len(fresh)
