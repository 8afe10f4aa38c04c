"""Every Redis key of the service: the builders that spell them and :data:`KEYS`, their table.

A key is ``sixtysix:<kind>:...`` (:data:`PREFIX`); the part in braces is a Redis Cluster hash
tag, so the keys of one game, table or player share a slot and one script may write them
together. A game of a table, id ``<table_id>.<n>``, is tagged ``{<table_id>}.<n>``
(:func:`tagged`), so it shares its table's slot. The worker tier's keys live on the queue's
Redis (``QUEUE_URL``), beside RQ's own ``rq:*`` keys; every other key on the games' Redis.

No other module spells a key: a store builds its keys here, and :data:`KEYS` (what each key
holds, its Redis type, how long it lives) is the table ``docs/operations.md`` shows
(``tests/api/test_keys.py`` checks that they agree and that every builder's key has a row).
Free text from a client never appears in a key as is: idempotency keys, tickets, names,
tokens and addresses are hashed first (a variant or status in a key is one of a fixed list).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from api.players.skeleton import skeleton

PREFIX: Final = "sixtysix"
#: The hash tags of the keys that share one slot per deployment.
RATINGS_TAG: Final = "{ratings}"
LEADERBOARD_TAG: Final = "{leaderboard}"
PAIRS_TAG: Final = "{pairs}"


class RedisType(StrEnum):
    """A key's Redis type (``channel``: a pub/sub channel, no key at all)."""

    STRING = "string"
    HASH = "hash"
    LIST = "list"
    SET = "set"
    ZSET = "sorted set"
    HLL = "HyperLogLog"
    CHANNEL = "channel"


@dataclass(frozen=True, slots=True)
class KeySpec:
    """One row of :data:`KEYS`.

    ``pattern`` is the key with its variable parts in angle brackets (``<game_id>``), its
    hash tag in braces; ``ttl`` says how long the key lives (``never``: until deleted).
    """

    pattern: str
    redis_type: RedisType
    ttl: str
    holds: str


