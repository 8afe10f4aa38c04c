"""Tables in Redis: one hash per table, its games in its slot, the lobby's sorted sets.

Keys (built by :mod:`api.keys`; ``{table_id}`` is a hash tag; a table's games have ids
``<table_id>.<n>`` and keys tagged ``{table_id}.<n>``, see :func:`api.keys.tagged`, so they
share the table's slot):

* ``sixtysix:table:{table_id}`` — hash: ``v`` version, ``doc`` (the table as JSON: options,
  seats with player ids, status, games, rematch requests, the last game's result).
  No seat token: a player's is minted into his game's hash on his first fetch, as a digest
  and a sealed copy (:mod:`api.tables.seat_tokens`).
  TTL: ``SIXTYSIX_TABLE_OPEN_TTL`` from its creation while open, then ``SIXTYSIX_GAME_TTL``
  from its last change (as long as a game lives; finished and closed tables too). With a
  database, a finished table lives as long as its archived game (``SIXTYSIX_ARCHIVE_GRACE``),
  kept in the database and read back from it then (:mod:`api.archive.tables`).
* ``sixtysix:watchers:{table_id}`` — sorted set: spectators (a digest of their address) by
  the Unix time they last looked; counted over :data:`WATCH_WINDOW` seconds.
* ``sixtysix:lobby:{<status>:<variant or all>}`` — sorted sets of public tables, all scores 0,
  members ``<13-digit inverted creation ms>:<table_id>`` (newest first, a member is a cursor).
  An index, not the truth: a listing drops members whose table is gone or has moved on.
* ``sixtysix:write:{table_id}:<write id>`` — the outcome of one commit, as a game save's
  (:mod:`api.games.store`): the version it wrote, or ``fenced``.
* channel ``sixtysix:table-notify:{table_id}`` — the new version, published on every change.
* ``sixtysix:player-tables:{player_id}:open`` — sorted set: the open tables a player created
  and still sits at, scored by their expiry (Unix seconds), for the cap on open tables
  (:meth:`TableStore.hold_open`). An index, not the truth: a member whose table expired is
  dropped by the next hold, one that moved on by the next refusal (its table is checked).

:meth:`TableStore.commit` is one script: it compares the table's version, writes the table
and, when the change starts a game, the game's hash and event log beside it, or changes
nothing (:class:`TableConflict`). So a join that fills the last seat and the start of the
game are one atomic step, also on Redis Cluster. A commit whose answer was lost is settled as a
game's save is, so its error is true: applied, not applied, or of unknown outcome.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Final

import redis

from api.games.store import FENCED_LUA, WRITE_TTL, Game, Logged, Settler, never_sent, text
from api.keys import (
    ARCHIVE_PENDING,
    events_key,
    game_key,
    index_key,
    notify_channel,
    open_tables_key,
    table_channel,
    table_key,
    watchers_key,
    write_key,
)
from api.live.notify import NOTIFY_LUA
from api.players.store import INVERT
from api.runtime.redis_connect import Client
from api.unique import new_id
from engine.hosted import to_stored

#: Seconds a spectator's look counts as watching.
WATCH_WINDOW: Final = 60

# KEYS: table, write record[, game, events]; ARGV: expected v (0: new; -v: v or gone, a table
#       read back from the database), new v, doc, ttl,
#       channel[, game ttl, state, meta, recent, n, game channel, events...]
# Answers {1, new v}; {2, v} if this write ran before; {-2, current} if it was fenced off;
# {0, current} on a version conflict; {-1, current} if the game exists already.
_COMMIT: Final = NOTIFY_LUA + """
local done = redis.call('GET', KEYS[2])
if done == """ + FENCED_LUA + """ then
  return {-2, tonumber(redis.call('HGET', KEYS[1], 'v') or '0')}
elseif done then
  return {2, tonumber(done)}
end
local cur = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
local want = tonumber(ARGV[1])
if cur ~= math.abs(want) and not (want < 0 and cur == 0) then return {0, cur} end
if #KEYS > 2 and redis.call('EXISTS', KEYS[3]) == 1 then return {-1, cur} end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'doc', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
if #KEYS > 2 then
  redis.call('HSET', KEYS[3], 'v', 1, 'state', ARGV[7], 'meta', ARGV[8], 'recent', ARGV[9],
             'n', ARGV[10])
  if #ARGV > 11 then redis.call('RPUSH', KEYS[4], unpack(ARGV, 12, #ARGV)) end
  redis.call('EXPIRE', KEYS[3], ARGV[6])
  redis.call('EXPIRE', KEYS[4], ARGV[6])
  notify(ARGV[11], 1)
