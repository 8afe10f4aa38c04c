"""Ratings, the leaderboard, tour stamps and table results in the database, their source of
truth; Redis keeps the structures that serve them as a cache (:mod:`api.archive.schema`, the
standings block).

* **Writes** stay where they were (a match's end, through Redis: finishing a game succeeds with
  the database down); each change is noted in an outbox (:mod:`api.outbox`), and
  :func:`drain`, run by every worker's sweep, writes the notes to the database: a rated
  match's new ratings (a rating row keeps the write with more ``matches``, which only grow),
  its marker (``rated_matches``, primary key ``(source, match)``), an award's points (added in
  the transaction that inserts its ``leaderboard_awards`` row, so once), a tour stamp and a
  table's result (insert if absent). Draining an entry twice changes nothing.
* **An outbox that overflowed** (:data:`api.outbox.OUTBOX_CAP`) is replaced by a copy of the
  whole slot from Redis (:func:`migrate_standings`, also the migration of a deployment that
  kept these in Redis only).
* **The cache** (:class:`Cache`): a slot whose ``cached`` key is missing (a Redis that lost its
  data, or never had the database's) is loaded from the database before its first read or
  write, filling what is missing; :func:`rebuild` (``sixtysix admin rebuild``) drains the
  outbox and replaces the slot's keys by the database's rows.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import redis
from sqlalchemy import Connection, Engine, Table, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from api.archive.forgotten import living
from api.archive.schema import (
    leaderboard_awards,
    leaderboard_hands,
    leaderboard_points,
    rated_matches,
    ratings,
    table_results,
    tour_stamps,
)
from api.archive.store import Archive
from api.games.store import text
from api.keys import (
    LEADERBOARD_TAG,
    PREFIX,
    RATINGS_TAG,
    TOUR_CACHED,
    TOUR_LOADING,
    awards_marker_key,
    board_key,
    hands_key,
    listing_key,
    rated_marker_key,
    ratings_key,
    slot_meta_key,
    tour_key,
)
from api.leaderboard.store import ALL, MARKER_GRACE, MONTH_TTL, month_of
from api.outbox import FACTS, LEADERBOARD, RATINGS, Box, covered, done, overflowed, take
from api.ratings.model import Rating
from api.runtime.redis_connect import Client
from api.tour.store import STAMP

log = logging.getLogger(__name__)

#: Most entries of one outbox one drain writes.
DRAIN_LIMIT: Final = 500
#: Seconds a cache that could not be loaded (the database down) waits for the next try.
RETRY_AFTER: Final = 30.0
#: Seconds a cache's load may hold its slot's ``loading`` key.
LOAD_LOCK: Final = 60
#: Seconds a read or write waits for another process loading the cache.
LOAD_WAIT: Final = 10.0
#: Attempts of a copy or a rebuild against concurrent changes of its slot.
RETRIES: Final = 20
#: A marker's source that never expires (an arena run's).
ARENA: Final = "arena:"

Row = dict[str, Any]


class SlotBusy(Exception):
    """The slot kept changing during every attempt of a copy or a rebuild."""


def _insert(conn: Connection, table: Table) -> Any:
    """The dialect's ``INSERT`` with ``ON CONFLICT`` (SQLite and PostgreSQL)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _keep(conn: Connection, table: Table, rows: Sequence[Row]) -> None:
    """Insert ``rows`` where their key is absent (a row there stays; of two with one key, the
    first), in the order of their keys; a deleted player's left out (:func:`living`)."""
    rows = living(conn, table, rows)
    if rows:
        conn.execute(_insert(conn, table).on_conflict_do_nothing(),
                     _unique(table, rows, lambda a, b: False))


def _keys(table: Table) -> list[str]:
    return [c.name for c in table.primary_key.columns]


def _unique(table: Table, rows: Iterable[Row], better: Callable[[Row, Row], bool],
            ) -> list[Row]:
    """One row per key (an ``INSERT ... ON CONFLICT DO UPDATE`` may touch a row once): the
    ``better`` of two; in the order of their keys (so two drains at once lock rows in the
    same order, and never wait for each other in a circle)."""
    out: dict[tuple[Any, ...], Row] = {}
    for row in rows:
        key = tuple(row[k] for k in _keys(table))
        if key not in out or better(row, out[key]):
            out[key] = row
    return [out[k] for k in sorted(out)]


