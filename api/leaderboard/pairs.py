"""Rated matches per pair of player accounts: at most :data:`PAIR_LIMIT` started within
:data:`PAIR_WINDOW` seconds; a match beyond plays unrated, and says so.

Why: two accounts of one person can feed one another points and rating match after match
(one resigns, both ask for a rematch). A match left before a hand is settled already places
nobody (:mod:`api.leaderboard.scoring`); this bounds what any amount of quick play between the
same two accounts can be worth, as Lichess bounds repeated pairings. Friends who play each
other all evening are far below the bound (a match to 7 takes minutes, not seconds).

Key (tagged ``{pairs}``, so one script checks and counts every pair of a table at once, also on
Redis Cluster): ``sixtysix:rated-pairs:{pairs}:<a>:<b>`` (``a < b``, player ids;
:func:`api.keys.pair_key`) — sorted set of the pair's rated game ids scored by their start (Unix
ms), trimmed to the window whenever a match starts and expiring a window after the last one, so it
holds at most :data:`PAIR_LIMIT` members.

:func:`admit` is idempotent per game id: a table change retried after a concurrent change
starts the same game id again and gets the same answer, counted once.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from typing import Final

from api.keys import pair_key
from api.runtime.redis_connect import Client

#: Rated matches a pair of player accounts may start within :data:`PAIR_WINDOW` seconds.
PAIR_LIMIT: Final = 10
#: The window of :data:`PAIR_LIMIT`, in seconds (24 hours, rolling).
PAIR_WINDOW: Final = 24 * 3600

# KEYS: the pairs' sets; ARGV: game id, now (ms), window (ms), limit.
# 1: admitted (now or before), 0: a pair is at its limit (nothing written)
_ADMIT: Final = """
local cutoff = tonumber(ARGV[2]) - tonumber(ARGV[3])
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff)
  if redis.call('ZSCORE', key, ARGV[1]) then return 1 end
end
for _, key in ipairs(KEYS) do
  if redis.call('ZCARD', key) >= tonumber(ARGV[4]) then return 0 end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[1])
  redis.call('PEXPIRE', key, ARGV[3])
end
return 1
"""


def unrated_reason() -> str:
    """What a match beyond the bound says about itself."""
    hours = PAIR_WINDOW // 3600
    return (f"unrated: two of these players have started {PAIR_LIMIT} rated matches together "
            f"within {hours} hours, the most that count; matches between them count again "
            f"as the oldest of those leave the {hours}-hour window")


def admit(client: Client, game_id: str, players: Sequence[str | None],
          now: float | None = None) -> bool:
    """Whether the match ``game_id`` of these seats' players (``None``: a computer) may be
    rated, counting it for every pair of them if so (a single player: always)."""
    ids = sorted({p for p in players if p is not None})
    keys = [pair_key(a, b) for a, b in itertools.combinations(ids, 2)]
    if not keys:
        return True
    ms = int((time.time() if now is None else now) * 1000)
    script = client.register_script(_ADMIT)
    return bool(script(keys=keys, args=[game_id, ms, PAIR_WINDOW * 1000, PAIR_LIMIT]))
