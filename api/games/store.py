"""Games in Redis: one hash per game, its event log, idempotency records, change notices.

Keys (built by :mod:`api.keys`; ``{id}`` is a Redis Cluster hash tag, so all keys of one game
share a slot; the game of a table, id ``<table_id>.<n>``, is tagged ``{<table_id>}.<n>``, so
it shares the table's slot and a table's start writes the table and its new game in one
script, see :mod:`api.tables.store`):

* ``sixtysix:game:{id}`` — hash: ``v`` version, ``state`` (engine JSON), ``meta`` (seats with
  token digests, table settings), ``n`` events logged, ``recent`` (the last save's events),
  and for a table's game ``seat_token:<seat>`` per human seat once its player fetched it:
  ``<sha256 of the seat token>:<the token sealed under the player's token>`` (see
  :meth:`GameStore.claim_seat_token`; :meth:`GameStore.load` puts the digest in the seat);
  ``chats`` chat messages logged (absent: none); ``seen:<seat>`` the Unix time the seat was
  last seen (see :mod:`api.live.presence`), read with the game by the same ``HGETALL``.
* ``sixtysix:events:{id}`` — list of events, full form (private parts included), ``seq`` 1, 2…;
  the engine's events and the seats' ``chat`` messages (:mod:`api.live.chat`) in one sequence.
  Settled hands are packed: the list's first items are each a compressed JSON array
  (:mod:`api.games.packed`) of the events of one or more whole hands (up to a
  ``hand_settled``, chat messages included), the game hash's ``packed`` field lists their
  last ``seq`` (``"23,51"``; absent: none), and the rest of the list is one event a line
  (see :meth:`GameStore.pack`).
* ``sixtysix:marks:{id}`` — hash of the game's idempotency records, field the first 16 bytes
  of the SHA-256 of an ``Idempotency-Key`` (:func:`api.keys.mark_field`): an action's status
  and mark (:mod:`api.http.idempotency`), or the ``seq`` of the chat message a key logged;
  the hash lives ``SIXTYSIX_IDEMPOTENCY_TTL`` after its last record, so every record at
  least that long. One key per game: a record costs its field and value (some 170 bytes of
  ``MEMORY USAGE``), where a key of its own cost 250 (:class:`MarkSlot`).
* ``sixtysix:idem:{id}:<sha256 of key>`` — the same record in the layout before the hash:
  read, never written, so a record a server wrote before it is honoured for its day.
* ``sixtysix:write:{id}:<write id>`` (:func:`api.unique.new_id`) — the outcome of one
  save: the version it wrote (of a chat message: its ``seq``; kept :data:`WRITE_TTL`
  seconds), or ``fenced`` (kept as long as a game) once it may never apply.
* ``sixtysix:ticket:{id}:<sha256 of ticket>`` — a stream ticket: the seat it admits, for
  :data:`TICKET_TTL` seconds, deleted when used.
* channel ``sixtysix:notify:{id}`` — the game's version, published on every save (the new
  one) and on every chat message (the unchanged one): a listener that follows the event log
  reads the events after its last ``seq`` on any notice; a long-poll on the version is woken
  only by a higher one.
* ``sixtysix:owner:{<hash of a client address>}`` — sorted set of the address's active games
  (game id → the time it stops counting): with a cap on games per address (see
  :class:`GameStore`); a hash tag of its own, so it works on a Redis Cluster.

:meth:`GameStore.save` is one round trip: a Lua script registered once compares the version,
writes the state, appends the events, stores the idempotency record, refreshes the TTLs and
publishes the new version, or changes nothing and reports a :class:`VersionConflict`.

**Chat does not change the version.** :meth:`GameStore.chat` appends a ``chat`` event (its
``seq`` is ``n + 1``) and publishes, leaving ``v`` and the state alone, so a chat never makes a
pending action's ``If-Match`` stale (nor renews the game's time to live: only saves do). A
save therefore checks ``n`` as well: if messages were logged since the load (same ``v``,
higher ``n``) nothing is written and the save is sent again with its events numbered after
them; each such retry follows a logged message, and a game holds a bounded number of them, so
this ends.

A save whose answer is lost (a timeout, a dropped connection after the script was sent) may
still have been applied, or may be applied later (Redis runs a command it read before it saw
the connection close). So the store settles it: for up to ``settle_wait`` seconds it tries a
second script that reads the save's write record, or, if the save has not run, fences it off
(writes ``fenced``, which the save script checks first). Redis runs commands one at a time, so
the answer is final: applied (the saved game is returned as if nothing had happened), fenced
with the game unchanged (the original error is raised: the store is unavailable, nothing was
applied, retrying is safe), fenced after someone else's save (a :class:`VersionConflict`), or,
if Redis does not answer meanwhile, :class:`OutcomeUnknown`. A save refused at connect
(nothing was sent) raises its error at once.
"""