def _ratings_newer(conn: Connection, rows: Sequence[Row]) -> None:
    """Upsert ratings, a row kept unless the new one has more matches (a deleted player's
    left out)."""
    rows = _unique(ratings, living(conn, ratings, rows),
                   lambda a, b: bool(a["matches"] > b["matches"]))
    if not rows:
        return
    stmt = _insert(conn, ratings)
    conn.execute(stmt.on_conflict_do_update(
        index_elements=_keys(ratings),
        set_={"mu": stmt.excluded.mu, "sigma": stmt.excluded.sigma,
              "matches": stmt.excluded.matches},
        where=ratings.c.matches < stmt.excluded.matches), rows)


def _set(conn: Connection, table: Table, rows: Sequence[Row], column: str,
         add: bool) -> None:
    """Upsert ``column`` of ``rows``: replaced, or with ``add`` added to the stored one (a
    deleted player's left out)."""
    rows = living(conn, table, rows)
    rows = _unique(table, rows, lambda a, b: False) if not add else _summed(table, rows, column)
    if not rows:
        return
    stmt = _insert(conn, table)
    value = table.c[column] + stmt.excluded[column] if add else stmt.excluded[column]
    conn.execute(stmt.on_conflict_do_update(index_elements=_keys(table),
                                            set_={column: value}), rows)


def _summed(table: Table, rows: Iterable[Row], column: str) -> list[Row]:
    """One row per key, ``column`` summed, in the order of their keys (see :func:`_unique`)."""
    out: dict[tuple[Any, ...], Row] = {}
    for row in rows:
        key = tuple(row[k] for k in _keys(table))
        if key in out:
            out[key] = {**out[key], column: out[key][column] + row[column]}
        else:
            out[key] = dict(row)
    return [out[k] for k in sorted(out)]


# ------------------------------------------------------------------ the outboxes' entries

def write_ratings(conn: Connection, entries: Sequence[Row]) -> None:
    """Rated matches (``rate``) and seeds (``seed``: a level's rating only where it has
    none), with their markers."""
    markers = {(s, m): e["at"] for e in entries for s, m in e["markers"]}
    _keep(conn, rated_matches, [{"source": s, "match": m, "rated_at": at}
                                for (s, m), at in markers.items()])
    rows = {kind: [{"variant": e["variant"], "kind": k, "id": i, "mu": mu, "sigma": sigma,
                    "matches": n}
                   for e in entries if e["t"] == kind for k, i, mu, sigma, n in e["ratings"]]
            for kind in ("rate", "seed")}
    _ratings_newer(conn, rows["rate"])
    _keep(conn, ratings, rows["seed"])


def write_awards(conn: Connection, entries: Sequence[Row]) -> int:
    """Count each award not counted before; the number counted now."""
    points: list[Row] = []
    hands: list[Row] = []
    counted = 0
    for e in entries:
        fresh = conn.execute(_insert(conn, leaderboard_awards).values(
            game_id=e["game"], marker=e["marker"], counted_at=int(time.time()),
        ).on_conflict_do_nothing().returning(leaderboard_awards.c.game_id)).first()
        if fresh is None:  # counted before
            continue
        counted += 1
        for player_id, kind, gained, won in e["inc"]:
            if gained:
                points += [{"kind": kind, "period": period, "variant": variant,
                            "player_id": player_id, "points": gained}
                           for period in (ALL, e["month"]) for variant in (ALL, e["variant"])]
            if won:
                hands.append({"player_id": player_id, "variant": e["variant"],
                              "hands_won": won})
    _set(conn, leaderboard_points, points, "points", add=True)
    _set(conn, leaderboard_hands, hands, "hands_won", add=True)
    return counted


def write_facts(conn: Connection, entries: Sequence[Row]) -> None:
    """Tour stamps and table results, each kept once."""
    _keep(conn, tour_stamps, [{"player_id": e["player_id"], "station": e["station"],
                               "stamped_at": e["at"]} for e in entries if e["t"] == "stamp"])
    _keep(conn, table_results, [
        {k: e[k] for k in ("game_id", "table_id", "variant", "result", "players")}
        | {"finished_at": e["finished_at"] or 0} for e in entries if e["t"] == "table"])