end
redis.call('SET', KEYS[2], ARGV[2], 'EX', """ + str(WRITE_TTL) + """)
notify(ARGV[5], ARGV[2])
return {1, tonumber(ARGV[2])}
"""


# KEYS: the player's open tables; ARGV: now, cap, table id, its expiry, key ttl.
# Returns {} when the table is held, else the tables held (the cap is reached).
_HOLD: Final = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local held = redis.call('ZRANGE', KEYS[1], 0, -1)
if #held >= tonumber(ARGV[2]) then return held end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return {}
"""


class TableConflict(Exception):
    """The table changed (or vanished) since it was loaded: nothing was written."""


@dataclass(slots=True)
class TableDoc:
    """A table as stored (the ``doc`` field of its hash, as JSON with these names).

    ``seats`` are ``{"kind": "open"}``, ``{"kind": "computer", "level": ...}`` or ``{"kind":
    "player", "player_id", "name", "bot"}``; ``rematch`` the seats that asked for one;
    ``result`` how the last match ended (:func:`api.tables.results.result_of`). ``extra`` keeps the
    fields this version does not know, so that a save writes them back unchanged.
    """

    table_id: str
    created_at: int
    created_ms: int
    #: Unix seconds an open table expires; ``None`` once it started.
    expires_at: int | None
    creator: str
    variant: str
    rules: dict[str, Any]
    settings: dict[str, Any]
    visibility: str
    invite_code: str | None
    status: str
    seats: list[dict[str, Any]]
    games: list[str] = field(default_factory=list)
    game_id: str | None = None
    started_ms: int | None = None
    rematch: list[int] = field(default_factory=list)
    rated: bool = True
    #: How the last match ended: ``points``, ``resigned`` or ``aborted``.
    result: str | None = None
    #: Unix seconds the last match finished (absent until one did).
    finished_at: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableDoc:
        known = {f.name for f in fields(cls)} - {"extra"}
        return cls(**{k: v for k, v in data.items() if k in known},
                   extra={k: v for k, v in data.items() if k not in known})

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        if self.finished_at is None:
            del out["finished_at"]
        return {**out, **self.extra}


@dataclass(slots=True)
class Table:
    table_id: str
    version: int
    doc: TableDoc
    #: Read back from the database (Redis let the finished table go): a commit writes it
    #: anew if Redis still has none, as if it were at ``version``.
    restored: bool = False