from __future__ import annotations

import json
import logging
import time
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

import redis

from api.fastjson import dumps, dumps_text, loads
from api.games import packed as packs
from api.games.meta import GameMeta, Owner
from api.keys import (
    events_key,
    game_key,
    idem_key,
    mark_field,
    marks_key,
    notify_channel,
    ticket_key,
    write_key,
)
from api.live.notify import NOTIFY_LUA
from api.live.presence import SEEN_FIELD, Presence, Seen
from api.runtime.redis_connect import Client
from api.unique import new_id
from engine import Event, InvalidState
from engine.hosted import HostedState, from_stored, is_over, to_stored

log = logging.getLogger(__name__)

#: Largest version or event number a request may name; it keeps Redis' list indexes in range.
MAX_SEQ: Final = 2**31 - 1
#: Most events one :meth:`GameStore.events` call reads (the API's largest page).
MAX_PAGE: Final = 500
#: Seconds a save's write record says what it wrote: far longer than any settling takes.
WRITE_TTL: Final = 300
#: Seconds between two attempts to settle a save whose answer was lost.
SETTLE_PAUSE: Final = 0.05
#: Seconds a stream ticket admits its seat's stream; it is used once.
TICKET_TTL: Final = 60
#: Game-hash field of a finished game: the events its archive holds (``0``: none yet). The
#: save that finishes a game sets it (in the save's script, so no crash comes between), the
#: archive's sweep raises it (:mod:`api.archive.sweep`), and a game whose count is behind its
#: ``n`` is one to archive (again).
ARCHIVED_FIELD: Final = "archived"
#: Game-hash field: the last ``seq`` of each packed item of the events list, comma-separated.
PACKED_FIELD: Final = "packed"
#: The event that ends a hand: the events up to it may be packed.
HAND_END: Final = "hand_settled"
#: Attempts at reading the events list while a pack changes it under the reader.
READ_ATTEMPTS: Final = 5
#: The write record of a save that may never apply.
FENCED: Final = "fenced"
FENCED_LUA: Final = f"'{FENCED}'"

# KEYS: game, events, write record[, marks]; ARGV: expected version, new version, ttl, state,
# meta ('' keeps), recent, event count, notify channel, idem record, idem ttl, write ttl,
# event count at the load, presence field and time ('' '': none), the record's field in
# marks ('' without), '1' if the state saved is over ('': not), events...  Answers
# {1, new version}; {2, version} if this write ran before; {0, current} on a version
# conflict; {-1, 0} for no game; {-2, current} if the write was fenced off; {3, event count}
# if chat messages were logged since the load.
#: The compare-and-set save (:meth:`GameStore.save`); ``tests/bench/bench_bare_app.py`` runs it too.
SAVE_SCRIPT: Final = NOTIFY_LUA + """
local done = redis.call('GET', KEYS[3])
if done == """ + FENCED_LUA + """ then
  return {-2, tonumber(redis.call('HGET', KEYS[1], 'v')) or 0}
elseif done then
  return {2, tonumber(done)}
end
local cur = redis.call('HGET', KEYS[1], 'v')
local expected = tonumber(ARGV[1])
if expected == 0 then
  if cur then return {0, tonumber(cur)} end
elseif not cur then
  return {-1, 0}
elseif tonumber(cur) ~= expected then
  return {0, tonumber(cur)}
else
  local n = tonumber(redis.call('HGET', KEYS[1], 'n'))
  if n ~= tonumber(ARGV[12]) then return {3, n} end
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'state', ARGV[4], 'recent', ARGV[6], 'n', ARGV[7])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'meta', ARGV[5]) end
if ARGV[13] ~= '' then redis.call('HSET', KEYS[1], ARGV[13], ARGV[14]) end
if ARGV[16] ~= '' then redis.call('HSETNX', KEYS[1], '""" + ARCHIVED_FIELD + """', '0') end
if #ARGV > 16 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 17, #ARGV)) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('SET', KEYS[3], ARGV[2], 'EX', ARGV[11])
if #KEYS > 3 then
  redis.call('HSET', KEYS[4], ARGV[15], ARGV[9])
  redis.call('EXPIRE', KEYS[4], ARGV[10])
end
notify(ARGV[8], ARGV[2])
return {1, tonumber(ARGV[2])}
"""