WRITERS: Final[tuple[tuple[Box, Callable[[Connection, Sequence[Row]], object]], ...]] = (
    (RATINGS, write_ratings), (LEADERBOARD, write_awards), (FACTS, write_facts))


def drain(client: Client, engine: Engine, limit: int = DRAIN_LIMIT) -> dict[str, int]:
    """Write up to ``limit`` entries of each outbox to the database (:func:`drain_now`); a
    database that cannot be reached is logged and stops the drain: the entries wait for the
    next one (and ``{}`` or the outboxes written before it are answered)."""
    written: dict[str, int] = {}
    try:
        drain_now(client, engine, limit, written)
    except SQLAlchemyError as exc:
        log.warning("the database is unavailable; the outboxes wait: %s", type(exc).__name__)
    return written


def drain_now(client: Client, engine: Engine, limit: int = DRAIN_LIMIT,
              written: dict[str, int] | None = None) -> dict[str, int]:
    """Write up to ``limit`` entries of each outbox to the database, one transaction per
    outbox, and then remove them (an outbox that overflowed: a copy of its whole slot); the
    entries written per outbox (also into ``written``, as they are)."""
    out = {} if written is None else written
    for box, write in WRITERS:
        if overflowed(client, box):
            log.warning("outbox %s overflowed: copying its slot", box.key)
            COPIES[box](client, engine)
            out[box.key] = 0
            continue
        raw = take(client, box, limit)
        if not raw:
            out[box.key] = 0
            continue
        with engine.begin() as conn:
            write(conn, [json.loads(r) for r in raw])
        out[box.key] = done(client, box, raw)
    return out


# -------------------------------------------- copies of Redis into the database (migrate)

def _scan(client: Client, pattern: str) -> list[str]:
    return sorted(text(k) for k in client.scan_iter(match=pattern, count=1000))


def _copy(client: Client, engine: Engine, box: Box, tag: str,
          read: Callable[[Any, list[str]], None],
          write: Callable[[Connection, list[str], list[Any], int], dict[str, int]],
          ) -> dict[str, int]:
    """Copy a slot's keys (those ``read`` queues for each key found) together with its
    outbox's state, in one transaction (retried if the outbox changed meanwhile), then
    ``write`` them to the database and remove the outbox's entries the copy covered."""
    kind = "ratings" if tag == RATINGS_TAG else "leaderboard"
    for _ in range(RETRIES):
        with client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(box.key, box.overflow, box.popped)
                found = [k for k in _scan(client, f"{PREFIX}:{kind}:{tag}:*")
                         if not k.startswith(slot_meta_key(tag, ""))]
                pipe.multi()
                pipe.llen(box.key)
                pipe.get(box.popped)
                pipe.get(box.overflow)
                read(pipe, found)
                answers = pipe.execute()
            except redis.WatchError:
                continue
        seen = (int(answers[0]), int(answers[1] or 0), int(answers[2] or 0))
        with engine.begin() as conn:
            counts = write(conn, found, answers[3:], int(time.time()))
        covered(client, box, seen)
        return counts
    raise SlotBusy(box.key)


def _rest(key: str, tag: str) -> str:
    kind = "ratings" if tag == RATINGS_TAG else "leaderboard"
    return key[len(f"{PREFIX}:{kind}:{tag}:"):]


def _ratings_keys(found: list[str]) -> list[str]:
    """The ratings hashes (``<variant>``) and markers (``done:<source>``) of a slot's keys."""
    return [k for k in found if ":" not in _rest(k, RATINGS_TAG)
            or _rest(k, RATINGS_TAG).startswith("done:")]


