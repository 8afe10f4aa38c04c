"""Archiving finished games: noted on their save, written by one process's drain at a time.

The save that finishes a game (``match_over`` or ``aborted``) marks it in its own hash, in the
save's script (the field ``archived``: the events its archive holds, ``0``; see
:data:`api.games.store.ARCHIVED_FIELD`), and the after-save pipeline then notes its id in the
sorted set :data:`~api.keys.ARCHIVE_PENDING` (:meth:`Archiver.note`: one ``ZADD``, the time
noted as its score). A drain (:meth:`Archiver.drain`; every worker process's sweep every few
seconds, and the web tier's when no worker runs, :mod:`api.http.archive_drain`) takes the
deployment's drain lock, writes the oldest noted games to the archive, raises their
``archived`` count, gives their Redis keys ``grace`` seconds more (no more than they had) and
only then takes them out of the set. So a game is archived once whatever happens between: a
crash or a database down leaves it noted and the next drain writes it, and a write that
happened before is found and kept (:meth:`api.archive.store.Archive.put`).

A crash between the save and the note leaves a finished game marked but not noted; so does
a note removed by a drain that raced a chat message. :meth:`Archiver.reconcile` (every
:data:`RECONCILE_EVERY` seconds, by one process) scans the games' hashes and notes each whose
``archived`` count is behind its event count ``n``; it also renews the keys of those whose
time to live ran below half the game's (the database has been down long): a finished game is
let go only once archived.

The pending set has no hard bound (a finished game is never refused nor dropped); its size
and oldest note are on ``/metrics`` and ``/readyz`` (:meth:`Archiver.backlog`), which says
``backlog`` above ``SIXTYSIX_ARCHIVE_PENDING_WARN``.

With ``results`` the game's players' results go into the database in the game's own
transaction and then leave their Redis histories (:class:`ResultsOf`, which
:mod:`api.players.results` implements); with ``tables`` a finished table whose last game this
is goes into the database and its Redis hash gets the grace too (:mod:`api.archive.tables`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from prometheus_client import Counter

from api.archive.durable import drain as drain_outboxes
from api.archive.store import Archive, ArchiveUnavailable
from api.archive.tables import FinishedTables
from api.games.store import ARCHIVED_FIELD, Game, GameNotFound, GameStore
from api.keys import (
    ARCHIVE_DRAIN_LOCK,
    ARCHIVE_PENDING,
    ARCHIVE_RECONCILED,
    GAME_KEYS,
    events_key,
    game_id_of_channel,
    game_key,
)
from api.unique import new_id
from engine.hosted import is_over

log = logging.getLogger(__name__)

#: Most games one drain archives.
DRAIN_LIMIT: Final = 100
#: Seconds the drain lock is held past the drain's last game at most: a killed holder's
#: lapses after it (the drain renews it before each game).
LOCK_SECONDS: Final = 15
#: Seconds between two scans for finished games never noted, over the deployment.
RECONCILE_EVERY: Final = 600
#: Keys one ``SCAN`` step reads.
SCAN_COUNT: Final = 1000

#: Finished games written to the archive by this process.
WRITES: Final = Counter("sixtysix_archive_writes", "Finished games written to the archive")
#: Archive writes this process could not make (the game stays noted), by exception class.
FAILURES: Final = Counter("sixtysix_archive_failures",
                          "Archive writes that failed (the game stays noted)", ["error"])

# KEYS: game, events; ARGV: events archived, grace. With the game still there: raise its
# ``archived`` count to ARGV[1], and give both keys the grace unless they have less left.
_KEPT: Final = """
local kept = redis.call('HGET', KEYS[1], '""" + ARCHIVED_FIELD + """')
if not kept then
  if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
  kept = '0'
end
if tonumber(kept) < tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], '""" + ARCHIVED_FIELD + """', ARGV[1])
end
local left = redis.call('TTL', KEYS[1])
if left < 0 or left > tonumber(ARGV[2]) then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
return 1
"""

# KEYS: lock; ARGV: token. Deletes the lock if this token holds it.
_UNLOCK: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: lock; ARGV: token, seconds. Renews the lock if this token holds it: 1, else 0.
_RENEW: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


@dataclass(frozen=True, slots=True)
class Backlog:
    """The pending set: how many games wait, and the age of the oldest note (seconds)."""

    pending: int
    oldest: float


class Written(Protocol):
    """A player's result to archive: its ``player_results`` row."""

    @property
    def row(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Written)


class ResultsOf(Protocol[R]):
    """The players' results of a game being archived (:mod:`api.players.results`): ``of`` a
    game, and ``forget`` them in Redis once the database holds them."""

    def of(self, game: Game) -> list[R]: ...

    def forget(self, results: list[R]) -> None: ...