#: Every key, grouped by the store that owns it.
KEYS: Final[tuple[KeySpec, ...]] = (
    # api.games.store
    KeySpec("sixtysix:game:{<game_id>}", RedisType.HASH,
            "`SIXTYSIX_GAME_TTL` after its last save (renewed while finished and not "
            "archived); `SIXTYSIX_ARCHIVE_GRACE` once archived",
            "version `v`, `state`, `meta`, event count `n`, `recent` events, minted "
            "`seat_token:<seat>`, `chats`, presence `seen:<seat>`, once finished the events "
            "`archived`, the last `seq` of each packed item of its events `packed`"),
    KeySpec("sixtysix:events:{<game_id>}", RedisType.LIST, "as its game",
            "the game's events and chat messages, `seq` 1, 2…: first the settled hands "
            "packed (a zlib-compressed JSON array an item), then one event an item"),
    KeySpec("sixtysix:marks:{<game_id>}", RedisType.HASH,
            "`SIXTYSIX_IDEMPOTENCY_TTL` after its last keyed action or chat message",
            "per `Idempotency-Key` (field: 16 bytes of the SHA-256 of the key) an action's "
            "status and mark, a chat message's `seq`"),
    KeySpec("sixtysix:idem:{<game_id or create>}:<sha256 of the key>", RedisType.STRING,
            "`SIXTYSIX_IDEMPOTENCY_TTL`",
            "a create's answer (its seat tokens sealed); before the marks' hash, an action's "
            "mark or a chat message's `seq` (still read until they expire)"),
    KeySpec("sixtysix:write:{<game_id or table_id>}:<write id>", RedisType.STRING,
            "300 s (`WRITE_TTL`); `fenced`: as its game",
            "the version one save or commit wrote, or `fenced`"),
    KeySpec("sixtysix:ticket:{<game_id>}:<sha256 of the ticket>", RedisType.STRING,
            "60 s (`TICKET_TTL`), deleted when used", "the seat a stream ticket admits"),
    KeySpec("sixtysix:notify:{<game_id>}", RedisType.CHANNEL, "—",
            "the game's version on every save and chat message (`SPUBLISH` on Redis 7, "
            "`PUBLISH` on 6.2), heard by the web processes watching the game"),
    KeySpec("sixtysix:listener:{<random id>}", RedisType.CHANNEL, "—",
            "a web process's own, never published: its subscription confirmed says the "
            "process's notice listener is connected"),
    # api.archive.sweep
    KeySpec("sixtysix:archive-pending", RedisType.ZSET, "never",
            "ids of finished games not yet in the archive (`DATABASE_URL`) by the Unix time "
            "each was noted"),
    KeySpec("sixtysix:archive-drain", RedisType.STRING,
            "15 s (`LOCK_SECONDS`) after the drain's last game, deleted when it ends",
            "the token of the one process draining `sixtysix:archive-pending`"),
    KeySpec("sixtysix:archive-reconciled", RedisType.STRING,
            "600 s (`RECONCILE_EVERY`)",
            "present while the last scan for finished games never noted is recent"),
    KeySpec("sixtysix:owner:{<sha256 of the address, 32 digits>}", RedisType.ZSET,
            "until its last game stops counting",
            "an address's active games by the time each stops counting"),
    # api.tables.store
    KeySpec("sixtysix:table:{<table_id>}", RedisType.HASH,
            "`SIXTYSIX_TABLE_OPEN_TTL` while open, then `SIXTYSIX_GAME_TTL` after its last "
            "change; finished, with `DATABASE_URL`: `SIXTYSIX_ARCHIVE_GRACE` once its last game "
            "is archived (then read from the database)", "version `v`, the table as JSON `doc`"),
    KeySpec("sixtysix:watchers:{<table_id>}", RedisType.ZSET, "60 s (`WATCH_WINDOW`) after "
            "the last look", "spectators (address digests) by the time they last looked"),
    KeySpec("sixtysix:lobby:{<status>:<variant or all>}", RedisType.ZSET, "never",
            "public tables, members `<inverted creation ms>:<table_id>`"),
    KeySpec("sixtysix:table-notify:{<table_id>}", RedisType.CHANNEL, "—",
            "the table's version on every change (as a game's notices)"),
    KeySpec("sixtysix:player-tables:{<player_id>}:open", RedisType.ZSET,
            "until its last table's expiry", "the open tables a player created, by expiry"),
    # api.players.store, api.players.history
    KeySpec("sixtysix:player:{<player_id>}", RedisType.HASH,
            "with `DATABASE_URL` 7 days (`CACHE_TTL`), a cache of the database's row; "
            "else never", "`name`, `kind`, `created_at`, `token_sha256`; without "
            "`DATABASE_URL` also `played:<variant>`, `won:<variant>`"),
    KeySpec("sixtysix:player-name:{<sha256 of the case-folded name>}", RedisType.STRING,
            "never; only without `DATABASE_URL`", "the player id owning a name"),
    KeySpec("sixtysix:player-skeleton:{<sha256 of the name's skeleton>}", RedisType.STRING,
            "never; only without `DATABASE_URL`", "the player id owning a name's look-alikes"),
    KeySpec("sixtysix:player-skeletons-indexed", RedisType.STRING,
            "never; only without `DATABASE_URL`",
            "set once the skeleton index holds every player"),
    KeySpec("sixtysix:player-token:{<sha256 of the token>}", RedisType.STRING,
            "as the player's hash", "the player id of a player token"),
    KeySpec("sixtysix:player-games:{<player_id>}:<active or finished>", RedisType.ZSET,
            "never; with `DATABASE_URL` a finished member until its match is archived",
            "the player's games, members `<inverted start ms>:<game_id>`"),
    KeySpec("sixtysix:player-history:{<player_id>}", RedisType.ZSET,
            "with `DATABASE_URL` a member until its match is archived; else never",
            "the player's finished matches not yet archived (else his last 1000), members "
            "`<inverted finish ms>:<game_id>`"),
    KeySpec("sixtysix:player-history:{<player_id>}:results", RedisType.HASH,
            "as the sorted set's members", "`<game_id>` → the match's result as JSON"),
    # api.tour.store
    KeySpec("sixtysix:tour:{<player_id>}", RedisType.HASH, "never",
            "`stamp:<station>`, `game:<station>`, sealed `token:<station>`"),
    # api.ratings.store
    KeySpec("sixtysix:ratings:{ratings}:<variant>", RedisType.HASH, "never",
            "`<kind>:<id>` → `mu sigma matches`"),
    KeySpec("sixtysix:ratings:{ratings}:<variant>:<kind>", RedisType.ZSET, "never",
            "ids by ordinal, the listing's order"),
    KeySpec("sixtysix:ratings:{ratings}:done:<source>", RedisType.HASH,
            "a game's: as the game plus a day; an arena run's: never",
            "the matches already rated from a source"),
    # api.leaderboard.store, api.leaderboard.pairs
    KeySpec("sixtysix:leaderboard:{leaderboard}:<kind>:all:<variant or all>", RedisType.ZSET,
            "never", "player ids by points"),
    KeySpec("sixtysix:leaderboard:{leaderboard}:<kind>:month:<YYYY-MM>:<variant or all>",
            RedisType.ZSET, "120 days (`MONTH_TTL`) after its last write",
            "player ids by points in a calendar month (UTC)"),
    KeySpec("sixtysix:leaderboard:{leaderboard}:hands-won", RedisType.HASH, "never",
            "`<player_id>:<variant>` → hands won in rated games"),
    KeySpec("sixtysix:leaderboard:{leaderboard}:done:<game_id>", RedisType.HASH,
            "`SIXTYSIX_GAME_TTL` plus a day", "the awards of a game already counted"),
    # api.outbox: changes noted for the database (api.archive.durable drains them)
    KeySpec("sixtysix:ratings:{ratings}:meta:outbox", RedisType.LIST, "until drained",
            "rated matches and seeds as JSON, at most `OUTBOX_CAP`"),
    KeySpec("sixtysix:leaderboard:{leaderboard}:meta:outbox", RedisType.LIST,
            "until drained", "counted awards as JSON, at most `OUTBOX_CAP`"),
    KeySpec("sixtysix:outbox", RedisType.LIST, "until drained",
            "tour stamps and table results as JSON, at most `OUTBOX_CAP`"),
    KeySpec("<outbox>-overflow", RedisType.STRING, "until drained",
            "changes that found the outbox full: the sweep then copies the whole slot"),
    KeySpec("<outbox>-popped", RedisType.STRING, "never",
            "entries removed from the outbox, a counter"),
    KeySpec("sixtysix:<ratings or leaderboard>:{<ratings or leaderboard>}:meta:cached",
            RedisType.STRING, "never", "set once the slot's keys hold the database's rows"),
    KeySpec("sixtysix:<ratings or leaderboard>:{<ratings or leaderboard>}:meta:loading",
            RedisType.STRING, "60 s at most", "held by the process loading the slot's cache"),
    KeySpec("sixtysix:tour-cached", RedisType.STRING, "never",
            "set once the tour's hashes hold the database's stamps"),
    KeySpec("sixtysix:tour-loading", RedisType.STRING, "60 s at most",
            "held by the process loading the tour's stamps"),
    KeySpec("sixtysix:rated-pairs:{pairs}:<player_id>:<player_id>", RedisType.ZSET,
            "24 h (`PAIR_WINDOW`) after its last game",
            "a pair's rated game ids by start (Unix ms)"),
    # api.http.metrics, api.http.limits
    KeySpec("sixtysix:active:{stats}:<Unix minute>", RedisType.HLL, "16 minutes",
            "the games asked about in that minute"),
    KeySpec("LIMITS:LIMITER/sixtysix:rate/<client>/<limit>", RedisType.LIST,
            "the limit's window", "one client's moving window (the `limits` library spells "
            "the key from this prefix)"),
    # api.worker.queue, api.worker.tier: on the queue's Redis
    KeySpec("sixtysix:moving:{<game_id>}", RedisType.STRING, "20 s (`LEASE_SECONDS`)",
            "the lease of the worker moving for a game"),
    KeySpec("sixtysix:awaiting-computers", RedisType.ZSET, "never",
            "games whose computers were asked to move, by the time asked"),
    KeySpec("sixtysix:clock-deadlines", RedisType.ZSET, "never",
            "games with a clock, by deadline (Unix seconds)"),
    KeySpec("sixtysix-tier:<workers or scheduler>", RedisType.ZSET, "10 s after the last beat",
            "the part's processes by the time each last beat"),
)


