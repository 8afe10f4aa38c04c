"""Tour progress in Redis: one hash per player, in the player's slot, never expiring.

``sixtysix:tour:{player_id}`` (:func:`api.keys.tour_key`) — fields ``stamp:<station>`` (Unix seconds
of the first win), ``game:<station>`` (the station's latest game id) and ``token:<station>`` (its
seat token sealed under :func:`api.games.tokens.sealing_key` of the player token, so that the player
resumes the game with his player token alone while Redis never holds the seat token readable).

With a database the stamps are kept there (``stamps_of`` given): a stamp is noted in the outbox
(:mod:`api.outbox`) for the workers' sweep, and a player's hash without the field ``loaded``
takes the database's stamps on its first read (a hash Redis lost comes back).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Final

from api.games.store import text
from api.keys import tour_key
from api.outbox import FACTS, push
from api.runtime.redis_connect import Client

STAMP: Final = "stamp:"
#: The field set once a player's hash holds the database's stamps.
LOADED: Final = "loaded"


class TourStore:
    """Tour progress through ``client``; ``stamps_of``: with a database, a player's stamps
    there (station -> Unix seconds; ``None`` when it cannot be reached)."""

    def __init__(self, client: Client,
                 stamps_of: Callable[[str], dict[str, int] | None] | None = None) -> None:
        self.redis = client
        self.stamps_of = stamps_of

    def progress(self, player_id: str) -> dict[str, str]:
        key = tour_key(player_id)
        found = {text(k): text(v) for k, v in self.redis.hgetall(key).items()}
        if self.stamps_of is None or LOADED in found:
            return found
        kept = self.stamps_of(player_id)
        if kept is None:
            return found
        pipe = self.redis.pipeline(transaction=False)
        for station, at in kept.items():
            pipe.hsetnx(key, f"{STAMP}{station}", at)
        pipe.hset(key, LOADED, 1)
        pipe.hgetall(key)
        return {text(k): text(v) for k, v in pipe.execute()[-1].items()}

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
        if self.stamps_of is not None:
            push(self.redis, FACTS, json.dumps(
                {"t": "stamp", "player_id": player_id, "station": station, "at": int(at)},
                separators=(",", ":")))
        return bool(new)
