"""Players in Redis: one hash per player, a name index, a token index, the player's games.

Keys (built by :mod:`api.keys`; ``{player_id}`` is a hash tag: a player's own keys share a slot):

* ``sixtysix:player:{player_id}`` — hash: ``name``, ``kind`` (``human`` or ``bot``),
  ``created_at`` (Unix seconds), ``token_sha256``, and per variant ``played:<variant>`` and
  ``won:<variant>`` (matches). Never expires.
* ``sixtysix:player-name:{<sha256 of the case-folded name>}`` — the player id owning a name.
* ``sixtysix:player-skeleton:{<sha256 of the name's skeleton>}`` — the player id owning a
  name's look-alikes (:func:`api.players.skeleton.skeleton`).
* ``sixtysix:player-skeletons-indexed`` — set once every player stored before the skeleton
  index has his skeleton (:meth:`PlayerStore.index_skeletons`).
* ``sixtysix:player-token:{<sha256 of the token>}`` — the player id of a token (the token
  itself is never stored).
* ``sixtysix:player-games:{player_id}:active`` and ``…:finished`` — sorted sets of the
  player's games, all scores 0, members ``<13-digit inverted start ms>:<game_id>``, so that
  lexicographic order is newest first and a member is a cursor (``ZRANGEBYLEX``).

With the archive's database (``DATABASE_URL``) the database holds the players
(:mod:`api.players.records`: a player is written there at his creation, whose name it makes
unique) and the player's hash (without counts) and token key are a cache of it: they live
:data:`CACHE_TTL` seconds, and a lookup that misses Redis reads the database and caches the
player again (a player's row never changes, so a cached one is never stale). The name and
skeleton keys are then not written.

A table's finished match moves from the active set to the finished set (:meth:`PlayerStore.
finish_game`); the counts of matches played and won are written with the player's history,
once per match, for every match with players (:mod:`api.players.history`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import redis

from api.errors import FieldError
from api.games.store import text
from api.keys import (
    INDEXED_KEY,
    PLAYER_KEYS,
    games_key,
    name_key,
    player_key,
    skeleton_key,
    token_key,
)
from api.runtime.redis_connect import Client

if TYPE_CHECKING:
    from api.players.records import PlayerRecords

log = logging.getLogger(__name__)

#: Seconds a player's cached hash and token key live in Redis when the database holds him
#: (a week: an active player costs a database read a week).
CACHE_TTL: Final = 7 * 86400
#: Inverted timestamps: ``INVERT - ms`` sorts newer first in lexicographic order.
INVERT: Final = 10**13
#: Player lists a player's games may be in.
LISTS: Final = ("active", "finished")

# KEYS: active, finished; ARGV: member
_FINISH: Final = """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], 'NX', 0, ARGV[1])
"""


class NameTaken(Exception):
    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"the name {name!r} is taken, or looks like one that is (names are "
                         "unique without regard to case or to look-alike letters)")


@dataclass(frozen=True, slots=True)
class Player:
    player_id: str
    name: str
    kind: str
    created_at: int
    token_sha256: str
    #: variant -> (matches played, matches won)
    stats: dict[str, tuple[int, int]]


# KEYS: a claimed index key; ARGV: the player id. Deletes the key only if it is his.
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def game_member(started_ms: int, game_id: str) -> str:
    """The sorted-set member (and cursor) of a game started at ``started_ms``."""
    return f"{INVERT - started_ms:013d}:{game_id}"


def cursor_of(member_text: str) -> tuple[int, str]:
    """The ``(ms, game id)`` of a member or cursor (``<13 digits>:<game id>``); a 422 on
    ``cursor`` for anything else."""
    head, colon, game_id = member_text.partition(":")
    if not (colon and len(head) == 13 and head.isascii() and head.isdigit()):
        raise FieldError("cursor", "not a cursor of this list (give its next_cursor)")
    return INVERT - int(head), game_id


class PlayerStore:
    """Players in Redis, or cached there from ``records`` (the database) when there is one."""

    def __init__(self, client: Client, records: PlayerRecords | None = None) -> None:
        self.redis = client
        self.records = records
        self._finish = client.register_script(_FINISH)
        self._release = client.register_script(_RELEASE)
        self._indexed = False

    def create(self, player: Player) -> None:
        """Store a new player; :class:`NameTaken` if his name or a look-alike is another's.
        With the database the player is written there first (a 503
        :class:`~api.archive.errors.ArchiveUnavailable` if it is down: a player whose token
        is shown must outlive Redis), then cached."""
        if self.records is None:
            self._create_in_redis(player)
            return
        self.records.create(player)
        try:
            self.cache(player)
        except redis.RedisError as exc:  # the next lookup reads the database
            log.warning("player %s created, not cached (%s)", player.player_id,
                        type(exc).__name__)

    def cache(self, player: Player) -> None:
        """Cache a player of the database: his hash and token key, for :data:`CACHE_TTL`."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(player_key(player.player_id), mapping={
            "name": player.name, "kind": player.kind, "created_at": player.created_at,
            "token_sha256": player.token_sha256})
        pipe.expire(player_key(player.player_id), CACHE_TTL)
        pipe.set(token_key(player.token_sha256), player.player_id, ex=CACHE_TTL)
        pipe.execute()

    def _create_in_redis(self, player: Player) -> None:
        """Claim the name's skeleton and the name, then write the player and its token index;
        :class:`NameTaken` if either claim fails.

        Each claim is one ``SET NX``, so of two look-alikes sent at once one claims the
        skeleton and the other is refused. The claims, the player and the token live in
        different slots: if a step after a claim fails, the claims made are released (each
        only if it is still this player's), so no name is held by nobody.
        """
        self.index_skeletons()
        claimed: list[str] = []
        try:
            for key in (skeleton_key(player.name), name_key(player.name)):
                if not self.redis.set(key, player.player_id, nx=True):
                    raise NameTaken(player.name)
                claimed.append(key)
            self.redis.hset(player_key(player.player_id), mapping={
                "name": player.name, "kind": player.kind, "created_at": player.created_at,
                "token_sha256": player.token_sha256})
            self.redis.set(token_key(player.token_sha256), player.player_id)
        except BaseException:
            for key in claimed:
                self.release(key, player.player_id)
            raise

    def release(self, key: str, player_id: str) -> None:
        """Delete a name or skeleton claim if it is the player's."""
        self._release(keys=[key], args=[player_id])

    def index_skeletons(self) -> None:
        """Give every player stored before the skeleton index his skeleton, once: the first
        creation in a process checks the flag key; without it this process scans the players
        (``SET NX``: repeating it, or running it in several processes at once, is harmless),
        then sets the flag. Of two stored look-alikes the first scanned keeps the skeleton;
        both keep their names."""
        if self._indexed or self.redis.exists(INDEXED_KEY):
            self._indexed = True
            return
        for raw in self.redis.scan_iter(match=PLAYER_KEYS, count=1000):
            key = text(raw)
            name = self.redis.hget(key, "name")
            if name is not None:
                player_id = key[len(PLAYER_KEYS) - 2:-1]
                self.redis.set(skeleton_key(text(name)), player_id, nx=True)
        self.redis.set(INDEXED_KEY, "1")
        self._indexed = True

    def load(self, player_id: str) -> Player | None:
        """The player, from Redis or (missing there) the database, cached again."""
        raw = self.redis.hgetall(player_key(player_id))
        if "name" not in {text(k) for k in raw}:
            return self._from_records(self.records.load(player_id) if self.records else None)
        fields = {text(k): text(v) for k, v in raw.items()}
        variants = {k.partition(":")[2] for k in fields if k.startswith("played:")}
        return Player(player_id, fields["name"], fields["kind"], int(fields["created_at"]),
                      fields["token_sha256"],
                      {v: (int(fields[f"played:{v}"]), int(fields.get(f"won:{v}", 0)))
                       for v in variants})

    def names(self, player_ids: list[str]) -> dict[str, str]:
        """The names of those of ``player_ids`` that exist (one round trip)."""
        if not player_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hget(player_key(player_id), "name")
        found = {i: text(n) for i, n in zip(player_ids, pipe.execute(), strict=True)
                 if n is not None}
        missed = [i for i in player_ids if i not in found]
        if missed and self.records is not None:
            found.update(self.records.names(missed))
        return found

    def by_token(self, token_sha256: str) -> Player | None:
        """The player whose token has this digest (the caller compares it in constant time),
        from Redis or (missing there) the database, cached again."""
        player_id = self.redis.get(token_key(token_sha256))
        if player_id is not None:
            return self.load(text(player_id))
        return self._from_records(self.records.by_token(token_sha256) if self.records else None)

    def _from_records(self, player: Player | None) -> Player | None:
        """A player the database answered, cached (a failure to cache is only logged)."""
        if player is not None:
            try:
                self.cache(player)
            except redis.RedisError as exc:
                log.warning("player %s read, not cached (%s)", player.player_id,
                            type(exc).__name__)
        return player

    def add_game(self, player_id: str, started_ms: int, game_id: str) -> None:
        """List a started game as the player's (idempotent)."""
        self.redis.zadd(games_key(player_id, "active"), {game_member(started_ms, game_id): 0},
                        nx=True)

    def finish_game(self, player_id: str, started_ms: int, game_id: str) -> None:
        """Move a finished game from the player's active list to his finished one (one
        script: the game is always in one of them)."""
        self._finish(keys=[games_key(player_id, "active"), games_key(player_id, "finished")],
                     args=[game_member(started_ms, game_id)])

    def games(self, player_id: str, which: str, cursor: str | None, limit: int) -> list[str]:
        """Up to ``limit`` members of a game list after ``cursor`` (newest first). With the
        database the finished list is its matches at tables and those Redis still lists
        (not yet archived); a member in both is listed once, and leaves Redis."""
        low = "-" if cursor is None else f"({cursor}"
        members = [text(m) for m in self.redis.zrangebylex(games_key(player_id, which), low,
                                                            "+", 0, limit)]
        if self.records is None or which != "finished":
            return members
        kept = self.records.table_games(player_id, None if cursor is None else
                                        cursor_of(cursor), limit)
        archived = set(members) & set(kept)
        if archived:  # the table's step ran again after the archive: Redis lists it again
            self.redis.zrem(games_key(player_id, which), *archived)
        return sorted(set(members) | set(kept))[:limit]

    def forget_game(self, player_id: str, which: str, member: str) -> None:
        """Drop a listed game that no longer exists (expired)."""
        self.redis.zrem(games_key(player_id, which), member)