# KEYS: game, write record; ARGV: fence ttl. Answers as SAVE_SCRIPT does for a write that ran
# before ({2, version}) or is fenced off now or was before ({-2, current}).
_SETTLE: Final = """
local done = redis.call('GET', KEYS[2])
if not done then
  redis.call('SET', KEYS[2], """ + FENCED_LUA + """, 'EX', ARGV[1])
  done = """ + FENCED_LUA + """
end
if done == """ + FENCED_LUA + """ then
  return {-2, tonumber(redis.call('HGET', KEYS[1], 'v')) or 0}
end
return {2, tonumber(done)}
"""


# KEYS: game, events, write record[, marks, the record's key before the marks]; ARGV: the
# chat event's JSON without its opening brace, most chat messages of a game, notify channel,
# write ttl[, idem ttl, the record's field in marks]. Appends the
# event as number n + 1 and publishes 'v:seq' (the unchanged version, the message's number);
# v and the state stay as they
# are. Answers {1, seq}; {2, seq} if this write ran before; {4, seq} if the idempotency key
# logged message seq before; {-1, 0} for no game; {-2, 0} if it was fenced off;
# {-3, messages} if the game holds the most chat messages already.
_CHAT: Final = NOTIFY_LUA + """
local done = redis.call('GET', KEYS[3])
if done == """ + FENCED_LUA + """ then
  return {-2, 0}
elseif done then
  return {2, tonumber(done)}
end
if #KEYS > 3 then
  local first = redis.call('HGET', KEYS[4], ARGV[6]) or redis.call('GET', KEYS[5])
  if first then return {4, tonumber(first)} end
end
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {-1, 0} end
local count = tonumber(redis.call('HGET', KEYS[1], 'chats') or '0')
if count >= tonumber(ARGV[2]) then return {-3, count} end
local seq = redis.call('HINCRBY', KEYS[1], 'n', 1)
redis.call('HSET', KEYS[1], 'chats', count + 1)
redis.call('RPUSH', KEYS[2], '{"seq":' .. seq .. ',' .. ARGV[1])
local left = redis.call('PTTL', KEYS[1])
if left > 0 then redis.call('PEXPIRE', KEYS[2], left) end
redis.call('SET', KEYS[3], seq, 'EX', ARGV[4])
if #KEYS > 3 then
  redis.call('HSET', KEYS[4], ARGV[6], seq)
  redis.call('EXPIRE', KEYS[4], ARGV[5])
end
notify(ARGV[3], v .. ':' .. seq)
return {1, seq}
"""

# KEYS: game, events; ARGV: the packed field read ('' none), items packed so far, lines
# packed now, the pack, the new packed field. Replaces the lines after the packed items by
# one pack if no other pack came meanwhile: 1, else 0 (nothing changed).
_PACK: Final = """
if (redis.call('HGET', KEYS[1], '""" + PACKED_FIELD + """') or '') ~= ARGV[1] then return 0 end
local first = tonumber(ARGV[2])
local tail = redis.call('LRANGE', KEYS[2], first + tonumber(ARGV[3]), -1)
redis.call('LTRIM', KEYS[2], 0, first)
redis.call('LSET', KEYS[2], first, ARGV[4])
for i = 1, #tail, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(tail, i, math.min(i + 999, #tail)))
end
redis.call('HSET', KEYS[1], '""" + PACKED_FIELD + """', ARGV[5])
return 1
"""

# KEYS: owner set; ARGV: now, cap, until, game id. Trims the games that stopped counting,
# then adds this one if fewer than cap remain: 1, else 0.
_CLAIM: Final = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIREAT', KEYS[1], ARGV[3])
return 1
"""


# KEYS: game; ARGV: field, value. Sets the field only if the game exists and the field is
# unset; answers the field's value (nil: no game).
_CLAIM_SEAT: Final = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HGET', KEYS[1], ARGV[1])
"""

#: Game-hash field prefix of a table game's minted seat tokens (``seat_token:<seat>``).
SEAT_TOKEN_FIELD: Final = "seat_token:"
#: Most seats of a game (four-hand).
MAX_SEATS: Final = 4
_SEAT_FIELDS: Final = [f"{SEAT_TOKEN_FIELD}{i}" for i in range(MAX_SEATS)]
_SEAT_FIELD_KEYS: Final = [f.encode() for f in _SEAT_FIELDS]  # as HGETALL answers them
#: The fields of the seats' presence (:mod:`api.live.presence`), likewise.
_SEEN_FIELDS: Final = [f"{SEEN_FIELD}{i}" for i in range(MAX_SEATS)]
_SEEN_FIELD_KEYS: Final = [f.encode() for f in _SEEN_FIELDS]


