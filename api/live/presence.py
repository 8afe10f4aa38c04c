"""Presence: when each seat of a game was last seen, so a view can say who is connected.

A seat is *seen* when a request carries its token or while one of its streams is open (a
stream refreshes it at every heartbeat). It counts as ``connected`` for ``window`` seconds
after (``SIXTYSIX_PRESENCE_WINDOW``, default 30).

Storage: in the game's own hash (``sixtysix:game:{id}``, so its slot on a cluster), field
``seen:<seat>`` = Unix time in seconds, so the one ``HGETALL`` that loads a game reads its
presence too. A time older than the window says nothing, and the field goes with the game
when it expires. A write never creates a game's hash: it is a script that sets the field only
while the hash exists. To keep the request path cheap a process writes one seat's time at
most once per :data:`REFRESH` seconds (or a third of the window, if shorter), remembering its
last writes in memory; an action's save carries its seat's write in the same script
(:meth:`api.games.store.GameStore.save`). A write Redis refuses (full, or a read-only
replica) is logged and skipped: a read must not fail for it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import redis

from api.runtime.redis_connect import Client

log = logging.getLogger(__name__)

#: Longest time in seconds between two writes of one seat's last-seen time by one process.
REFRESH: Final = 5.0
#: Seats whose last writes a process remembers; beyond, it forgets them all and starts again.
REMEMBERED: Final = 100_000
#: Game-hash field prefix of a seat's last-seen time (``seen:<seat>``).
SEEN_FIELD: Final = "seen:"

# KEYS: game; ARGV: field, time. Sets the field only while the game exists.
_SEEN: Final = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


@dataclass(slots=True)
class Seen:
    """A seat's last-seen time to write (:meth:`Presence.due`); ``carried`` once a save
    wrote it."""

    seat: int
    when: float
    carried: bool = False

    @property
    def field(self) -> str:
        return f"{SEEN_FIELD}{self.seat}"

    @property
    def value(self) -> str:
        return f"{self.when:.3f}"


class Presence:
    """Last-seen times of seats in ``client``; ``key`` names a game's hash."""

    def __init__(self, client: Client, window: float, key: Callable[[str], str]) -> None:
        if window <= 0:
            raise ValueError("the presence window must be positive")
        self.window = window
        self._key = key
        self._interval = min(REFRESH, window / 3)
        self._written: dict[tuple[str, int], float] = {}
        self._lock = threading.Lock()
        self._write = client.register_script(_SEEN)

    def due(self, game_id: str, seat: int, *, now: float | None = None,
            force: bool = False) -> Seen | None:
        """The write that notes ``seat`` as here now, or ``None`` if this process wrote it
        just before (it is then taken as written: :meth:`write` it, or let a save carry it,
        :meth:`api.games.store.GameStore.save`)."""
        now = time.time() if now is None else now
        with self._lock:
            last = self._written.get((game_id, seat))
            if not force and last is not None and now - last < self._interval:
                return None
            if len(self._written) >= REMEMBERED:
                self._written.clear()
            self._written[(game_id, seat)] = now
        return Seen(seat, now)

    def write(self, game_id: str, seen: Seen) -> None:
        """Write ``seen`` (a refused write is logged and tried again on the next request)."""
        try:
            self._write(keys=[self._key(game_id)], args=[seen.field, seen.value])
        except redis.ResponseError as exc:  # full (OOM) or read-only: reads must go on
            self.unwritten(game_id, seen)
            log.warning("presence of game %s not written: %s", game_id, type(exc).__name__)

    def unwritten(self, game_id: str, seen: Seen) -> None:
        """Forget that ``seen`` was written, so the next request writes it."""
        with self._lock:
            if self._written.get((game_id, seen.seat)) == seen.when:
                del self._written[(game_id, seen.seat)]

    def seen(self, game_id: str, seat: int, *, now: float | None = None,
             force: bool = False) -> None:
        """Note that ``seat`` is here; written unless this process did so just before."""
        found = self.due(game_id, seat, now=now, force=force)
        if found is not None:
            self.write(game_id, found)

    def connected(self, seen: list[bytes | str | None], now: float | None = None,
                  ) -> list[bool]:
        """Per seat, whether its last-seen time (``seen[seat]``: the ``seen:<seat>`` field,
        ``None`` if never) is within the window."""
        now = time.time() if now is None else now
        window = self.window
        return [value is not None and now - float(value) < window for value in seen]
