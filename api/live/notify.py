"""Change notices: long-polls and event streams wait until a channel's version exceeds one.

Design: one pub/sub connection per process (per master of a Cluster), not one per waiting
request or open stream, subscribed by interest: to the channels of the games and tables this
process's clients watch (:meth:`VersionWaiter.watching`), reference-counted, subscribed when
the first watcher of a channel comes and unsubscribed when its last one leaves. A daemon
thread (a greenlet under gevent), started on the first wait, reads the notices and wakes the
waiters of their channel. The save scripts publish every new version on the game's channel
(:func:`api.keys.notify_channel`) and every table change on the table's
(:func:`api.keys.table_channel`), so a save reaches only the processes watching that game: the
cost of a save, to Redis and to each web process, does not grow with the processes that do not
watch it (``python -m tests.bench.bench_fanout``). A notice is the new version (``"7"``), or for
a chat message, which leaves the version alone, the version and the message's event number
(``"7:42"``): long-polls wait for versions only, streams for either.

On Redis 7 and later the notices are sharded pub/sub (``SPUBLISH`` in the scripts, whose
channel carries the game's or table's hash tag, so it hashes to the script's own slot;
``SSUBSCRIBE`` here): on a Cluster a notice stays on the master owning its game, and the
listeners' load spreads over every master. On Redis 6.2 (no sharded pub/sub) they are classic
``PUBLISH``/``SUBSCRIBE`` (:data:`NOTIFY_LUA` chooses by the server running the script; the
listener asks the server's version each time it connects, so both agree once the servers do).

A stream or long-poll registers before it reads the version: :meth:`VersionWaiter.watching`
returns once the channel's subscription is confirmed (at most :data:`SUBSCRIBE_WAIT` seconds;
at once while the listener has lost Redis, when waits fall back to rechecks), so no notice
after that read is missed.

A long-poll (:meth:`VersionWaiter.wait`) also re-reads the version with a plain ``HGET``: at
once whenever its channel is subscribed again (its subscription confirmed) or the listener has
lost Redis, every :data:`RECHECK` seconds while the channel is not subscribed, and otherwise
only every :data:`LIVE_RECHECK` seconds or so (a random share of it, so that waits begun
together do not recheck together), a last resort. So a notice lost while the listener
reconnects delays an answer by at most about :data:`RECHECK`, and waiting long-polls cost next
to nothing while it is up (a recheck a second each cost a core's fifth with 500 waiting on 2
cores, in bursts: ``python -m tests.bench.bench_http --computer-load``); between checks a wait
holds no Redis connection at all. A stream registers once for its whole life
(:meth:`VersionWaiter.watching`), so no notice between two of its waits is missed, and waits
with :meth:`VersionWaiter.announced`, which reads nothing from Redis: the stream rechecks the
version and the event count itself at each heartbeat.

The listener never dies quietly: a Redis outage is logged as a warning, any other failure (a
malformed notice, a bug) as an error with its traceback; either way it subscribes again (to
every channel watched then) after a back-off that doubles from :data:`BACKOFF_MIN` to at most
:data:`BACKOFF_MAX` seconds and is reset by the next notice received.
"""

from __future__ import annotations

import logging
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final, NamedTuple

import redis
from redis.cluster import RedisCluster

from api.keys import NOTIFY_PATTERN, TABLE_NOTIFY_PATTERN, listener_channel
from api.runtime.redis_connect import Client

#: What every notice channel starts with (the patterns without their ``*``).
_CHANNEL_PREFIXES: Final = (NOTIFY_PATTERN.rstrip("*"), TABLE_NOTIFY_PATTERN.rstrip("*"))

#: Seconds between direct version checks of a waiting long-poll while its channel is not
#: subscribed (starting, or reconnecting after losing Redis).
RECHECK: Final = 1.0
#: Seconds between them at most while it is subscribed; each wait takes a random 50-100%.
LIVE_RECHECK: Final = 10.0
#: Seconds :meth:`VersionWaiter.watching` waits at most for its channel's subscription.
SUBSCRIBE_WAIT: Final = 1.0
#: Seconds the listener waits before subscribing again after a failure: first, and at most.
BACKOFF_MIN: Final = 0.1
BACKOFF_MAX: Final = 5.0
#: Seconds a read of the listener blocks: one connection; each master's of a Cluster.
READ_WAIT: Final = 0.5
CLUSTER_READ_WAIT: Final = 0.02

#: Lua defining ``notify(channel, message)`` for the save scripts: ``SPUBLISH`` on Redis 7
#: and later (``redis.REDIS_VERSION_NUM`` exists from 7.0 on), ``PUBLISH`` on Redis 6.2. The
#: channel must carry the hash tag of the script's keys (a Cluster refuses another slot).
NOTIFY_LUA: Final = """
local function notify(channel, message)
  if redis.REDIS_VERSION_NUM then redis.call('SPUBLISH', channel, message)
  else redis.call('PUBLISH', channel, message) end
end
"""

_SUBSCRIBED: Final = frozenset({"subscribe", "ssubscribe"})
_MESSAGES: Final = frozenset({"message", "smessage"})

