"""A player's finished matches with their results, kept beyond the games' own lifetime.

Keys (built by :mod:`api.keys`, in the player's slot, ``{player_id}``; never expire, at most
:data:`KEEP` matches):

* ``sixtysix:player-history:{player_id}`` — sorted set, all scores 0, members
  ``<13-digit inverted finish ms>:<game_id>`` (newest first; a member is a cursor).
* ``sixtysix:player-history:{player_id}:results`` — hash ``game_id`` -> the result as JSON.

A result is written by one script that adds it only if the game has none yet, so a match is
listed once however often its end is recorded; the same script counts it in the player's
matches played and won (``played:<variant>``, ``won:<variant>`` of his hash, same slot), so the
history is the one source of both, whatever started the match (a table, the tour, a game
against the computer): an aborted match is listed but counted for nobody. The record of play
a result links to (``/v1/games/{id}/record``) lives as long as its game.
"""

from __future__ import annotations

import json
from typing import Any, Final

from api.games.store import text
from api.keys import history_key, player_key, results_key
from api.players.store import game_member
from api.runtime.redis_connect import Client

#: Matches kept per player (the oldest are dropped beyond).
KEEP: Final = 1000

# KEYS: list, results, player; ARGV: game id, result JSON, member, keep, variant, counted
# (1 or 0), won (1 or 0)
_ADD: Final = """
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], 0, ARGV[3])
if ARGV[6] == '1' and redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('HINCRBY', KEYS[3], 'played:' .. ARGV[5], 1)
  if ARGV[7] == '1' then redis.call('HINCRBY', KEYS[3], 'won:' .. ARGV[5], 1) end
end
local keep = tonumber(ARGV[4])
if redis.call('ZCARD', KEYS[1]) > keep then
  for _, old in ipairs(redis.call('ZRANGE', KEYS[1], keep, -1)) do
    redis.call('ZREM', KEYS[1], old)
    redis.call('HDEL', KEYS[2], string.sub(old, 15))
  end
end
return 1
"""


class HistoryStore:
    def __init__(self, client: Client) -> None:
        self.redis = client
        self._add = client.register_script(_ADD)

    def add(self, player_id: str, finished_ms: int, game_id: str, result: dict[str, Any],
            ) -> bool:
        """List a finished match once and count it (unless ``result["result"]`` is
        ``aborted``); False if it was listed before."""
        outcome = result["result"]
        return bool(self._add(keys=[history_key(player_id), results_key(player_id),
                                    player_key(player_id)],
                              args=[game_id, json.dumps(result, separators=(",", ":")),
                                    game_member(finished_ms, game_id), KEEP, result["variant"],
                                    int(outcome != "aborted"), int(outcome == "won")]))

    def page(self, player_id: str, cursor: str | None, limit: int,
             ) -> tuple[list[dict[str, Any]], str | None]:
        """Up to ``limit`` results after ``cursor``, newest first, and the next cursor."""
        low = "-" if cursor is None else f"({cursor}"
        members = [text(m) for m in self.redis.zrangebylex(history_key(player_id), low, "+",
                                                           0, limit)]
        if not members:
            return [], None
        raw = self.redis.hmget(results_key(player_id), [m.partition(":")[2] for m in members])
        results = [json.loads(r) for r in raw if r is not None]
        return results, members[-1] if len(members) == limit else None
