"""Tour progress in Redis: one hash per player, in the player's slot, never expiring.

``sixtysix:tour:{player_id}`` (:func:`api.keys.tour_key`) — fields ``stamp:<station>`` (Unix seconds
of the first win), ``game:<station>`` (the station's latest game id) and ``token:<station>`` (its
seat token sealed under :func:`api.games.tokens.sealing_key` of the player token, so that the player
resumes the game with his player token alone while Redis never holds the seat token readable).
"""

from __future__ import annotations

import time
from typing import Final

from api.games.store import text
from api.keys import tour_key
from api.runtime.redis_connect import Client

STAMP: Final = "stamp:"


class TourStore:
    def __init__(self, client: Client) -> None:
        self.redis = client

    def progress(self, player_id: str) -> dict[str, str]:
        return {text(k): text(v) for k, v in self.redis.hgetall(tour_key(player_id)).items()}

    def started(self, player_id: str, station: str, game_id: str, sealed_token: str) -> None:
        self.redis.hset(tour_key(player_id), mapping={f"game:{station}": game_id,
                                                      f"token:{station}": sealed_token})

    def stamp(self, player_id: str, station: str) -> bool:
        """Stamp a station (once: the first win's time stays); whether it was new."""
        return bool(self.redis.hsetnx(tour_key(player_id), f"{STAMP}{station}",
                                      int(time.time())))
