"""Tour progress in Redis: one hash per player, in the player's slot, never expiring.

``sixtysix:tour:{player_id}`` (:func:`api.keys.tour_key`) — fields ``stamp:<station>`` (Unix seconds
of the first win), ``game:<station>`` (the station's latest game id) and ``token:<station>`` (its
seat token sealed under :func:`api.games.tokens.sealing_key` of the player token, so that the player
resumes the game with his player token alone while Redis never holds the seat token readable).

With a database the stamps are kept there (``loaded`` given): a stamp is noted in the outbox
(:mod:`api.outbox`) for the workers' sweep, and a read that finds :data:`api.keys.TOUR_CACHED`
missing (asked in the same round trip) has every stamp of the database loaded first (the
hashes Redis lost come back).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Final

from api.games.store import text
from api.keys import TOUR_CACHED, tour_key
from api.outbox import FACTS, push, read_cached
from api.runtime.redis_connect import Client

STAMP: Final = "stamp:"


class TourStore:
    """Tour progress through ``client``; ``loaded``: with a database, what loads its stamps
    into Redis when :data:`~api.keys.TOUR_CACHED` is missing (and never raises)."""

    def __init__(self, client: Client, loaded: Callable[[], None] | None = None) -> None:
        self.redis = client
        self.loaded = loaded

    def progress(self, player_id: str) -> dict[str, str]:
        found = read_cached(self.redis, TOUR_CACHED, self.loaded,
                            lambda pipe: pipe.hgetall(tour_key(player_id)))[0]
        return {text(k): text(v) for k, v in found.items()}

    def started(self, player_id: str, station: str, game_id: str, sealed_token: str) -> None:
        self.redis.hset(tour_key(player_id), mapping={f"game:{station}": game_id,
                                                      f"token:{station}": sealed_token})

    def stamp(self, player_id: str, station: str) -> bool:
        """Stamp a station (once: the first win's time stays); whether it was new. With a
        database the stamp is noted for it, also when it was there (a note lost is made
        again)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hsetnx(tour_key(player_id), f"{STAMP}{station}", int(time.time()))
        pipe.hget(tour_key(player_id), f"{STAMP}{station}")
        new, at = pipe.execute()
        if self.loaded is not None:
            push(self.redis, FACTS, json.dumps(
                {"t": "stamp", "player_id": player_id, "station": station, "at": int(at)},
                separators=(",", ":")))
        return bool(new)