def copy_ratings(client: Client, engine: Engine) -> dict[str, int]:
    """Copy every rating and rated-match marker of Redis into the database."""
    def read(pipe: Any, found: list[str]) -> None:
        for key in _ratings_keys(found):
            pipe.hgetall(key)

    def write(conn: Connection, found: list[str], answers: list[Any], now: int,
              ) -> dict[str, int]:
        rows: list[Row] = []
        marks: list[Row] = []
        for key, fields in zip(_ratings_keys(found), answers, strict=True):
            rest = _rest(key, RATINGS_TAG)
            if rest.startswith("done:"):
                marks += [{"source": rest[5:], "match": text(m), "rated_at": now}
                          for m in fields]
                continue
            for field, value in fields.items():
                kind, _, ident = text(field).partition(":")
                r = Rating.decode(text(value))
                rows.append({"variant": rest, "kind": kind, "id": ident, "mu": r.mu,
                             "sigma": r.sigma, "matches": r.matches})
        _ratings_newer(conn, rows)
        _keep(conn, rated_matches, marks)
        return {"ratings": len(rows), "rated_matches": len(marks)}

    return _copy(client, engine, RATINGS, RATINGS_TAG, read, write)


def _board(rest: str) -> tuple[str, str, str] | None:
    """(kind, period, variant) of a board's key rest, or ``None``."""
    parts = rest.split(":")
    if len(parts) == 3 and parts[1] == ALL:
        return parts[0], ALL, parts[2]
    if len(parts) == 4 and parts[1] == "month":
        return parts[0], parts[2], parts[3]
    return None


def copy_leaderboard(client: Client, engine: Engine) -> dict[str, int]:
    """Copy every board, the hands won and the counted awards of Redis into the database
    (a board's points there become Redis's)."""
    def wanted(found: list[str]) -> list[str]:
        return [k for k in found if _board(_rest(k, LEADERBOARD_TAG)) is not None
                or k == hands_key() or _rest(k, LEADERBOARD_TAG).startswith("done:")]

    def read(pipe: Any, found: list[str]) -> None:
        for key in wanted(found):
            if _board(_rest(key, LEADERBOARD_TAG)) is not None:
                pipe.zrange(key, 0, -1, withscores=True)
            else:
                pipe.hgetall(key)

    def write(conn: Connection, found: list[str], answers: list[Any], now: int,
              ) -> dict[str, int]:
        points: list[Row] = []
        hands: list[Row] = []
        awards: list[Row] = []
        for key, value in zip(wanted(found), answers, strict=True):
            rest = _rest(key, LEADERBOARD_TAG)
            board = _board(rest)
            if board is not None:
                kind, period, variant = board
                points += [{"kind": kind, "period": period, "variant": variant,
                            "player_id": text(m), "points": int(s)} for m, s in value]
            elif key == hands_key():
                for field, won in value.items():
                    player_id, _, variant = text(field).rpartition(":")
                    hands.append({"player_id": player_id, "variant": variant,
                                  "hands_won": int(won)})
            else:
                awards += [{"game_id": rest[5:], "marker": text(m), "counted_at": now}
                           for m in value]
        _set(conn, leaderboard_points, points, "points", add=False)
        _set(conn, leaderboard_hands, hands, "hands_won", add=False)
        _keep(conn, leaderboard_awards, awards)
        return {"leaderboard_points": len(points), "leaderboard_hands": len(hands),
                "leaderboard_awards": len(awards)}

    return _copy(client, engine, LEADERBOARD, LEADERBOARD_TAG, read, write)


def copy_facts(client: Client, engine: Engine) -> dict[str, int]:
    """Copy every tour stamp and every finished table's result of Redis into the database."""
    pipe = client.pipeline(transaction=False)
    pipe.llen(FACTS.key)
    pipe.get(FACTS.popped)
    pipe.get(FACTS.overflow)
    answers = pipe.execute()
    seen = (int(answers[0]), int(answers[1] or 0), int(answers[2] or 0))
    stamps: list[Row] = []
    for key in _scan(client, tour_key("*")):
        player_id = key[len(tour_key("")) - 1:-1]
        stamps += [{"player_id": player_id, "station": text(f)[len(STAMP):],
                    "stamped_at": int(v)} for f, v in client.hgetall(key).items()
                   if text(f).startswith(STAMP)]
    results: list[Row] = []
    for key in _scan(client, f"{PREFIX}:table:*"):
        raw = client.hget(key, "doc")
        doc = json.loads(raw) if raw else {}
        if doc.get("status") == "finished" and doc.get("game_id"):
            results.append({"game_id": doc["game_id"], "table_id": doc["table_id"],
                            "variant": doc["variant"], "result": doc.get("result"),
                            "finished_at": doc.get("finished_at") or 0,
                            "players": [s.get("player_id") for s in doc["seats"]]})
    with engine.begin() as conn:
        _keep(conn, tour_stamps, stamps)
        _keep(conn, table_results, results)
    covered(client, FACTS, seen)
    return {"tour_stamps": len(stamps), "table_results": len(results)}


