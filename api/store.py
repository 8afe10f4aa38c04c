"""Games in Redis: one hash per game, its event log, idempotency records, change notices.

Keys (``{id}`` is a Redis Cluster hash tag, so all keys of one game share a slot):

* ``sixtysix:game:{id}`` — hash: ``v`` version, ``state`` (engine JSON), ``meta`` (seats with
  token digests, table settings), ``n`` events logged, ``recent`` (the last save's events).
* ``sixtysix:events:{id}`` — list of events, full form (private parts included), ``seq`` 1, 2…
* ``sixtysix:idem:{id}:<sha256 of key>`` — a replayable response of an action.
* channel ``sixtysix:notify:{id}`` — the new version, published on every save.

:meth:`GameStore.save` is one round trip: a Lua script registered once compares the version,
writes the state, appends the events, stores the idempotency record, refreshes the TTLs and
publishes the new version, or changes nothing and reports a :class:`VersionConflict`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from api.redis_connect import Client
from engine import Event, GameState, from_json, to_json

PREFIX: Final = "sixtysix"
NOTIFY_PATTERN: Final = f"{PREFIX}:notify:*"

# KEYS: game, events[, idem]; ARGV: expected version, new version, ttl, state, meta ('' keeps),
# recent, event count, notify channel, idem record, idem ttl, events...
_SAVE: Final = """
local cur = redis.call('HGET', KEYS[1], 'v')
local expected = tonumber(ARGV[1])
if expected == 0 then
  if cur then return {0, tonumber(cur)} end
elseif not cur then
  return {-1, 0}
elseif tonumber(cur) ~= expected then
  return {0, tonumber(cur)}
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'state', ARGV[4], 'recent', ARGV[6], 'n', ARGV[7])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'meta', ARGV[5]) end
if #ARGV > 10 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 11, #ARGV)) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
if #KEYS > 2 then redis.call('SET', KEYS[3], ARGV[9], 'EX', ARGV[10]) end
redis.call('PUBLISH', ARGV[8], ARGV[2])
return {1, tonumber(ARGV[2])}
"""


class StoreError(Exception):
    """Base class of the store's errors."""


class GameNotFound(StoreError):
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"no game {game_id!r} (unknown or expired)")


class VersionConflict(StoreError):
    """The game changed since it was loaded: nothing was written."""

    def __init__(self, game_id: str, expected: int, current: int) -> None:
        self.game_id = game_id
        self.expected = expected
        self.current = current
        super().__init__(
            f"game {game_id!r} is at version {current}, not {expected}: reload and retry"
        )


def game_key(game_id: str) -> str:
    return f"{PREFIX}:game:{{{game_id}}}"


def events_key(game_id: str) -> str:
    return f"{PREFIX}:events:{{{game_id}}}"


def notify_channel(game_id: str) -> str:
    return f"{PREFIX}:notify:{{{game_id}}}"


def idem_key(scope: str, key: str) -> str:
    """Idempotency record key; the client's key is hashed, so any text is safe in it."""
    return f"{PREFIX}:idem:{{{scope}}}:{hashlib.sha256(key.encode()).hexdigest()}"


def game_id_of_channel(channel: bytes | str) -> str:
    text = channel.decode() if isinstance(channel, bytes) else channel
    return text[text.index("{") + 1 : text.rindex("}")]