class StoreError(Exception):
    """Base class of the store's errors."""


class OutcomeUnknown(StoreError):
    """A write's answer was lost and Redis did not answer again in time: it may have applied.

    ``what`` is what was written (``game`` or ``table``), ``ident`` its id.
    """

    def __init__(self, ident: str, what: str = "game") -> None:
        self.ident = ident
        self.what = what
        super().__init__(f"the save of {what} {ident!r} may or may not have been applied")


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


class ChatFull(StoreError):
    """The game holds the most chat messages allowed: nothing was logged."""

    def __init__(self, game_id: str, cap: int) -> None:
        self.game_id = game_id
        self.cap = cap
        super().__init__(f"game {game_id!r} holds {cap} chat messages, the most allowed")


class TooManyGames(StoreError):
    """The creator's address already has as many active games as the cap allows."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        super().__init__(f"this address already has {cap} active games, the most allowed: "
                         "finish one (a finished match frees its place) or let one expire")


def never_sent(error: redis.RedisError) -> bool:
    """Whether ``error`` is a refused connection, so no command went out."""
    return isinstance(error.__context__, ConnectionRefusedError | FileNotFoundError)


def text(value: bytes | str) -> str:
    """A Redis reply as text (the clients answer bytes)."""
    return value.decode() if isinstance(value, bytes) else value


def _state(raw: bytes) -> HostedState:
    """A stored state (:func:`engine.hosted.from_stored`), parsed by :mod:`api.fastjson`."""
    try:
        data = loads(raw)
    except ValueError as exc:
        raise InvalidState(f"game state is not JSON: {exc}") from exc
    return from_stored(data)


def _with_minted(meta: GameMeta, minted: list[bytes | str | None]) -> GameMeta:
    """``meta`` with the digest of each minted seat token (``minted[seat]``, the
    ``seat_token:<seat>`` fields) in its seat's ``token_sha256``."""
    for seat, value in zip(meta["seats"], minted, strict=False):
        if value is not None:
            seat["token_sha256"] = text(value).partition(":")[0]
    return meta


@dataclass(frozen=True, slots=True)
class Logged:
    """An event with its sequence number in the game's log."""

    seq: int
    event: Event

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"seq": self.seq, **self.event.for_seat(seat)}

    def to_json(self) -> str:
        return dumps_text({"seq": self.seq, **self.event.to_dict()})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Logged:
        return cls(data["seq"], Event.from_dict(data))

    @classmethod
    def from_json(cls, text: str | bytes) -> Logged:
        return cls.from_dict(loads(text))


@dataclass(slots=True)
class Game:
    """A loaded game: engine state plus what the service keeps beside it.

    ``connected``: per seat whether it was seen within the presence window when loaded
    (``None`` for a game not read from the store). ``log``: the whole event log of a game
    read from the archive (``None``: the log is in Redis).
    """

    game_id: str
    version: int
    state: HostedState
    meta: GameMeta
    event_count: int
    recent: list[Logged]
    connected: list[bool] | None = None
    log: list[Logged] | None = None


class Archived(Protocol):
    """Where finished games go once Redis lets them go (:class:`api.archive.store.Archive`)."""

    def load(self, game_id: str) -> Game | None: ...


@dataclass(frozen=True, slots=True)
class MarkSlot:
    """Where the idempotency record of one client key on one game lives: field ``field`` of
    the game's marks hash ``key`` (:func:`~api.keys.marks_key`), written and read; and
    ``legacy``, the string key of the layout before (:func:`~api.keys.idem_key`), only read.

    The legacy read honours the records a server wrote before the hash for their
    ``SIXTYSIX_IDEMPOTENCY_TTL`` (a day): it may go once every server has run this layout
    that long. Both keys share the game's slot (one pipeline, one script)."""

    key: str
    field: bytes
    legacy: str

    @classmethod
    def of(cls, game_id: str, client_key: str) -> MarkSlot:
        return cls(marks_key(game_id), mark_field(client_key), idem_key(game_id, client_key))


@dataclass(frozen=True, slots=True)
class IdempotentWrite:
    """An idempotency record saved with a game; ``record`` builds it from the saved game.

    ``fingerprint`` identifies the request the record answers.
    """

    slot: MarkSlot
    record: Callable[[Game], dict[str, Any]]
    ttl: int
    fingerprint: str