def tagged(game_id: str) -> str:
    """``game_id`` with its hash tag: ``{id}``, or ``{table_id}.n`` for a table's game."""
    head, dot, tail = game_id.partition(".")
    return f"{{{head}}}{dot}{tail}"


def _sha256(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


# ------------------------------------------------------------------------------------ games

#: The channels of :func:`notify_channel` as a pattern (no process subscribes to it: each
#: subscribes to the games it watches, :mod:`api.live.notify`).
NOTIFY_PATTERN: Final = f"{PREFIX}:notify:*"


def game_key(game_id: str) -> str:
    return f"{PREFIX}:game:{tagged(game_id)}"


def events_key(game_id: str) -> str:
    return f"{PREFIX}:events:{tagged(game_id)}"


def notify_channel(game_id: str) -> str:
    return f"{PREFIX}:notify:{tagged(game_id)}"


def listener_channel(process_id: str) -> str:
    """A web process's own channel (:class:`api.live.notify.Subscriber`)."""
    return f"{PREFIX}:listener:{{{process_id}}}"


def game_id_of_channel(channel: bytes | str) -> str:
    """The game id of a :func:`notify_channel` or :func:`game_key` (its hash tag's braces
    removed)."""
    text = channel.decode() if isinstance(channel, bytes) else channel
    return text[text.index("{") + 1:].replace("}", "", 1)


#: What ``SCAN`` matches to find every game's hash (:func:`game_key`; :mod:`api.archive.sweep`,
#: :mod:`api.admin.migrate`).
GAME_KEYS: Final = f"{PREFIX}:game:*"


#: Finished games waiting for the archive (:mod:`api.archive.sweep`): id → Unix time noted.
ARCHIVE_PENDING: Final = f"{PREFIX}:archive-pending"
#: The lock of the one process draining :data:`ARCHIVE_PENDING` at a time.
ARCHIVE_DRAIN_LOCK: Final = f"{PREFIX}:archive-drain"
#: Present while the last scan for finished games never noted is recent enough.
ARCHIVE_RECONCILED: Final = f"{PREFIX}:archive-reconciled"
#: Set once ``sixtysix admin migrate`` copied the standings Redis alone kept into the database
#: (:func:`api.admin.migrate.move_standings`): a later run copies them no more.
STANDINGS_MIGRATED: Final = f"{PREFIX}:standings-migrated"


def ticket_key(game_id: str, ticket: str) -> str:
    return f"{PREFIX}:ticket:{tagged(game_id)}:{_sha256(ticket)}"


def owner_key(address: str) -> str:
    """The set of the games created from ``address`` (hashed: no address is stored)."""
    return f"{PREFIX}:owner:{{{_sha256(address)[:32]}}}"


def idem_key(scope: str, key: str) -> str:
    """Idempotency record key; the client's key is hashed, so any text is safe in it. A
    create's record; an action's or chat message's in the layout before :func:`marks_key`
    (read, never written, until such records expire: :class:`api.games.store.MarkSlot`)."""
    return f"{PREFIX}:idem:{tagged(scope)}:{_sha256(key)}"


#: Bytes of a client key's SHA-256 that name its field in :func:`marks_key`: 128 bits, so two
#: keys of one game never share a field (and a shared one still must match the fingerprint).
MARK_FIELD_BYTES: Final = 16


def marks_key(game_id: str) -> str:
    """The hash of a game's idempotency marks: one key per game, a short field per client
    key (:func:`mark_field`), so a mark costs its field and value, not a key of its own."""
    return f"{PREFIX}:marks:{tagged(game_id)}"


def mark_field(key: str) -> bytes:
    """The field of client key ``key`` in :func:`marks_key`: its SHA-256's first
    :data:`MARK_FIELD_BYTES` bytes, binary."""
    return hashlib.sha256(key.encode()).digest()[:MARK_FIELD_BYTES]


def write_key(ident: str, write_id: str) -> str:
    """The write record of one save of game (or commit of table) ``ident``."""
    return f"{PREFIX}:write:{tagged(ident)}:{write_id}"


# ----------------------------------------------------------------------------------- tables

#: The channels of :func:`table_channel` as a pattern (as :data:`NOTIFY_PATTERN`).
TABLE_NOTIFY_PATTERN: Final = f"{PREFIX}:table-notify:*"


def table_key(table_id: str) -> str:
    return f"{PREFIX}:table:{{{table_id}}}"


def watchers_key(table_id: str) -> str:
    return f"{PREFIX}:watchers:{{{table_id}}}"


def index_key(status: str, variant: str | None) -> str:
    """The lobby's index of public tables in ``status`` of ``variant`` (``None``: all)."""
    return f"{PREFIX}:lobby:{{{status}:{variant or 'all'}}}"


def table_channel(table_id: str) -> str:
    return f"{PREFIX}:table-notify:{{{table_id}}}"


def open_tables_key(player_id: str) -> str:
    return f"{PREFIX}:player-tables:{{{player_id}}}:open"


# ---------------------------------------------------------------------------------- players

#: Set once the players stored before the skeleton index are in it.
INDEXED_KEY: Final = f"{PREFIX}:player-skeletons-indexed"
#: Keys of players, as ``SCAN`` matches them (braces are no pattern characters).
PLAYER_KEYS: Final = f"{PREFIX}:player:{{*}}"


def player_key(player_id: str) -> str:
    return f"{PREFIX}:player:{{{player_id}}}"


def name_digest(name: str) -> str:
    """The digest of ``name`` without regard to case (the database's ``name_key``)."""
    return _sha256(name.casefold())


def skeleton_digest(name: str) -> str:
    """The digest of ``name``'s look-alike skeleton (:func:`api.players.skeleton.skeleton`;
    the database's ``skeleton_key``)."""
    return _sha256(skeleton(name))


def name_key(name: str) -> str:
    """The owner of ``name``, without regard to case."""
    return f"{PREFIX}:player-name:{{{name_digest(name)}}}"


def skeleton_key(name: str) -> str:
    """The owner of ``name``'s look-alikes (:func:`api.players.skeleton.skeleton`)."""
    return f"{PREFIX}:player-skeleton:{{{skeleton_digest(name)}}}"


def token_key(token_sha256: str) -> str:
    return f"{PREFIX}:player-token:{{{token_sha256}}}"


def games_key(player_id: str, which: str) -> str:
    """The player's ``active`` or ``finished`` games."""
    return f"{PREFIX}:player-games:{{{player_id}}}:{which}"


#: Keys of histories (and their results hashes), as ``SCAN`` matches them.
HISTORY_KEYS: Final = f"{PREFIX}:player-history:{{*}}*"


def history_key(player_id: str) -> str:
    return f"{PREFIX}:player-history:{{{player_id}}}"


def results_key(player_id: str) -> str:
    return f"{history_key(player_id)}:results"


def tour_key(player_id: str) -> str:
    return f"{PREFIX}:tour:{{{player_id}}}"


# ------------------------------------------------------------------ ratings and leaderboard

def ratings_key(variant: str) -> str:
    return f"{PREFIX}:ratings:{RATINGS_TAG}:{variant}"


def listing_key(variant: str, kind: str) -> str:
    return f"{PREFIX}:ratings:{RATINGS_TAG}:{variant}:{kind}"


def rated_marker_key(source: str) -> str:
    """The matches already rated from ``source`` (a game id or an arena run)."""
    return f"{PREFIX}:ratings:{RATINGS_TAG}:done:{source}"


def board_key(kind: str, period: str, variant: str | None, month: str | None = None) -> str:
    """The board of ``kind`` (``human``, ``bot``) for ``period`` (``all``, or ``month`` with
    ``month`` as ``YYYY-MM``) and ``variant`` (``None``: all variants)."""
    scope = "all" if period == "all" else f"month:{month}"
    return f"{PREFIX}:leaderboard:{LEADERBOARD_TAG}:{kind}:{scope}:{variant or 'all'}"


def hands_key() -> str:
    return f"{PREFIX}:leaderboard:{LEADERBOARD_TAG}:hands-won"


def awards_marker_key(game_id: str) -> str:
    """The awards of ``game_id`` already counted on the leaderboard."""
    return f"{PREFIX}:leaderboard:{LEADERBOARD_TAG}:done:{game_id}"


def slot_meta_key(tag: str, part: str) -> str:
    """A slot's own bookkeeping key (``outbox``, ``outbox-overflow``, ``outbox-popped``,
    ``cached``) for ``tag``
    (:data:`RATINGS_TAG` or :data:`LEADERBOARD_TAG`)."""
    kind = "ratings" if tag == RATINGS_TAG else "leaderboard"
    return f"{PREFIX}:{kind}:{tag}:meta:{part}"


#: Tour stamps and table results noted for the database (:mod:`api.outbox`).
OUTBOX: Final = f"{PREFIX}:outbox"
#: Set once the tour's hashes hold the database's stamps; held by the process loading them.
TOUR_CACHED: Final = f"{PREFIX}:tour-cached"
TOUR_LOADING: Final = f"{PREFIX}:tour-loading"


def pair_key(a: str, b: str) -> str:
    """The rated games of players ``a`` and ``b`` (in either order)."""
    low, high = sorted((a, b))
    return f"{PREFIX}:rated-pairs:{PAIRS_TAG}:{low}:{high}"


# ------------------------------------------------------------------------ metrics, limiter

#: Prefix of the rate limiter's keys (flask-limiter adds the rest).
RATE_PREFIX: Final = f"{PREFIX}:rate"


def active_key(minute: int) -> str:
    """The games asked about in Unix minute ``minute``."""
    return f"{PREFIX}:active:{{stats}}:{minute}"


# ------------------------------------------------------------- the worker tier (queue Redis)

#: Games whose computers were asked to move (game id -> time asked).
AWAITING: Final = f"{PREFIX}:awaiting-computers"
#: Games with a clock's deadline (game id -> deadline, epoch seconds).
DEADLINES: Final = f"{PREFIX}:clock-deadlines"
#: Set (with a time to live) while the workers cannot answer the waiting replies by their
#: deadlines even at their least work (:mod:`api.worker.deadline`): no new computer games.
COMPUTERS_BUSY: Final = f"{PREFIX}:computers-busy"


def lease_key(game_id: str) -> str:
    return f"{PREFIX}:moving:{{{game_id}}}"


def tier_key(part: str) -> str:
    """The beats of the worker tier's ``part`` (``workers``, ``scheduler``)."""
    return f"{PREFIX}-tier:{part}"


# ------------------------------------------------------------------------------ the table

def markdown_table() -> str:
    """:data:`KEYS` as the Markdown table of ``docs/operations.md``."""
    lines = ["| key | type | lives | holds |", "| --- | --- | --- | --- |"]
    lines += [f"| `{k.pattern}` | {k.redis_type} | {k.ttl} | {k.holds} |" for k in KEYS]
    return "\n".join(lines) + "\n"