@dataclass(frozen=True, slots=True)
class Logged:
    """An event with its sequence number in the game's log."""

    seq: int
    event: Event

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"seq": self.seq, **self.event.for_seat(seat)}

    def to_json(self) -> str:
        return json.dumps({"seq": self.seq, **self.event.to_dict()}, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Logged:
        return cls(data["seq"], Event.from_dict(data))

    @classmethod
    def from_json(cls, text: str | bytes) -> Logged:
        return cls.from_dict(json.loads(text))


@dataclass(slots=True)
class Game:
    """A loaded game: engine state plus what the service keeps beside it."""

    game_id: str
    version: int
    state: GameState
    meta: dict[str, Any]
    event_count: int
    recent: list[Logged]


@dataclass(frozen=True, slots=True)
class IdempotentWrite:
    """An idempotency record saved with a game; ``record`` builds it from the saved game.

    ``fingerprint`` identifies the request the record answers.
    """

    key: str
    record: Callable[[Game], dict[str, Any]]
    ttl: int
    fingerprint: str


class GameStore:
    def __init__(self, client: Client, ttl: int) -> None:
        self.redis = client
        self.ttl = ttl
        self._save = client.register_script(_SAVE)

    def load(self, game_id: str) -> Game:
        raw = self.redis.hgetall(game_key(game_id))
        if not raw:
            raise GameNotFound(game_id)
        return Game(
            game_id=game_id,
            version=int(raw[b"v"]),
            state=from_json(raw[b"state"]),
            meta=json.loads(raw[b"meta"]),
            event_count=int(raw[b"n"]),
            recent=[Logged.from_dict(e) for e in json.loads(raw[b"recent"])],
        )

    def version(self, game_id: str) -> int:
        raw = self.redis.hget(game_key(game_id), "v")
        if raw is None:
            raise GameNotFound(game_id)
        return int(raw)

    def meta(self, game_id: str) -> dict[str, Any]:
        raw = self.redis.hget(game_key(game_id), "meta")
        if raw is None:
            raise GameNotFound(game_id)
        meta: dict[str, Any] = json.loads(raw)
        return meta

    def create(self, game_id: str, state: GameState, meta: dict[str, Any],
               events: list[Event]) -> Game:
        """Write a new game at version 1; :class:`VersionConflict` if the id is taken."""
        game = Game(game_id, 0, state, meta, 0, [])
        return self.save(game, events, write_meta=True)

    def save(self, game: Game, events: list[Event], *, write_meta: bool = False,
             idempotent: IdempotentWrite | None = None) -> Game:
        """Save ``game.state`` as version ``game.version + 1`` with ``events`` appended."""
        logged = [Logged(game.event_count + i, e) for i, e in enumerate(events, 1)]
        saved = Game(game.game_id, game.version + 1, game.state, game.meta,
                     game.event_count + len(logged), logged)
        lines = [e.to_json() for e in logged]
        keys = [game_key(game.game_id), events_key(game.game_id)]
        args: list[str | int] = [
            game.version, game.version + 1, self.ttl, to_json(game.state),
            json.dumps(game.meta, separators=(",", ":")) if write_meta else "",
            "[" + ",".join(lines) + "]", game.event_count + len(logged),
            notify_channel(game.game_id), "", 0, *lines,
        ]
        if idempotent is not None:
            keys.append(idempotent.key)
            args[8] = json.dumps(idempotent.record(saved), separators=(",", ":"))
            args[9] = idempotent.ttl
        status, current = self._save(keys=keys, args=args)
        if status == -1:
            raise GameNotFound(game.game_id)
        if status == 0:
            raise VersionConflict(game.game_id, game.version, int(current))
        return saved

    def events(self, game_id: str, after: int, limit: int) -> tuple[dict[str, Any], int,
                                                                    list[Logged]]:
        """The game's meta, event count, and up to ``limit`` events with ``seq > after``."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(game_key(game_id), "meta", "n")
        pipe.lrange(events_key(game_id), after, after + limit - 1)
        (meta, count), lines = pipe.execute()
        if meta is None:
            raise GameNotFound(game_id)
        return json.loads(meta), int(count), [Logged.from_json(line) for line in lines]

    def all_events(self, game: Game) -> list[Logged]:
        """Every event of ``game`` up to its loaded version (the log only grows, so the first
        ``event_count`` entries are those of the loaded state)."""
        if game.event_count == 0:
            return []
        lines = self.redis.lrange(events_key(game.game_id), 0, game.event_count - 1)
        return [Logged.from_json(line) for line in lines]

    def get_record(self, key: str) -> dict[str, Any] | None:
        raw = self.redis.get(key)
        return None if raw is None else dict(json.loads(raw))

    def put_record(self, key: str, record: dict[str, Any], ttl: int, *, only_new: bool) -> bool:
        """Store an idempotency record; with ``only_new`` only if the key is free."""
        done = self.redis.set(key, json.dumps(record, separators=(",", ":")), ex=ttl,
                              nx=only_new)
        return bool(done)

    def delete_record(self, key: str) -> None:
        self.redis.delete(key)