class Settler:
    """Settles a write whose answer was lost (see the module docstring): a write script that
    checks its write record first (``fenced``: it never applies) and sets it to what it wrote
    last, on a hash with a ``v`` field (a game's, a table's)."""

    def __init__(self, client: Client, wait: float) -> None:
        if wait >= WRITE_TTL / 2:  # a write record must outlive any settling
            raise ValueError(f"settle_wait must be under {WRITE_TTL / 2} s")
        self.wait = wait
        self._settle = client.register_script(_SETTLE)

    def outcome(self, key: str, written: str, fence_ttl: int, error: redis.RedisError,
                ident: str, what: str = "game") -> tuple[int, int]:
        """``_SETTLE``'s answer for the write of record ``written`` to hash ``key``: ``(2, what
        it wrote)`` if it ran, ``(-2, the hash's version)`` if it is fenced off (the fence kept
        ``fence_ttl`` seconds); :class:`OutcomeUnknown` (of ``what`` ``ident``, caused by
        ``error``) if Redis does not answer within :attr:`wait` seconds."""
        deadline = time.monotonic() + self.wait
        while True:
            try:
                status, current = self._settle(keys=[key, written], args=[fence_ttl])
                return int(status), int(current)
            except (redis.ConnectionError, redis.TimeoutError):
                if time.monotonic() >= deadline:
                    raise OutcomeUnknown(ident, what) from error
                time.sleep(SETTLE_PAUSE)


