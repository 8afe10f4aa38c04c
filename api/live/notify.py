"""Change notices: long-polls and event streams wait until a channel's version exceeds one.

Design: one pub/sub connection per process, not one per waiting request or open stream. A
daemon thread (a greenlet under gevent), started on the first wait, pattern-subscribes to
``sixtysix:notify:*`` (the game save script publishes every new version there) and
``sixtysix:table-notify:*`` (every table change), and wakes the waiters of that channel.
Waiters are keyed by the channel's name (:func:`api.keys.notify_channel`,
:func:`api.tables.store.table_channel`). A notice is the new version (``"7"``), or for a chat
message, which leaves the version alone, the version and the message's event number
(``"7:42"``): long-polls wait for versions only, streams for either.

A long-poll (:meth:`VersionWaiter.wait`) also re-reads the version with a plain ``HGET``: at
once whenever the listener is subscribed again (its subscription confirmed) or has lost Redis,
every :data:`RECHECK` seconds while it is not subscribed, and otherwise only every
:data:`LIVE_RECHECK` seconds or so (a random share of it, so that waits begun together do not
recheck together), a last resort. So a notice lost while the listener reconnects delays an
answer by at most about :data:`RECHECK`, and waiting long-polls cost next to nothing while it
is up (a recheck a second each cost a core's fifth with 500 waiting on 2 cores, in bursts:
``python -m tests.bench.bench_http --computer-load``); between checks a wait holds no Redis
connection at all. A stream registers once
for its whole life (:meth:`VersionWaiter.watching`), so no notice between two of its waits is
missed, and waits with :meth:`VersionWaiter.announced`, which reads nothing from Redis: the
stream rechecks the version and the event count itself at each heartbeat.

Sharded pub/sub (``SSUBSCRIBE``, Redis 7) is not used: the supported servers include Redis
6.2, and a pattern subscription cannot be sharded. On a Redis Cluster ``PUBLISH`` reaches
every node over the cluster bus, so the one pattern subscription on any node sees every save.

The listener never dies quietly: a Redis outage is logged as a warning, any other failure (a
malformed notice, a bug) as an error with its traceback; either way it subscribes again after
a back-off that doubles from :data:`BACKOFF_MIN` to at most :data:`BACKOFF_MAX` seconds and is
reset by the next notice received.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final, NamedTuple

import redis

from api.keys import NOTIFY_PATTERN, TABLE_NOTIFY_PATTERN
from api.runtime.redis_connect import Client

#: What every notice channel starts with (the patterns without their ``*``).
_CHANNEL_PREFIXES: Final = (NOTIFY_PATTERN.rstrip("*"), TABLE_NOTIFY_PATTERN.rstrip("*"))

#: Seconds between direct version checks of a waiting long-poll while the listener is not
#: subscribed (starting, or reconnecting after losing Redis).
RECHECK: Final = 1.0
#: Seconds between them at most while it is subscribed; each wait takes a random 50-100%.
LIVE_RECHECK: Final = 10.0
#: Seconds the listener waits before subscribing again after a failure: first, and at most.
BACKOFF_MIN: Final = 0.1
BACKOFF_MAX: Final = 5.0

log = logging.getLogger(__name__)


class Notice(NamedTuple):
    """Where a game stands (or what its notices announced): its version and its number of
    events; the version alone says nothing of chat messages, which leave it as it is. A
    table's has no events (``seq`` 0)."""

    version: int
    seq: int = 0


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class VersionWaiter:
    def __init__(self, client: Client, recheck: float = RECHECK,
                 live_recheck: float = LIVE_RECHECK) -> None:
        self._redis = client
        self._recheck = recheck
        self._live_recheck = live_recheck
        #: the listener's subscription is confirmed; ``_generation`` counts its changes
        self._live = False
        self._generation = 0
        self._lock = threading.Lock()
        #: channel -> its condition (all on the one lock): a notice wakes its channel only
        self._conds: dict[str, threading.Condition] = {}
        self._watched: dict[str, int] = {}  # channel -> registered waiters
        self._seen: dict[str, int] = {}  # channel -> highest version announced while watched
        self._seqs: dict[str, int] = {}  # channel -> highest chat event number announced
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: the server is stopping: every wait answers now, every stream ends (:meth:`drain`)
        self.draining = False

    def wait(self, channel: str, after: int, timeout: float,
             current: Callable[[], int]) -> int:
        """Block until ``current()`` exceeds ``after`` or ``timeout`` seconds pass; the version.

        ``current()`` is called first and then every :data:`RECHECK` seconds without a notice.
        """
        deadline = time.monotonic() + timeout
        with self.watching(channel):
            cond = self._conds[channel]
            while True:
                version = current()
                remaining = deadline - time.monotonic()
                if version > after or remaining <= 0 or self.draining:
                    return version
                with cond:
                    pause = (self._live_recheck * random.uniform(0.5, 1.0) if self._live
                             else self._recheck)
                    cond.wait_for(self._woken(channel, after, self._generation),
                                  timeout=min(remaining, pause))

    def _woken(self, channel: str, after: int, generation: int) -> Callable[[], bool]:
        """Whether a wait must look again: a notice past ``after`` on ``channel``, or the
        listener's state changed since ``generation``."""
        return lambda: (self._seen.get(channel, 0) > after
                        or self._generation != generation or self.draining)

    @contextmanager
    def watching(self, channel: str) -> Iterator[None]:
        """Register a waiter of ``channel`` for the block: notices are kept meanwhile.

        ``channel`` is a game's or a table's notice channel (``ValueError`` otherwise: a bare
        game id would never be woken, only rechecked)."""
        if not channel.startswith(_CHANNEL_PREFIXES):
            raise ValueError(f"not a notice channel: {channel!r}")
        self._start()
        with self._lock:
            self._watched[channel] = self._watched.get(channel, 0) + 1
            if channel not in self._conds:
                self._conds[channel] = threading.Condition(self._lock)
        try:
            yield
        finally:
            with self._lock:
                self._watched[channel] -= 1
                if not self._watched[channel]:
                    del self._watched[channel]
                    del self._conds[channel]
                    self._seen.pop(channel, None)
                    self._seqs.pop(channel, None)

    def announced(self, channel: str, after: int, timeout: float,
                  seq_after: int | None = None) -> Notice | None:
        """What ``channel`` announced (its highest version, at least ``after``, and its
        highest chat event number) once a version above ``after`` is announced (or, with
        ``seq_after``, a chat message numbered above ``seq_after``), or ``None`` after
        ``timeout`` seconds or once :meth:`drain` is called; only inside :meth:`watching` of
        that channel."""
        cond = self._conds[channel]

        def changed() -> bool:
            return self._seen.get(channel, 0) > after or (
                seq_after is not None and self._seqs.get(channel, 0) > seq_after)

        with cond:
            if cond.wait_for(lambda: changed() or self.draining, timeout=max(timeout, 0.0)
                             ) and changed():
                return Notice(max(self._seen.get(channel, 0), after),
                              self._seqs.get(channel, 0))
        return None

    def drain(self) -> None:
        """The server is stopping: every wait returns now with the version it has, and every
        stream ends (:func:`api.live.streams.follow`; its client resumes elsewhere with
        ``Last-Event-ID``), so that a stop does not wait for them."""
        with self._lock:
            self.draining = True
            for cond in self._conds.values():
                cond.notify_all()

    def close(self) -> None:
        """Stop the listener thread (it exits within a second)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._listen, name="sixtysix-notify",
                                                daemon=True)
                self._thread.start()

    def _listen(self) -> None:
        backoff = BACKOFF_MIN
        while not self._stop.is_set():
            try:
                for _ in self._notices():
                    backoff = BACKOFF_MIN
            except redis.RedisError as exc:  # Redis is away: waiters fall back to rechecks
                log.warning("notice listener lost Redis (%s); subscribing again in %.1f s",
                            type(exc).__name__, backoff)
            except Exception:
                log.exception("notice listener failed; subscribing again in %.1f s", backoff)
            self._stop.wait(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX)

    def _notices(self) -> Iterator[None]:
        """Subscribe and announce every notice (yielding after each) until stopped; the
        waiters are woken to recheck once both patterns are confirmed and when it ends."""
        pubsub = self._redis.pubsub()  # type: ignore[no-untyped-call]
        try:
            pubsub.psubscribe(NOTIFY_PATTERN, TABLE_NOTIFY_PATTERN)
            while not self._stop.is_set():
                message = pubsub.get_message(timeout=0.5)
                if message is None:
                    continue
                if message["type"] == "psubscribe":  # data: the patterns subscribed so far
                    if int(message["data"]) == 2:
                        self._set_live(True)
                elif message["type"] == "pmessage":
                    version, _, seq = _text(message["data"]).partition(":")
                    self._announce(_text(message["channel"]), int(version), int(seq or 0))
                    yield
        finally:
            self._set_live(False)
            pubsub.close()

    def _set_live(self, live: bool) -> None:
        """Note the listener's state and wake every waiter to recheck (a notice may have
        been lost meanwhile) and to pick its next pause by the new state."""
        with self._lock:
            self._live = live
            self._generation += 1
            for cond in self._conds.values():
                cond.notify_all()

    def _announce(self, channel: str, version: int, seq: int = 0) -> None:
        with self._lock:
            if channel in self._watched:
                self._seen[channel] = max(version, self._seen.get(channel, 0))
                self._seqs[channel] = max(seq, self._seqs.get(channel, 0))
                self._conds[channel].notify_all()