@dataclass(frozen=True, slots=True)
class Archiver:
    """Finished games of ``games`` into ``archive``; their Redis keys then live ``grace``
    seconds (at most: a shorter time left is kept)."""

    games: GameStore
    archive: Archive
    grace: int
    results: ResultsOf[Any] | None = None
    #: A finished table whose last game is archived: kept in the database, let go by Redis.
    tables: FinishedTables | None = None

    def note(self, game: Game) -> None:
        """Note a saved game for the archive if it is over (a repeat keeps the first time)."""
        if is_over(game.state) and game.log is None:  # one read from the archive is there
            self.games.redis.zadd(ARCHIVE_PENDING, {game.game_id: time.time()}, nx=True)

    def sweep(self) -> int:
        """One round: :meth:`reconcile` if none ran over the deployment within
        :data:`RECONCILE_EVERY` seconds, then :meth:`drain`; the number written."""
        if self.games.redis.set(ARCHIVE_RECONCILED, 1, ex=RECONCILE_EVERY, nx=True):
            self.reconcile()
        return self.drain()

    def store_standings(self) -> int:
        """Write the ratings', leaderboard's, tour's and tables' outboxes to the database
        (:func:`api.archive.durable.drain`, migrated first); the entries written.
        :class:`ArchiveUnavailable` if it cannot be reached."""
        self.archive.ready()
        return sum(drain_outboxes(self.games.redis, self.archive.engine).values())

    def drain(self, limit: int = DRAIN_LIMIT) -> int:
        """Archive up to ``limit`` noted games, oldest first, unless another process drains
        (its lock held, renewed before each game); the number written now. A database that
        cannot be reached stops the drain (the games stay noted: the next one retries); a game
        that cannot be read is logged and goes to the end of the queue, the others go on."""
        token = new_id()
        redis_ = self.games.redis
        if not redis_.set(ARCHIVE_DRAIN_LOCK, token, ex=LOCK_SECONDS, nx=True):
            return 0
        written = 0
        try:
            for raw in redis_.zrange(ARCHIVE_PENDING, 0, limit - 1):
                if not redis_.eval(_RENEW, 1, ARCHIVE_DRAIN_LOCK, token, LOCK_SECONDS):
                    break  # held too long (a stalled process): another may drain now
                game_id = raw.decode() if isinstance(raw, bytes) else str(raw)
                try:
                    wrote = self.archive_one(game_id)
                except ArchiveUnavailable as exc:
                    FAILURES.labels(type(exc.__cause__ or exc).__name__).inc()
                    log.warning("archive unavailable, %s waits for the next drain: %s",
                                game_id, exc)
                    break
                except (ValueError, KeyError, TypeError) as exc:  # a game that cannot be read
                    FAILURES.labels(type(exc).__name__).inc()
                    log.exception("finished game %s not archived: tried again after the others",
                                  game_id)
                    redis_.zadd(ARCHIVE_PENDING, {game_id: time.time()}, xx=True)
                    continue
                WRITES.inc(wrote)
                written += wrote
        finally:
            redis_.eval(_UNLOCK, 1, ARCHIVE_DRAIN_LOCK, token)
        return written

    def archive_one(self, game_id: str) -> bool:
        """Archive one noted game and shorten its keys' lives; whether it was written now."""
        try:
            game = self.games.load(game_id)
        except GameNotFound:  # gone from Redis and from the archive: nothing left to keep
            log.error("finished game %s expired before it was archived", game_id)
            self.games.redis.zrem(ARCHIVE_PENDING, game_id)
            return False
        wrote = False
        results = self._results(game)
        if game.log is None:  # still in Redis
            wrote = self.archive.put(game, self.games.all_events(game),
                                     [r.row for r in results])
            self.games.redis.eval(_KEPT, 2, game_key(game_id), events_key(game_id),
                                  game.event_count, self.grace)
        elif results:
            self.archive.put_results([r.row for r in results])
        self._forget(results)
        if self.tables is not None:
            self.tables.let_go(game)
        self.games.redis.zrem(ARCHIVE_PENDING, game_id)
        return wrote

    def _results(self, game: Game) -> list[Any]:
        """The players' results to write with the game (none without ``results``)."""
        return [] if self.results is None else self.results.of(game)

    def _forget(self, results: list[Any]) -> None:
        """Remove written results from the Redis histories."""
        if self.results is not None:
            self.results.forget(results)

    def reconcile(self) -> int:
        """Scan every game's hash; note each finished one whose archive is behind it (never
        noted: a crash came between its save and the note), and renew the keys of those with
        less than half the game's time to live left. The number noted."""
        noted = 0
        batch: list[str] = []
        for key in self.games.redis.scan_iter(match=GAME_KEYS, count=SCAN_COUNT,
                                              _type="HASH"):
            batch.append(key.decode() if isinstance(key, bytes) else str(key))
            if len(batch) >= SCAN_COUNT:
                noted += self._reconcile(batch)
                batch = []
        return noted + (self._reconcile(batch) if batch else 0)

    def _reconcile(self, keys: list[str]) -> int:
        pipe = self.games.redis.pipeline(transaction=False)
        for key in keys:
            pipe.hmget(key, ARCHIVED_FIELD, "n")
            pipe.ttl(key)
        answers = pipe.execute()
        behind: dict[str, float] = {}
        renew = self.games.redis.pipeline(transaction=False)
        for key, (kept, count), left in zip(keys, answers[::2], answers[1::2], strict=True):
            if kept is None or count is None or int(kept) >= int(count):
                continue
            game_id = game_id_of_channel(key)
            behind[game_id] = time.time()
            if 0 <= left < self.games.ttl // 2:
                renew.expire(key, self.games.ttl)
                renew.expire(events_key(game_id), self.games.ttl)
        if not behind:
            return 0
        renew.zadd(ARCHIVE_PENDING, behind, nx=True)
        added = renew.execute()[-1]
        if added:
            log.warning("%d finished games were not noted for the archive: noted now", added)
        return int(added)

    def backlog(self) -> Backlog:
        """How many games wait for the archive and how long the oldest has waited."""
        pipe = self.games.redis.pipeline(transaction=False)
        pipe.zcard(ARCHIVE_PENDING)
        pipe.zrange(ARCHIVE_PENDING, 0, 0, withscores=True)
        count, oldest = pipe.execute()
        return Backlog(int(count), max(0.0, time.time() - oldest[0][1]) if oldest else 0.0)