log = logging.getLogger(__name__)


class Notice(NamedTuple):
    """Where a game stands (or what its notices announced): its version and its number of
    events; the version alone says nothing of chat messages, which leave it as it is. A
    table's has no events (``seq`` 0)."""

    version: int
    seq: int = 0


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def sharded(client: Client) -> bool:
    """Whether ``client``'s server speaks sharded pub/sub (Redis 7 or later), as the save
    scripts decide (:data:`NOTIFY_LUA`); a Cluster's is asked on its default node."""
    server = (client.get_redis_connection(client.get_default_node())  # type: ignore[no-untyped-call]
              if isinstance(client, RedisCluster) else client)
    version = _text(server.info("server")["redis_version"])
    return int(version.split(".")[0]) >= 7


def publish(client: Client, channel: str, message: str, shard: bool | None = None) -> None:
    """Publish ``message`` on ``channel`` as the save scripts do (``shard``: :func:`sharded`,
    asked when not given)."""
    if sharded(client) if shard is None else shard:
        client.spublish(channel, message)
    else:
        client.publish(channel, message)


class Subscriber:
    """One pub/sub session of ``client``: sharded (``SSUBSCRIBE``) or classic, as
    :func:`sharded` says. Not for the listener's thread alone: another thread may
    :meth:`add` or :meth:`drop` channels while it reads (:meth:`read`)."""

    def __init__(self, client: Client, shard: bool | None = None) -> None:
        self.shard = sharded(client) if shard is None else shard
        self.cluster = isinstance(client, RedisCluster)
        self.pubsub: Any = client.pubsub()  # type: ignore[no-untyped-call]
        #: a process's own channel, subscribed for the session's life (none on a sharded
        #: Cluster: its reads are per master); its confirmation says the session is live
        self.own: str | None = None
        if not (self.shard and self.cluster):
            self.own = listener_channel(uuid.uuid4().hex)
            self.pubsub.subscribe(self.own)

    def add(self, channel: str) -> None:
        if self.shard:
            self.pubsub.ssubscribe(channel)
        else:
            self.pubsub.subscribe(channel)

    def drop(self, channel: str) -> None:
        if self.shard:
            self.pubsub.sunsubscribe(channel)
        else:
            self.pubsub.unsubscribe(channel)

    def read(self) -> tuple[str, str, str] | None:
        """The next message as (type, channel, data) within a short wait, or ``None``."""
        if self.shard and self.cluster:
            if not self.pubsub.node_pubsub_mapping:  # no master's connection yet: nothing
                time.sleep(CLUSTER_READ_WAIT)
                return None
            message = self.pubsub.get_sharded_message(timeout=CLUSTER_READ_WAIT)
        else:
            message = self.pubsub.get_message(timeout=READ_WAIT)
        if message is None:
            return None
        return (_text(message["type"]), _text(message["channel"] or b""),
                _text(data) if isinstance(data := message["data"], (bytes, str)) else str(data))

    def close(self) -> None:
        self.pubsub.close()


