"""Presence: when each seat of a game was last seen, so a view can say who is connected.

A seat is *seen* when a request carries its token or while one of its streams is open (a
stream refreshes it at every heartbeat). It counts as ``connected`` for ``window`` seconds
after (``SIXTYSIX_PRESENCE_WINDOW``, default 30).

Storage: one hash per game, ``sixtysix:presence:{id}`` (the game's hash tag, so its slot),
field = seat number, value = Unix time in seconds; it expires ``2 × window`` after its last
write, since older times say nothing. To keep the request path cheap a process writes one
seat's time at most once per :data:`REFRESH` seconds (or a third of the window, if shorter),
remembering its last writes in memory; the game store reads the hash in the same round trip
as the game. A write Redis refuses (full, or a read-only replica) is logged and skipped: a
read must not fail for it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Final

import redis

from api.runtime.redis_connect import Client

log = logging.getLogger(__name__)

#: Longest time in seconds between two writes of one seat's last-seen time by one process.
REFRESH: Final = 5.0
#: Seats whose last writes a process remembers; beyond, it forgets them all and starts again.
REMEMBERED: Final = 100_000


class Presence:
    """Last-seen times of seats in ``client``; ``key`` names a game's presence hash."""

    def __init__(self, client: Client, window: float, key: Callable[[str], str]) -> None:
        if window <= 0:
            raise ValueError("the presence window must be positive")
        self.window = window
        self._redis = client
        self._key = key
        self._interval = min(REFRESH, window / 3)
        self._written: dict[tuple[str, int], float] = {}
        self._lock = threading.Lock()

    def seen(self, game_id: str, seat: int, *, now: float | None = None,
             force: bool = False) -> None:
        """Note that ``seat`` is here; written unless this process did so just before."""
        now = time.time() if now is None else now
        with self._lock:
            last = self._written.get((game_id, seat))
            if not force and last is not None and now - last < self._interval:
                return
            if len(self._written) >= REMEMBERED:
                self._written.clear()
            self._written[(game_id, seat)] = now
        key = self._key(game_id)
        pipe = self._redis.pipeline(transaction=False)
        pipe.hset(key, str(seat), f"{now:.3f}")
        pipe.expire(key, max(1, round(2 * self.window)))
        try:
            pipe.execute()
        except redis.ResponseError as exc:  # full (OOM) or read-only: reads must go on
            with self._lock:
                self._written.pop((game_id, seat), None)  # try again on the next request
            log.warning("presence of game %s not written: %s", game_id, type(exc).__name__)

    def connected(self, raw: Mapping[bytes, bytes], seats: int,
                  now: float | None = None) -> list[bool]:
        """Per seat, whether ``raw`` (the presence hash) saw it within the window."""
        now = time.time() if now is None else now
        seen = {int(k): float(v) for k, v in raw.items()}
        return [now - seen.get(seat, float("-inf")) < self.window for seat in range(seats)]