COPIES: Final[dict[Box, Callable[[Client, Engine], dict[str, int]]]] = {
    RATINGS: copy_ratings, LEADERBOARD: copy_leaderboard, FACTS: copy_facts}


def migrate_standings(client: Client, archive: Archive) -> dict[str, int]:
    """Copy today's Redis ratings, rated-match markers, boards, hands won, counted awards,
    tour stamps and finished tables' results into the database (a repeat is harmless: the
    database then holds Redis's state again); the rows copied per table."""
    counts: dict[str, int] = {}
    for copy in COPIES.values():
        counts |= copy(client, archive.engine)
    return counts


# ----------------------------------------------------- the cache: Redis from the database

def _load_ratings(conn: Connection, pipe: Any, now: int, game_ttl: int) -> dict[str, int]:
    rows = conn.execute(select(ratings)).all()
    for r in rows:
        rating = Rating(r.mu, r.sigma, r.matches)
        pipe.hsetnx(ratings_key(r.variant), f"{r.kind}:{r.id}", rating.encode())
        pipe.zadd(listing_key(r.variant, r.kind), {r.id: rating.ordinal}, nx=True)
    marker_ttl = game_ttl + MARKER_GRACE
    marks = conn.execute(select(rated_matches).where(
        rated_matches.c.source.startswith(ARENA)
        | (rated_matches.c.rated_at > now - marker_ttl))).all()
    for m in marks:
        pipe.hsetnx(rated_marker_key(m.source), m.match, 1)
        if not m.source.startswith(ARENA):
            pipe.expire(rated_marker_key(m.source), m.rated_at + marker_ttl - now)
    return {"ratings": len(rows), "rated_matches": len(marks)}


def _load_leaderboard(conn: Connection, pipe: Any, now: int, game_ttl: int,
                      ) -> dict[str, int]:
    oldest = month_of(now - MONTH_TTL)
    rows = conn.execute(select(leaderboard_points).where(
        (leaderboard_points.c.period == ALL) | (leaderboard_points.c.period >= oldest))).all()
    for r in rows:
        month = r.period != ALL
        key = board_key(r.kind, "month" if month else ALL, None if r.variant == ALL
                        else r.variant, r.period)
        pipe.zadd(key, {r.player_id: r.points}, nx=True)
        if month:
            pipe.expire(key, MONTH_TTL)
    hands = conn.execute(select(leaderboard_hands)).all()
    for h in hands:
        pipe.hsetnx(hands_key(), f"{h.player_id}:{h.variant}", h.hands_won)
    marker_ttl = game_ttl + MARKER_GRACE
    awards = conn.execute(select(leaderboard_awards).where(
        leaderboard_awards.c.counted_at > now - marker_ttl)).all()
    for a in awards:
        pipe.hsetnx(awards_marker_key(a.game_id), a.marker, 1)
        pipe.expire(awards_marker_key(a.game_id), a.counted_at + marker_ttl - now)
    return {"leaderboard_points": len(rows), "leaderboard_hands": len(hands),
            "leaderboard_awards": len(awards)}


LOADERS: Final = {RATINGS_TAG: (RATINGS, _load_ratings),
                  LEADERBOARD_TAG: (LEADERBOARD, _load_leaderboard)}