class VersionWaiter:
    def __init__(self, client: Client, recheck: float = RECHECK,
                 live_recheck: float = LIVE_RECHECK) -> None:
        self._redis = client
        self._recheck = recheck
        self._live_recheck = live_recheck
        #: the listener's session is up; ``_generation`` counts the changes of its state and
        #: of the subscriptions confirmed
        self._live = False
        #: a session ended and no new one is up yet: watches do not wait for subscriptions
        self._down = False
        self._generation = 0
        self._lock = threading.Lock()
        #: channel -> its condition (all on the one lock): a notice wakes its channel only
        self._conds: dict[str, threading.Condition] = {}
        self._watched: dict[str, int] = {}  # channel -> registered waiters
        self._confirmed: set[str] = set()  # channels whose subscription is confirmed
        self._pending: dict[str, int] = {}  # channel -> subscriptions sent, not yet confirmed
        self._seen: dict[str, int] = {}  # channel -> highest version announced while watched
        self._seqs: dict[str, int] = {}  # channel -> highest chat event number announced
        #: held while subscriptions change: the session and the channels subscribed on it
        self._sub_lock = threading.Lock()
        self._session: Subscriber | None = None
        self._sent: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: the server is stopping: every wait answers now, every stream ends (:meth:`drain`)
        self.draining = False
        #: notices the listener received, watched or not (each costs this process's CPU)
        self.received = 0

    def wait(self, channel: str, after: int, timeout: float,
             current: Callable[[], int]) -> int:
        """Block until ``current()`` exceeds ``after`` or ``timeout`` seconds pass; the version.

        ``current()`` is called first and then every :data:`RECHECK` seconds without a notice.
        """
        deadline = time.monotonic() + timeout
        with self.watching(channel, min(timeout, SUBSCRIBE_WAIT)):
            cond = self._conds[channel]
            while True:
                version = current()
                remaining = deadline - time.monotonic()
                if version > after or remaining <= 0 or self.draining:
                    return version
                with cond:
                    pause = (self._live_recheck * random.uniform(0.5, 1.0)
                             if self._live and channel in self._confirmed else self._recheck)
                    cond.wait_for(self._woken(channel, after, self._generation),
                                  timeout=min(remaining, pause))

    def _woken(self, channel: str, after: int, generation: int) -> Callable[[], bool]:
        """Whether a wait must look again: a notice past ``after`` on ``channel``, or the
        listener's state (or the channel's subscription) changed since ``generation``."""
        return lambda: (self._seen.get(channel, 0) > after
                        or self._generation != generation or self.draining)

    @contextmanager
    def watching(self, channel: str, confirm: float = SUBSCRIBE_WAIT) -> Iterator[None]:
        """Register a waiter of ``channel`` for the block: notices are kept meanwhile. The
        first waiter of a channel subscribes to it, the last one unsubscribes; the block starts
        once the subscription is confirmed, or after ``confirm`` seconds, or at once while the
        listener has lost Redis (waits then recheck).

        ``channel`` is a game's or a table's notice channel (``ValueError`` otherwise: a bare
        game id would never be woken, only rechecked)."""
        if not channel.startswith(_CHANNEL_PREFIXES):
            raise ValueError(f"not a notice channel: {channel!r}")
        self._start()
        with self._sub_lock:
            with self._lock:
                self._watched[channel] = self._watched.get(channel, 0) + 1
                if channel not in self._conds:
                    self._conds[channel] = threading.Condition(self._lock)
                cond = self._conds[channel]
            self._sync(channel)
        try:
            if confirm > 0:
                with cond:
                    cond.wait_for(lambda: (channel in self._confirmed or self._down
                                           or self.draining), timeout=confirm)
            yield
        finally:
            with self._sub_lock:
                with self._lock:
                    self._watched[channel] -= 1
                    if not self._watched[channel]:
                        del self._watched[channel]
                        del self._conds[channel]
                        self._confirmed.discard(channel)
                        self._seen.pop(channel, None)
                        self._seqs.pop(channel, None)
                self._sync(channel)

    def _sync(self, channel: str) -> None:
        """Subscribe to ``channel`` if it is watched, else unsubscribe, unless done already
        (under ``_sub_lock``, so that subscriptions and their ends go out in order). A failure
        is the listener's to find: it then subscribes again to every channel watched."""
        wanted = channel in self._watched
        if self._session is None or wanted == (channel in self._sent):
            return
        try:
            if wanted:
                with self._lock:
                    self._pending[channel] = self._pending.get(channel, 0) + 1
                self._session.add(channel)
                self._sent.add(channel)
            else:
                self._sent.discard(channel)
                self._session.drop(channel)
        except redis.RedisError as exc:
            log.debug("notice subscription of %s failed (%s)", channel, type(exc).__name__)

    def watchers(self) -> dict[str, int]:
        """The channels watched in this process and their number of waiters."""
        with self._lock:
            return dict(self._watched)

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
        """Open a session, subscribe to every channel watched and announce every notice
        (yielding after each) until stopped; the waiters of a channel are woken to recheck
        when its subscription is confirmed, and all of them when the session ends."""
        session = Subscriber(self._redis)
        try:
            with self._sub_lock:
                self._session, self._sent = session, set()
                for channel in list(self._watched):
                    self._sync(channel)
            if session.own is None:
                self._set_live(True)
            while not self._stop.is_set():
                message = session.read()
                if message is None:
                    continue
                kind, channel, data = message
                if kind in _SUBSCRIBED:
                    if channel == session.own:
                        self._set_live(True)
                    else:
                        self._confirm(channel)
                elif kind in _MESSAGES:
                    self.received += 1
                    version, _, seq = data.partition(":")
                    self._announce(channel, int(version), int(seq or 0))
                    yield
        finally:
            with self._sub_lock:
                self._session, self._sent = None, set()
            self._set_live(False)
            session.close()

    def _set_live(self, live: bool) -> None:
        """Note the listener's state and wake every waiter to recheck (a notice may have
        been lost meanwhile) and to pick its next pause by the new state."""
        with self._lock:
            self._live = live
            self._down = not live
            if not live:
                self._confirmed.clear()
                self._pending.clear()
            self._generation += 1
            for cond in self._conds.values():
                cond.notify_all()

    def _confirm(self, channel: str) -> None:
        """``channel``'s subscription is confirmed (again): its waiters recheck, as a notice
        may have been published before it."""
        with self._lock:
            pending = self._pending.pop(channel, 0) - 1
            if pending > 0:  # an end and a new subscription came meanwhile: wait for it
                self._pending[channel] = pending
            elif channel in self._watched:
                self._confirmed.add(channel)
                self._generation += 1
                self._conds[channel].notify_all()

    def _announce(self, channel: str, version: int, seq: int = 0) -> None:
        with self._lock:
            if channel in self._watched:
                self._seen[channel] = max(version, self._seen.get(channel, 0))
                self._seqs[channel] = max(seq, self._seqs.get(channel, 0))
                self._conds[channel].notify_all()