def index_member(created_ms: int, table_id: str) -> str:
    return f"{INVERT - created_ms:013d}:{table_id}"


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class TableStore:
    def __init__(self, client: Client, game_ttl: int, settle_wait: float = 5.0,
                 noted: bool = False,
                 archived: Callable[[str], Table | None] | None = None) -> None:
        self.redis = client
        #: With a database: a finished match's result is noted for it (api.tables.results).
        self.noted = noted
        #: With a database: a finished table Redis let go, read from it (api.archive.tables).
        self.archived = archived
        self.game_ttl = game_ttl
        self._commit = client.register_script(_COMMIT)
        self._hold = client.register_script(_HOLD)
        self._settler = Settler(client, settle_wait)

    def load(self, table_id: str) -> Table | None:
        """The table from Redis or, a finished one Redis let go, from the database."""
        table = self.live(table_id)
        if table is None and self.archived is not None:
            return self.archived(table_id)
        return table

    def live(self, table_id: str) -> Table | None:
        """The table as Redis holds it (``None``: not there)."""
        raw = self.redis.hmget(table_key(table_id), "v", "doc")
        if raw[0] is None:
            return None
        return Table(table_id, int(raw[0]), TableDoc.from_dict(json.loads(raw[1] or b"{}")))

    def commit(self, table: Table, ttl: int, game: Game | None = None) -> Table:
        """Save ``table.doc`` as the next version (and create ``game``, at version 1, if
        given); :class:`TableConflict` if the table is not at ``table.version`` any more.

        A lost answer is settled as a game's save is (:class:`~api.games.store.Settler`):
        applied, the saved table; fenced off, the Redis error (nothing was written) or, after
        another change, :class:`TableConflict`; no answer in time,
        :class:`~api.games.store.OutcomeUnknown`."""
        written = write_key(table.table_id, new_id())
        keys = [table_key(table.table_id), written]
        expected = -table.version if table.restored else table.version
        args: list[str | int] = [expected, table.version + 1, _dump(table.doc.to_dict()), ttl,
                                 table_channel(table.table_id)]
        if game is not None:
            logged = [Logged(i, e.event) for i, e in enumerate(game.recent, 1)]
            lines = [e.to_json() for e in logged]
            keys += [game_key(game.game_id), events_key(game.game_id)]
            args += [self.game_ttl, _dump(to_stored(game.state)), _dump(game.meta),
                     "[" + ",".join(lines) + "]", len(lines), notify_channel(game.game_id),
                     *lines]
        try:
            status, _ = self._commit(keys=keys, args=args)
        except (redis.ConnectionError, redis.TimeoutError) as error:
            if never_sent(error):
                raise
            status, current = self._settler.outcome(keys[0], written, self.game_ttl, error,
                                                    table.table_id, "table")
            if status == -2 and current == table.version:
                raise error  # fenced off before it ran: nothing was written
        if status not in (1, 2):
            raise TableConflict(table.table_id)
        return Table(table.table_id, table.version + 1, table.doc)

    # ----------------------------------------------------------------- open tables per player

    def note_finished(self, game_id: str) -> None:
        """Note a finished table's changed doc (a rematch asked) for the archive's drain,
        which keeps it in the database before Redis lets it go (:mod:`api.archive.tables`):
        its last game is noted again (:data:`~api.keys.ARCHIVE_PENDING`)."""
        self.redis.zadd(ARCHIVE_PENDING, {game_id: time.time()}, nx=True)

    def hold_open(self, player_id: str, table_id: str, expires_at: int, cap: int) -> list[str]:
        """Count ``table_id`` among the player's open tables, in one step, if he holds fewer
        than ``cap``: ``[]``; else the ids of those he holds (nothing written)."""
        now = int(time.time())
        held = self._hold(keys=[open_tables_key(player_id)],
                          args=[now, cap, table_id, expires_at, max(1, expires_at - now)])
        return [text(t) for t in held]

    def release_open(self, player_id: str, *table_ids: str) -> None:
        """The tables are no longer open ones of the player's (idempotent)."""
        if table_ids:
            self.redis.zrem(open_tables_key(player_id), *table_ids)

    # ----------------------------------------------------------------- the lobby's index

    def index(self, table_id: str, created_ms: int, status: str, variant: str) -> None:
        member = index_member(created_ms, table_id)
        pipe = self.redis.pipeline(transaction=False)
        for key in (index_key(status, None), index_key(status, variant)):
            pipe.zadd(key, {member: 0})
        pipe.execute()

    def unindex(self, table_id: str, created_ms: int, status: str, variant: str) -> None:
        member = index_member(created_ms, table_id)
        pipe = self.redis.pipeline(transaction=False)
        for key in (index_key(status, None), index_key(status, variant)):
            pipe.zrem(key, member)
        pipe.execute()

    def listed(self, status: str, variant: str | None, cursor: str | None, limit: int,
               older_than_ms: int | None = None) -> list[tuple[str, Table | None]]:
        """Up to ``limit`` index members after ``cursor`` with their tables (``None``: gone).

        With ``older_than_ms``, members of tables created before it are dropped first.
        """
        key = index_key(status, variant)
        if older_than_ms is not None:
            self.redis.zremrangebylex(key, f"[{INVERT - older_than_ms:013d}", "+")
        low = "-" if cursor is None else f"({cursor}"
        members = [text(m) for m in self.redis.zrangebylex(key, low, "+", 0, limit)]
        pipe = self.redis.pipeline(transaction=False)
        for member in members:
            pipe.hmget(table_key(member.partition(":")[2]), "v", "doc")
        out: list[tuple[str, Table | None]] = []
        for member, (version, doc) in zip(members, pipe.execute(), strict=True):
            table_id = member.partition(":")[2]
            out.append((member, None if version is None
                        else Table(table_id, int(version), TableDoc.from_dict(json.loads(doc)))))
        return out

    def drop_listed(self, status: str, variant: str, member: str) -> None:
        self.redis.zrem(index_key(status, None), member)
        self.redis.zrem(index_key(status, variant), member)

    # ----------------------------------------------------------------- spectators

    def watched(self, table_id: str, watcher: str) -> None:
        """Note that ``watcher`` (a digest) looks at the table's game now."""
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(watchers_key(table_id), {watcher: now})
        pipe.zremrangebyscore(watchers_key(table_id), "-inf", now - WATCH_WINDOW)
        pipe.expire(watchers_key(table_id), WATCH_WINDOW)
        pipe.execute()

    def watchers(self, table_id: str) -> int:
        """Spectators who looked within the last :data:`WATCH_WINDOW` seconds."""
        return int(self.redis.zcount(watchers_key(table_id), time.time() - WATCH_WINDOW, "+inf"))