def load_slot(client: Client, engine: Engine, tag: str, game_ttl: int,
              replace: bool = False) -> dict[str, int]:
    """Load a slot's cache from the database and mark it ``cached``: fill what Redis lacks,
    or with ``replace`` first drain its outbox and then put the database's rows in place of
    every key of the slot (in one transaction, retried while changes come in meanwhile)."""
    box, load = LOADERS[tag]
    kind = "ratings" if tag == RATINGS_TAG else "leaderboard"
    for _ in range(RETRIES):
        if replace:
            drain_now(client, engine)
        with client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(box.key, box.overflow)
                if replace and (pipe.llen(box.key) or pipe.exists(box.overflow)):
                    continue  # changes came in: drain them first
                stale = [k for k in _scan(client, f"{PREFIX}:{kind}:{tag}:*")
                         if not k.startswith(slot_meta_key(tag, ""))] if replace else []
                pipe.multi()
                if stale:
                    pipe.delete(*stale)
                with engine.connect() as conn:
                    counts = load(conn, pipe, int(time.time()), game_ttl)
                pipe.set(slot_meta_key(tag, "cached"), 1)
                pipe.execute()
                return counts
            except redis.WatchError:
                continue
    raise SlotBusy(tag)


def load_tours(client: Client, engine: Engine, replace: bool = False) -> dict[str, int]:
    """Every player's tour stamps from the database into Redis (a stamp there stays, unless
    ``replace``: then it takes the database's time), then :data:`~api.keys.TOUR_CACHED` set;
    the number of stamps."""
    with engine.connect() as conn:
        rows = conn.execute(select(tour_stamps)).all()
    pipe = client.pipeline(transaction=False)
    for r in rows:
        field = f"{STAMP}{r.station}"
        if replace:
            pipe.hset(tour_key(r.player_id), field, r.stamped_at)
        else:
            pipe.hsetnx(tour_key(r.player_id), field, r.stamped_at)
    pipe.set(TOUR_CACHED, 1)
    pipe.execute()
    return {"tour_stamps": len(rows)}


def rebuild(client: Client, engine: Engine, game_ttl: int) -> dict[str, int]:
    """``sixtysix admin rebuild``: the outboxes drained, then the ratings' and the
    leaderboard's slots replaced by the database's rows and its tour stamps put back; the
    rows loaded per table."""
    counts: dict[str, int] = {}
    for tag in (RATINGS_TAG, LEADERBOARD_TAG):
        counts |= load_slot(client, engine, tag, game_ttl, replace=True)
    return counts | load_tours(client, engine, replace=True)


class Cache:
    """Called before reads and writes of a cache: loads it from the database when its
    ``cached`` key is missing (``load``: filling what Redis lacks). One process loads (it
    holds the ``loading`` key, :data:`LOAD_LOCK` seconds at most); the others wait for it, up
    to :data:`LOAD_WAIT` seconds. A database that cannot be reached is logged and tried again
    after :data:`RETRY_AFTER` seconds; Redis serves as it is."""

    def __init__(self, client: Client, cached: str, loading: str,
                 load: Callable[[], dict[str, int]]) -> None:
        self.redis = client
        self.cached = cached
        self.loading = loading
        self.load = load
        self._next_try = 0.0

    @classmethod
    def of_slot(cls, client: Client, engine: Engine, tag: str, game_ttl: int) -> Cache:
        """The cache of the ratings' or the leaderboard's slot (:func:`load_slot`)."""
        return cls(client, slot_meta_key(tag, "cached"), slot_meta_key(tag, "loading"),
                   lambda: load_slot(client, engine, tag, game_ttl))

    @classmethod
    def of_tour(cls, client: Client, engine: Engine) -> Cache:
        """The cache of the tour's stamps (:func:`load_tours`)."""
        return cls(client, TOUR_CACHED, TOUR_LOADING, lambda: load_tours(client, engine))

    def __call__(self) -> None:
        if self.redis.exists(self.cached):
            return
        if time.monotonic() < self._next_try:
            return
        if not self.redis.set(self.loading, 1, nx=True, ex=LOAD_LOCK):
            self._wait()
            return
        try:
            counts = self.load()
        except (SQLAlchemyError, SlotBusy) as exc:
            log.warning("%s not loaded from the database: %s", self.cached,
                        type(exc).__name__)
            self._next_try = time.monotonic() + RETRY_AFTER
            return
        finally:
            self.redis.delete(self.loading)
        log.info("%s loaded from the database: %s", self.cached, counts)

    def _wait(self) -> None:
        """Wait for another process's load (its ``cached`` key), :data:`LOAD_WAIT` s at most."""
        deadline = time.monotonic() + LOAD_WAIT
        while time.monotonic() < deadline:
            if self.redis.exists(self.cached):
                return
            time.sleep(0.05)
