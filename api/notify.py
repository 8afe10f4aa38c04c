"""Long-poll support: wait until a game's version exceeds a given one.

Design: one pub/sub connection per process, not one per waiting request. A daemon thread,
started on the first wait, pattern-subscribes to ``sixtysix:notify:*`` (the save script
publishes every new version there) and wakes the waiting threads of that game. A waiter also
re-reads the version with a plain ``HGET`` every :data:`RECHECK` seconds, so a notice lost
while the listener reconnects delays an answer by at most that much; between checks it holds
no Redis connection at all.

The listener never dies quietly: a Redis outage is logged as a warning, any other failure (a
malformed notice, a bug) as an error with its traceback; either way it subscribes again after
a back-off that doubles from :data:`BACKOFF_MIN` to at most :data:`BACKOFF_MAX` seconds and is
reset by the next notice received.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Final

import redis

from api.redis_connect import Client
from api.store import NOTIFY_PATTERN, game_id_of_channel

#: Seconds between direct version checks of a waiting request.
RECHECK: Final = 1.0
#: Seconds the listener waits before subscribing again after a failure: first, and at most.
BACKOFF_MIN: Final = 0.1
BACKOFF_MAX: Final = 5.0

log = logging.getLogger(__name__)


class VersionWaiter:
    def __init__(self, client: Client, recheck: float = RECHECK) -> None:
        self._redis = client
        self._recheck = recheck
        self._cond = threading.Condition()
        self._watched: dict[str, int] = {}  # game id -> waiting requests
        self._seen: dict[str, int] = {}  # game id -> highest version announced
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def wait(self, game_id: str, after: int, timeout: float,
             current: Callable[[], int]) -> int:
        """Block until ``current()`` exceeds ``after`` or ``timeout`` seconds pass; the version."""
        deadline = time.monotonic() + timeout
        self._start()
        with self._cond:
            self._watched[game_id] = self._watched.get(game_id, 0) + 1
        try:
            while True:
                version = current()
                remaining = deadline - time.monotonic()
                if version > after or remaining <= 0:
                    return version
                with self._cond:
                    self._cond.wait_for(lambda: self._seen.get(game_id, 0) > after,
                                        timeout=min(remaining, self._recheck))
        finally:
            with self._cond:
                self._watched[game_id] -= 1
                if not self._watched[game_id]:
                    del self._watched[game_id]
                    self._seen.pop(game_id, None)

    def close(self) -> None:
        """Stop the listener thread (it exits within a second)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _start(self) -> None:
        with self._cond:
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
                log.warning("long-poll listener lost Redis (%s); subscribing again in %.1f s",
                            type(exc).__name__, backoff)
            except Exception:
                log.exception("long-poll listener failed; subscribing again in %.1f s", backoff)
            self._stop.wait(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX)

    def _notices(self) -> Iterator[None]:
        """Subscribe and announce every notice (yielding after each) until stopped."""
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        try:
            pubsub.psubscribe(NOTIFY_PATTERN)
            while not self._stop.is_set():
                message = pubsub.get_message(timeout=0.5)
                if message is not None:
                    self._announce(game_id_of_channel(message["channel"]),
                                   int(message["data"]))
                    yield
        finally:
            pubsub.close()

    def _announce(self, game_id: str, version: int) -> None:
        with self._cond:
            if game_id in self._watched:
                self._seen[game_id] = max(version, self._seen.get(game_id, 0))
                self._cond.notify_all()
