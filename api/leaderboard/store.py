"""The leaderboard in Redis: sorted sets per period, variant and kind, in one slot.

Keys (built by :mod:`api.keys`; all tagged ``{leaderboard}``, so one script can write them
together, also on Redis Cluster; a board write is a few ``ZINCRBY`` per settled hand, well
within one shard):

* ``sixtysix:leaderboard:{leaderboard}:<kind>:all:<variant or all>`` — sorted set, member the
  player id, score the points. Never expires.
* ``sixtysix:leaderboard:{leaderboard}:<kind>:month:<YYYY-MM>:<variant or all>`` — the same
  for a calendar month (UTC); expires :data:`MONTH_TTL` after its last write.
* ``sixtysix:leaderboard:{leaderboard}:hands-won`` — hash ``<player_id>:<variant>`` -> hands
  won in rated games.
* ``sixtysix:leaderboard:{leaderboard}:done:<game_id>`` — hash of the awards of a game already
  counted (``hand:3``, ``match:1``); expires with the game (``SIXTYSIX_GAME_TTL``) plus a day.

:meth:`LeaderboardStore.apply` is one script: it sets the award's marker and makes the
increments only if the marker was not set, so two requests settling the same hand at once, or a
worker retrying a save, count it once.

With a database (``loaded`` given: :class:`api.archive.durable.Cache`), these keys are a cache
of its tables: reads and awards first make sure it was loaded from the database, and the
script also pushes each award counted to the slot's outbox (:mod:`api.outbox`), for the
workers' sweep to write to the database.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, cast

from api.games.store import text
from api.keys import LEADERBOARD_TAG, awards_marker_key, board_key, hands_key, slot_meta_key
from api.outbox import LEADERBOARD, NOTE_LUA, OUTBOX_CAP, read_cached
from api.runtime.redis_connect import Client

#: Seconds a month's board lives after its last write (about four months).
MONTH_TTL: Final = 120 * 86400
#: Seconds a game's markers outlive the game's own TTL.
MARKER_GRACE: Final = 86400
PERIODS: Final = ("all", "month")
ALL: Final = "all"

# KEYS: marker hash, outbox, its overflow counter, the slot's cached flag, targets...; ARGV:
# field, marker ttl, month ttl, outbox entry ('' for none), outbox cap, '1' to answer -2 when
# the cache is not loaded, then per operation four values: target index (1-based among the
# targets), op ('z', 'm': board of a month, 'h': hash), member, increment
_APPLY: Final = NOTE_LUA + """
if ARGV[6] == '1' and redis.call('EXISTS', KEYS[4]) == 0 then return -2 end
if redis.call('HSETNX', KEYS[1], ARGV[1], 1) == 0 then return 0 end
redis.call('EXPIRE', KEYS[1], ARGV[2])
for i = 7, #ARGV, 4 do
  local key = KEYS[tonumber(ARGV[i]) + 4]
  local op = ARGV[i + 1]
  if op == 'h' then
    redis.call('HINCRBY', key, ARGV[i + 2], ARGV[i + 3])
  else
    redis.call('ZINCRBY', key, ARGV[i + 3], ARGV[i + 2])
    if op == 'm' then redis.call('EXPIRE', key, ARGV[3]) end
  end
end
note(KEYS[2], KEYS[3], ARGV[4], ARGV[5])
return 1
"""


def month_of(seconds: float) -> str:
    """The calendar month (UTC) of a Unix time, as ``YYYY-MM``."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m")


@dataclass(frozen=True, slots=True)
class Increment:
    """Points (and hands won) of one player from one award."""

    player_id: str
    kind: str
    points: int
    hands_won: int


class LeaderboardStore:
    """The boards through ``client``; ``loaded``: with a database, what loads the cache from
    it when missing (and never raises), and each award is noted in the outbox."""

    def __init__(self, client: Client, game_ttl: int = 0,
                 loaded: Callable[[], None] | None = None) -> None:
        self.redis = client
        self.marker_ttl = game_ttl + MARKER_GRACE
        self.loaded = loaded
        self._apply = client.register_script(_APPLY)

    def ready(self) -> None:
        """Make sure the cache holds the database's boards (a no-op without a database)."""
        if self.loaded is not None:
            self.loaded()

    def _read(self, queue: Callable[[Any], object]) -> list[Any]:
        """The answers of ``queue``'s reads, the cache loaded first if it was lost."""
        return read_cached(self.redis, slot_meta_key(LEADERBOARD_TAG, "cached"), self.loaded,
                           queue)

    def apply(self, game_id: str, marker: str, variant: str, month: str,
              increments: list[Increment]) -> bool:
        """Count one award of a game once; False if it was counted before. With a database,
        the script answers -2 while the cache is not loaded: it is loaded, and the award
        counted then (or anyway, the database down)."""
        targets: list[str] = []
        ops: list[str | int] = []

        def target(key: str) -> int:
            if key not in targets:
                targets.append(key)
            return targets.index(key) + 1

        for inc in increments:
            if inc.points:
                for v in (None, variant):
                    ops += [target(board_key(inc.kind, ALL, v)), "z", inc.player_id, inc.points]
                    ops += [target(board_key(inc.kind, "month", v, month)), "m",
                            inc.player_id, inc.points]
            if inc.hands_won:
                ops += [target(hands_key()), "h", f"{inc.player_id}:{variant}", inc.hands_won]
        entry = "" if self.loaded is None else json.dumps(
            {"game": game_id, "marker": marker, "variant": variant, "month": month,
             "inc": [[i.player_id, i.kind, i.points, i.hands_won] for i in increments]},
            separators=(",", ":"))
        keys = [awards_marker_key(game_id), LEADERBOARD.key, LEADERBOARD.overflow,
                slot_meta_key(LEADERBOARD_TAG, "cached"), *targets]
        for check in ("1", "0") if entry else ("0",):
            done = int(self._apply(keys=keys, args=[marker, self.marker_ttl, MONTH_TTL, entry,
                                                    OUTBOX_CAP, check, *ops]))
            if done != -2:
                break
            self.ready()
        return done == 1

    def page(self, key: str, offset: int, limit: int) -> list[tuple[str, int]]:
        """Up to ``limit`` (player id, points) from rank ``offset`` (0 = first), best first."""
        rows = cast(list[tuple[bytes, float]], self._read(lambda pipe: pipe.zrevrange(
            key, offset, offset + limit - 1, withscores=True))[0])
        return [(text(member), int(score)) for member, score in rows]

    def standing(self, key: str, player_id: str) -> tuple[int, int] | None:
        """(points, rank) of a player on a board, or ``None`` if he is not on it. The rank is
        1 + the number of players with more points (level players share a rank)."""
        score = self.redis.zscore(key, player_id)
        if score is None:
            return None
        return int(score), self.rank_of_points(key, int(score))

    def rank_of_points(self, key: str, points: int) -> int:
        """1 + the number of players on the board with more than ``points``."""
        return int(self.redis.zcount(key, f"({points}", "+inf")) + 1

    def hands_won(self, player_id: str, variants: list[str]) -> dict[str, int]:
        fields = [f"{player_id}:{v}" for v in variants]
        values = self._read(lambda pipe: pipe.hmget(hands_key(), fields))[0]
        return {v: int(x or 0) for v, x in zip(variants, values, strict=True)}