class GameStore:
    """Games in ``client``'s Redis, each living ``ttl`` seconds after its last save.

    A save whose answer was lost is settled within ``settle_wait`` seconds (see the module
    docstring).

    With ``max_games`` > 0 a game created with ``meta["owner"] = {"key": owner_key(address)}``
    counts against that address until its match is over (or aborted) or it expires; creating
    one more than ``max_games`` raises :class:`TooManyGames`. A game's place is held until
    ``1.5 × ttl`` after the save that last renewed it; a save renews it when less than ``ttl``
    is left (so at most once per half ``ttl``, and never after the game itself expired).
    Without a cap no owner is kept.

    With an ``archive``, a game Redis no longer has is read from it (finished games only, see
    :mod:`api.archive`): :meth:`load`, :meth:`meta`, :meth:`version` and :meth:`events`
    answer as they did from Redis; writes find no game.
    """

    def __init__(self, client: Client, ttl: int, max_games: int = 0,
                 settle_wait: float = 5.0, presence_window: float = 30.0,
                 archive: Archived | None = None) -> None:
        self.redis = client
        self.archive = archive
        self.presence = Presence(client, presence_window, game_key)
        self.ttl = ttl
        self.max_games = max_games
        self._save = client.register_script(SAVE_SCRIPT)
        self._claim = client.register_script(_CLAIM)
        self._settler = Settler(client, settle_wait)
        self._claim_seat = client.register_script(_CLAIM_SEAT)
        self._chat = client.register_script(_CHAT)
        self._pack = client.register_script(_PACK)

    def load(self, game_id: str) -> Game:
        """The game, with its seats' presence (one ``HGETALL``)."""
        raw: dict[bytes, bytes] = self.redis.hgetall(game_key(game_id))  # type: ignore[assignment]
        if not raw:
            return self.archived(game_id)
        meta = loads(raw[b"meta"])
        return Game(
            game_id=game_id,
            version=int(raw[b"v"]),
            state=_state(raw[b"state"]),
            meta=_with_minted(meta, [raw.get(f) for f in _SEAT_FIELD_KEYS]),
            event_count=int(raw[b"n"]),
            recent=[Logged.from_dict(e) for e in loads(raw[b"recent"])],
            connected=self.presence.connected(
                [raw.get(f) for f in _SEEN_FIELD_KEYS[:len(meta["seats"])]]),
        )

    def events_since(self, game: Game, after: int) -> list[Logged]:
        """The events of ``game`` with ``after < seq <= game.event_count`` (the log only
        grows, so these are the events up to the loaded version)."""
        if after >= game.event_count:
            return []
        if game.log is not None:
            return game.log[after:]
        return self._read(game.game_id, after, game.event_count)

    def _read(self, game_id: str, after: int, stop: int, packed: str | None = None,
              ) -> list[Logged]:
        """The logged events with ``after < seq <= stop`` (fewer if the log is shorter),
        from packed items and lines alike. ``packed``: the packed field as last read; the
        list is read with the field in one transaction, again if a pack changed it."""
        key = game_key(game_id)
        if packed is None:
            packed = text(self.redis.hget(key, PACKED_FIELD) or "")
        for _ in range(READ_ATTEMPTS):
            ends = [int(end) for end in packed.split(",")] if packed else []
            first, last = _index(ends, after + 1), _index(ends, stop)
            pipe = self.redis.pipeline(transaction=True)
            pipe.hget(key, PACKED_FIELD)
            pipe.lrange(events_key(game_id), first, last)
            now, items = pipe.execute()
            if text(now or "") == packed:
                logged = [e for i, item in enumerate(items, first)
                          for e in (_unpack(item) if i < len(ends) else [Logged.from_json(item)])]
                return [e for e in logged if after < e.seq <= stop]
            packed = text(now or "")
        raise StoreError(f"game {game_id}: its events were packed on every read")

    def pack(self, game_id: str) -> int:
        """Pack the events of the game's settled hands not packed yet (up to its last
        ``hand_settled``, chat messages between included) into one compressed item
        (:mod:`api.games.packed`): a hand's events take some 6 times fewer bytes. The
        number of events packed (0: none; also if another pack came meanwhile: the next
        settled hand packs them)."""
        packed = self.redis.hget(game_key(game_id), PACKED_FIELD)
        ends = [int(end) for end in text(packed).split(",")] if packed else []
        lines = self.redis.lrange(events_key(game_id), len(ends), -1)
        done = [i for i, line in enumerate(lines) if loads(line).get("type") == HAND_END]
        if not done:
            return 0
        count = done[-1] + 1
        blob = packs.pack([text(line) for line in lines[:count]])
        field = ",".join(str(end) for end in [*ends, (ends[-1] if ends else 0) + count])
        changed = self._pack(keys=[game_key(game_id), events_key(game_id)],
                             args=[text(packed) if packed else "", len(ends), count, blob, field])
        return count if changed else 0

    def issue_ticket(self, game_id: str, seat: int, ticket: str) -> None:
        """Let ``ticket`` admit ``seat``'s stream once within :data:`TICKET_TTL` seconds."""
        self.redis.set(ticket_key(game_id, ticket), seat, ex=TICKET_TTL)

    def use_ticket(self, game_id: str, ticket: str) -> int | None:
        """The seat ``ticket`` admits (the ticket is used up), or ``None``."""
        seat = self.redis.getdel(ticket_key(game_id, ticket))
        return None if seat is None else int(seat)

    def version(self, game_id: str) -> int:
        raw = self.redis.hget(game_key(game_id), "v")
        if raw is None:
            return self.archived(game_id).version
        return int(raw)

    def archived(self, game_id: str) -> Game:
        """The game from the archive (its log in ``log``); :class:`GameNotFound` if there is
        none or it is not there."""
        found = None if self.archive is None else self.archive.load(game_id)
        if found is None:
            raise GameNotFound(game_id)
        return found

    def claim_seat_token(self, game_id: str, seat: int, sha256: str, sealed: str,
                         ) -> tuple[str, str] | None:
        """Store a seat's minted token (its digest and sealed copy) unless the seat has one
        already, in one script; the seat's stored ``(sha256, sealed)`` either way, ``None``
        if the game is gone. So two racing first fetches both get the first one's token.

        The field lives beside the meta, not in it: a save writing the meta it loaded before
        the token was minted (a hint) cannot drop it.
        """
        stored = self._claim_seat(keys=[game_key(game_id)],
                                  args=[_SEAT_FIELDS[seat], f"{sha256}:{sealed}"])
        if stored is None:
            return None
        found, _, sealed_copy = text(stored).partition(":")
        return found, sealed_copy

    def meta(self, game_id: str) -> GameMeta:
        """The game's meta (seats with token digests, minted ones included; table settings),
        without its state."""
        raw, *minted = self.redis.hmget(game_key(game_id), "meta", *_SEAT_FIELDS)
        if raw is None:
            return self.archived(game_id).meta
        return _with_minted(json.loads(raw), minted)

    def chat(self, game_id: str, event: Event, max_messages: int,
             idempotent: tuple[MarkSlot, int] | None = None) -> tuple[Logged, bool]:
        """Log ``event`` (a ``chat`` message) as the game's next event and publish the
        unchanged version with the message's number (``"7:42"``: version 7, event 42), so
        streams wake for it; the version and the state stay as they are. Returns the logged
        message and whether it was logged before.

        With ``idempotent`` (a record's slot, its ttl in seconds) a message is logged once per
        key: a key that logged one before answers that one (``True``; the caller compares it
        with the request). :class:`ChatFull` if the game holds ``max_messages`` already,
        :class:`GameNotFound` if there is no game (nothing logged either way). A lost answer
        is settled as a save's is (see the module docstring).
        """
        written = write_key(game_id, new_id())
        keys = [game_key(game_id), events_key(game_id), written]
        args: list[str | bytes | int] = [
            json.dumps(event.to_dict(), separators=(",", ":"))[1:], max_messages,
            notify_channel(game_id), WRITE_TTL]
        if idempotent is not None:
            slot, ttl = idempotent
            keys += [slot.key, slot.legacy]
            args += [ttl, slot.field]
        try:
            status, seq = self._chat(keys=keys, args=args)
        except (redis.ConnectionError, redis.TimeoutError) as error:
            if never_sent(error):
                raise
            status, seq = self._settler.outcome(game_key(game_id), written, self.ttl, error,
                                                    game_id)
            if status == -2:
                raise error  # fenced off before it ran: nothing was logged
        if status == -1:
            raise GameNotFound(game_id)
        if status == -3:
            raise ChatFull(game_id, max_messages)
        if status != 4:
            return Logged(int(seq), event), False
        logged = self._read(game_id, int(seq) - 1, int(seq))
        if not logged:
            raise GameNotFound(game_id)
        return logged[0], True

    def progress_and_presence(self, game_id: str, seats: int
                              ) -> tuple[int, int, list[bool]]:
        """The game's version, its number of events (chat messages included) and per seat
        whether it is connected (one ``HMGET``)."""
        version, count, *seen = self.redis.hmget(game_key(game_id), "v", "n",
                                                 *_SEEN_FIELDS[:seats])
        if version is None or count is None:
            raise GameNotFound(game_id)
        return int(version), int(count), self.presence.connected(seen)

    def create(self, game_id: str, state: HostedState, meta: GameMeta,
               events: list[Event]) -> Game:
        """Write a new game at version 1; :class:`VersionConflict` if the id is taken,
        :class:`TooManyGames` if its owner has reached the cap (nothing written then)."""
        game = Game(game_id, 0, state, meta, 0, [])
        if not self.max_games:  # no cap: no owner is kept
            meta.pop("owner", None)
        owner = meta.get("owner")
        if owner is None:
            return self.save(game, events, write_meta=True)
        now = int(time.time())
        owner["until"] = until = self._held_until(now)
        if not self._claim(keys=[owner["key"]], args=[now, self.max_games, until, game_id]):
            raise TooManyGames(self.max_games)
        try:
            return self.save(game, events, write_meta=True)
        except OutcomeUnknown:
            raise  # the game may exist: it keeps its place
        except (StoreError, redis.ResponseError):  # refused: nothing was written
            self.redis.zrem(owner["key"], game_id)
            raise

    def _held_until(self, now: int) -> int:
        return now + self.ttl * 3 // 2

    def save(self, game: Game, events: list[Event], *, write_meta: bool = False,
             idempotent: IdempotentWrite | None = None, seen: Seen | None = None) -> Game:
        """Save ``game.state`` as version ``game.version + 1`` with ``events`` appended;
        with ``seen``, that seat's presence in the same script (``seen.carried`` once saved).

        A game's place in its owner's set is given back when its match is over and renewed
        when it runs short (see the class docstring); either writes the meta too.
        """
        owner = game.meta.get("owner")
        renew = False
        if owner is not None:
            now = int(time.time())
            if is_over(game.state):  # match over or aborted
                game.meta["owner"] = None
                write_meta = True
            elif owner.get("until", 0) < now + self.ttl:
                owner["until"] = self._held_until(now)
                write_meta = renew = True
        written = write_key(game.game_id, new_id())
        base = game.event_count
        while True:
            saved, keys, args = self._save_request(game, events, base, written, write_meta,
                                                   idempotent, seen)
            try:
                status, current = self._save(keys=keys, args=args)
            except (redis.ConnectionError, redis.TimeoutError) as error:
                if never_sent(error):
                    raise
                status, current = self._settler.outcome(game_key(game.game_id), written,
                                                         self.ttl, error, game.game_id)
                if status == -2 and int(current) == game.version:
                    raise error  # fenced off before it ran: nothing was applied
            if status != 3:
                break
            base = int(current)  # chat messages were logged meanwhile: number after them
        if status == -1:
            raise GameNotFound(game.game_id)
        if status in (0, -2):
            raise VersionConflict(game.game_id, game.version, int(current))
        if seen is not None and status == 1:
            seen.carried = True
        if status == 1 and any(e.type == HAND_END for e in events):
            try:
                self.pack(game.game_id)
            except redis.RedisError as exc:  # the save stands; the next hand packs these
                log.warning("game %s saved; its settled hand not packed (%s)", game.game_id,
                            type(exc).__name__)
        if owner is not None and (renew or game.meta["owner"] is None):
            try:
                self._owned(owner, game.game_id, renew)
            except redis.RedisError as exc:  # the save stands; the place lapses on its own
                log.warning("game %s saved; its owner's place not updated (%s)", game.game_id,
                            type(exc).__name__)
        return saved

    def _save_request(self, game: Game, events: list[Event], base: int, written: str,
                      write_meta: bool, idempotent: IdempotentWrite | None,
                      seen: Seen | None = None,
                      ) -> tuple[Game, list[str], list[str | bytes | int]]:
        """The saved game and the ``SAVE_SCRIPT`` keys and arguments of ``events`` numbered
        after ``base`` events."""
        logged = [Logged(base + i, e) for i, e in enumerate(events, 1)]
        saved = Game(game.game_id, game.version + 1, game.state, game.meta,
                     base + len(logged), logged, game.connected)
        lines = [e.to_json() for e in logged]
        keys = [game_key(game.game_id), events_key(game.game_id), written]
        args: list[str | bytes | int] = [
            game.version, game.version + 1, self.ttl, dumps(to_stored(game.state)),
            dumps(game.meta) if write_meta else "",
            "[" + ",".join(lines) + "]", saved.event_count, notify_channel(game.game_id),
            "", 0, WRITE_TTL, base, *(("", "") if seen is None else (seen.field, seen.value)),
            "", "1" if is_over(game.state) else "", *lines,
        ]
        if idempotent is not None:
            keys.append(idempotent.slot.key)
            args[8] = json.dumps(idempotent.record(saved), separators=(",", ":"))
            args[9] = idempotent.ttl
            args[14] = idempotent.slot.field
        return saved, keys, args

    def _owned(self, owner: Owner, game_id: str, renew: bool) -> None:
        """Renew the game's place in its owner's set, or give it back."""
        if not renew:
            self.redis.zrem(owner["key"], game_id)
            return
        pipe = self.redis.pipeline(transaction=False)
        until = owner.get("until", 0)
        pipe.zadd(owner["key"], {game_id: until}, xx=True)
        pipe.expireat(owner["key"], until)
        pipe.execute()

    def events(self, game_id: str, after: int, limit: int) -> tuple[GameMeta, int,
                                                                    list[Logged]]:
        """The game's meta, event count, and up to ``limit`` events with ``seq > after``.

        ``after`` must be 0..:data:`MAX_SEQ` and ``limit`` 1..:data:`MAX_PAGE` (else
        :class:`ValueError`: the API's schema refuses such queries with a 422 first).
        """
        if not 0 <= after <= MAX_SEQ or not 1 <= limit <= MAX_PAGE:
            raise ValueError(f"events after {after}, limit {limit}: out of range")
        meta, count, packed, *minted = self.redis.hmget(game_key(game_id), "meta", "n",
                                                        PACKED_FIELD, *_SEAT_FIELDS)
        if meta is None:
            game = self.archived(game_id)
            return game.meta, game.event_count, self.events_since(game, after)[:limit]
        return (_with_minted(json.loads(meta), minted), int(count or 0),
                self._read(game_id, after, after + limit, text(packed or "")))

    def all_events(self, game: Game) -> list[Logged]:
        """Every event of ``game`` up to its loaded version."""
        return self.events_since(game, 0)

    def get_record(self, key: str) -> dict[str, Any] | None:
        raw = self.redis.get(key)
        return None if raw is None else dict(json.loads(raw))

    def get_mark(self, slot: MarkSlot) -> dict[str, Any] | None:
        """The record of ``slot``: its field in the marks hash, else its legacy key's. One
        round trip of two reads (no script: a script would wait out a ``CLIENT PAUSE WRITE``,
        as in a fail-over, where reads go on; and a read-only script needs Redis 7)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(slot.key, slot.field)
        pipe.get(slot.legacy)
        field, legacy = pipe.execute()
        raw = field if field is not None else legacy
        return None if raw is None else dict(json.loads(raw))

    def put_record(self, key: str, record: dict[str, Any], ttl: int, *, only_new: bool) -> bool:
        """Store an idempotency record; with ``only_new`` only if the key is free."""
        done = self.redis.set(key, json.dumps(record, separators=(",", ":")), ex=ttl,
                              nx=only_new)
        return bool(done)

    def delete_record(self, key: str) -> None:
        self.redis.delete(key)


def _index(ends: list[int], seq: int) -> int:
    """The events list's index of the item holding event ``seq``, given the packed items'
    last ``seq`` ``ends``."""
    if ends and seq <= ends[-1]:
        return bisect_left(ends, seq)
    return len(ends) + seq - (ends[-1] if ends else 0) - 1


def _unpack(item: bytes) -> list[Logged]:
    """The events of a packed item."""
    return [Logged.from_dict(e) for e in packs.unpack(item)]
