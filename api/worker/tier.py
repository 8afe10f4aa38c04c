"""Which parts of the worker tier run: every worker process and every scheduler beats.

A process of the worker tier (``python -m api.worker.run``, its ``--scheduler``, and each
process running :class:`api.worker.run.WorkerThreads`) adds itself to the sorted set
``sixtysix-tier:<part>`` (``workers`` or ``scheduler``; beside the queues ``sixtysix-moves``
and ``sixtysix-advice``, outside the games' ``sixtysix:`` keys) of the queue's Redis every
:data:`BEAT_INTERVAL` seconds, scored by the time; a part runs while one of its processes beat
within :data:`BEAT_WINDOW` seconds. Each beat drops the members older than the window and
keeps the key for two windows, so the set holds only the processes that run; a process that
stops leaves it. The web tier reads which parts are missing (:meth:`TierWatch.missing`, one
round trip at most every :data:`WATCH_CACHE` seconds per process), and takes a part for
missing once it has read it missing for :data:`SETTLE` seconds (a flushed database, a beat
late under load, are not an outage): the computers' games say they wait, hints and analyses
are refused at once, ``/readyz`` names them.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import socket
import threading
import time
from typing import Final, Self

import redis

from api.keys import tier_key
from api.runtime.started import Started
from api.worker.routing import shard_index

log = logging.getLogger(__name__)

#: The parts of the worker tier, each a sorted set ``sixtysix-tier:<part>``.
WORKERS: Final = "workers"
SCHEDULER: Final = "scheduler"
PARTS: Final = (WORKERS, SCHEDULER)
#: Seconds between two beats of a process.
BEAT_INTERVAL: Final = 1.0
#: A part runs while one of its processes beat within this many seconds.
BEAT_WINDOW: Final = 5.0
#: Seconds a web process keeps what it read of the tier.
WATCH_CACHE: Final = 1.0
#: Seconds a part must read missing before the web tier takes it for missing.
SETTLE: Final = BEAT_WINDOW


def beat(client: redis.Redis, part: str, member: str, now: float) -> None:
    """Note that ``member`` of ``part`` runs at ``now``, dropping the members gone silent."""
    key = tier_key(part)
    with client.pipeline(transaction=True) as pipe:
        pipe.zadd(key, {member: now})
        pipe.zremrangebyscore(key, "-inf", now - BEAT_WINDOW)
        pipe.expire(key, math.ceil(2 * BEAT_WINDOW))
        pipe.execute()


def missing(client: redis.Redis, now: float) -> list[str]:
    """The parts none of whose processes beat within :data:`BEAT_WINDOW` seconds of ``now``."""
    with client.pipeline(transaction=False) as pipe:
        for part in PARTS:
            pipe.zcount(tier_key(part), now - BEAT_WINDOW, "+inf")
        counts = pipe.execute()
    return [part for part, count in zip(PARTS, counts, strict=True) if not count]


class Heartbeat(Started):
    """A daemon thread beating for this process as a ``part`` of the tier until stopped (a
    Redis error skips a beat); the first beat is made by :meth:`start` itself, so the part
    runs once it returns. :meth:`stop` leaves the set."""

    def __init__(self, client: redis.Redis, part: str) -> None:
        self.client = client
        self.part = part
        self.member = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        self._stop.clear()
        self._beat()
        self._thread = threading.Thread(target=self._run, name=f"sixtysix-beat-{self.part}",
                                        daemon=True)
        self._thread.start()
        return self

    def _beat(self) -> None:
        try:
            beat(self.client, self.part, self.member, time.time())
        except redis.RedisError as exc:
            log.debug("no beat of the %s (%s)", self.part, type(exc).__name__)

    def _run(self) -> None:
        while not self._stop.wait(BEAT_INTERVAL):
            self._beat()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with contextlib.suppress(redis.RedisError):  # else it falls out of the window
            self.client.zrem(tier_key(self.part), self.member)


class TierWatch:
    """The web tier's view of the worker tier: the parts :func:`missing` has read missing
    for :data:`SETTLE` seconds, read at most every :data:`WATCH_CACHE` seconds; a Redis error
    reads as nothing missing (the store's own errors answer for an unreachable Redis)."""

    def __init__(self, client: redis.Redis, strict: bool = False) -> None:
        self.client = client
        #: a Redis error reads as every part missing (a shard of several: its games' own
        #: Redis answers for them, so nothing else would say its queue is away)
        self.strict = strict
        #: whether the last read answered
        self.reachable = True
        self._lock = threading.Lock()
        self._read_at = -math.inf
        self._since: dict[str, float] = {}  # part -> when it was first read missing
        self._missing: list[str] = []

    def missing(self) -> list[str]:
        now = time.monotonic()
        with self._lock:
            if now - self._read_at < WATCH_CACHE:
                return self._missing
        reachable = True
        try:
            found = missing(self.client, time.time())
        except redis.RedisError:
            found, reachable = (list(PARTS) if self.strict else []), False
        with self._lock:
            self.reachable = reachable
            self._since = {part: self._since.get(part, now) for part in found}
            self._missing = [p for p, since in self._since.items() if now - since >= SETTLE]
            self._read_at = now
            return self._missing

    def workers_down(self) -> bool:
        """Whether no worker process runs (the computers' moves, hints and analyses wait)."""
        return WORKERS in self.missing()


class ShardsWatch:
    """The :class:`TierWatch` of each shard of the queue (:class:`api.worker.queue.TaskQueue`);
    with several, an unreachable shard reads as its parts missing, named ``<part>@<shard>``
    (``workers@1``: shard 1, counted from 0, has no worker or cannot be asked)."""

    def __init__(self, watches: list[TierWatch]) -> None:
        self.watches = watches
        for watch in watches:
            watch.strict = len(watches) > 1

    def missing(self) -> list[str]:
        if len(self.watches) == 1:
            return self.watches[0].missing()
        return [f"{part}@{index}" for index, watch in enumerate(self.watches)
                for part in watch.missing()]

    def shard_down(self, index: int) -> bool:
        """Whether shard ``index`` has no worker process (or cannot be asked)."""
        return WORKERS in self.watches[index].missing()

    def unreachable(self, game_id: str) -> bool:
        """Whether ``game_id``'s shard did not answer its last read (several shards only:
        with one, the store's own errors answer for an unreachable Redis)."""
        watch = self.watches[shard_index(game_id, len(self.watches))]
        if not watch.strict:
            return False
        watch.missing()  # read again if the last read is older than WATCH_CACHE
        return not watch.reachable

    def workers_down(self, game_id: str | None = None) -> bool:
        """Whether no worker serves ``game_id``'s shard (none: no shard has one)."""
        if game_id is None:
            return all(self.shard_down(i) for i in range(len(self.watches)))
        return self.shard_down(shard_index(game_id, len(self.watches)))
