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

With the archive's database (``DATABASE_URL``) the database holds the histories
(``player_results``, :mod:`api.players.records`), every match kept; Redis holds only the
results of matches not yet archived: the archive's sweep writes them in the transaction
that archives the game (:meth:`api.archive.store.Archive.put`), then removes them from Redis
(:meth:`HistoryStore.forget`). A page and the counts are the union of both (a match in both
is listed once, as the database has it: a match recorded again after its archive, which
Redis lists again until the next sweep, too), so a match that just ended is listed at once;
the player's hash counts nothing then (the database's rows are the counts).
"""

from __future__ import annotations

import json
from typing import Any, Final

from api.games.store import text
from api.keys import history_key, player_key, results_key
from api.players.records import PlayerRecords
from api.players.store import Player, cursor_of, game_member
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
    """Histories in Redis, or in ``records`` (the database) and Redis until archived."""

    def __init__(self, client: Client, records: PlayerRecords | None = None) -> None:
        self.redis = client
        self.records = records
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
                                    int(outcome != "aborted" and self.records is None),
                                    int(outcome == "won")]))

    def page(self, player_id: str, cursor: str | None, limit: int,
             ) -> tuple[list[dict[str, Any]], str | None]:
        """Up to ``limit`` results after ``cursor``, newest first, and the next cursor."""
        pending = self.members(player_id, cursor, limit)
        if self.records is None:
            members = list(pending)
            results = [r for r in pending.values() if r is not None]
        else:  # the Redis members read first: one archived meanwhile is in the database
            kept = self.records.listed(player_id, [m.partition(":")[2] for m in pending])
            merged = {m: r for m, r in pending.items()
                      if r is not None and m.partition(":")[2] not in kept}
            merged.update(self.records.page(
                player_id, None if cursor is None else cursor_of(cursor), limit))
            members = sorted(merged)[:limit]
            results = [merged[m] for m in members]
        return results, members[-1] if len(members) == limit else None

    def members(self, player_id: str, cursor: str | None, limit: int | None,
                 ) -> dict[str, dict[str, Any] | None]:
        """Up to ``limit`` (``None``: all) Redis members after ``cursor`` with their results
        (``None``: missing), in order."""
        low = "-" if cursor is None else f"({cursor}"
        members = [text(m) for m in self.redis.zrangebylex(
            history_key(player_id), low, "+", *(() if limit is None else (0, limit)))]
        if not members:
            return {}
        raw = self.redis.hmget(results_key(player_id), [m.partition(":")[2] for m in members])
        return {m: None if r is None else json.loads(r) for m, r in zip(members, raw,
                                                                         strict=True)}

    def pending(self, player_id: str, game_id: str) -> tuple[str, dict[str, Any]] | None:
        """The Redis member and result of one of the player's matches, if Redis holds it."""
        raw = self.redis.hget(results_key(player_id), game_id)
        if raw is None:
            return None
        suffix = f":{game_id}"
        for member in self.members(player_id, None, None):
            if member.endswith(suffix):
                return member, json.loads(raw)
        return None

    def forget(self, player_id: str, member: str) -> None:
        """Remove a match from the player's Redis history (once the database holds it)."""
        pipe = self.redis.pipeline(transaction=True)  # one slot: the player's
        pipe.zrem(history_key(player_id), member)
        pipe.hdel(results_key(player_id), member.partition(":")[2])
        pipe.execute()

    def stats(self, player: Player) -> dict[str, tuple[int, int]]:
        """Per variant the player's matches played and won: his hash's counts, or with the
        database its rows' and those of the matches Redis holds that it lacks."""
        if self.records is None:
            return player.stats
        pending = {m.partition(":")[2]: r
                   for m, r in self.members(player.player_id, None, None).items()
                   if r is not None}
        counts = self.records.stats(player.player_id, besides=pending)
        for result in pending.values():
            if result["result"] == "aborted":
                continue
            played, won = counts.get(result["variant"], (0, 0))
            counts[result["variant"]] = (played + 1, won + (result["result"] == "won"))
        return counts
