"""Ratings in Redis, in one slot per deployment (tag ``{ratings}``).

Keys:

* ``sixtysix:ratings:{ratings}:<variant>`` — hash ``<kind>:<id>`` -> ``"mu sigma matches"``
  (kind ``human``, ``bot`` or ``computer``; the id is a player id or a level name).
* ``sixtysix:ratings:{ratings}:<variant>:<kind>`` — sorted set of ids by ordinal (the
  listing's order).
* ``sixtysix:ratings:{ratings}:done:<source>`` — hash of the matches already rated from a
  source (a game id: expires with the game plus a day; an arena run: never expires).

With a database (``loaded`` given: :class:`api.archive.durable.Cache`), these keys are a cache
of its tables: each read asks whether the cache is loaded in the same round trip (and loads it
from the database if not), the commit script refuses to write on a cache not loaded, and each
commit also pushes its change to the slot's outbox (:mod:`api.outbox`), in the same script,
for the workers' sweep to write to the database.

:meth:`RatingStore.commit` is one script: it writes the new ratings and the match's marker
only if the marker is not set and every rating is still the one the new ones were computed
from; else nothing (the caller reads again and recomputes). So a match is rated once, and two
matches finishing at once for the same player both count.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, cast

from api.games.store import text
from api.keys import RATINGS_TAG, listing_key, rated_marker_key, ratings_key, slot_meta_key
from api.outbox import NOTE_LUA, OUTBOX_CAP, RATINGS, read_cached
from api.ratings import seed
from api.ratings.model import Rating
from api.runtime.redis_connect import Client

KINDS: Final = ("human", "bot", "computer")

# KEYS: marker, ratings hash, outbox, its overflow counter, the slot's cached flag, the
# sorted sets...; ARGV: field, ttl (0: none), outbox entry ('' for none), outbox cap, '1' to
# answer -2 when the cache is not loaded, then per entity six values: hash field, old value
# ('' when new), new value, sorted-set index (1-based), id, the ordinal
_COMMIT: Final = NOTE_LUA + """
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[5]) == 0 then return -2 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
for i = 6, #ARGV, 6 do
  local cur = redis.call('HGET', KEYS[2], ARGV[i]) or ''
  if cur ~= ARGV[i + 1] then return -1 end
end
for i = 6, #ARGV, 6 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
  redis.call('ZADD', KEYS[tonumber(ARGV[i + 3]) + 5], ARGV[i + 5], ARGV[i + 4])
end
redis.call('HSET', KEYS[1], ARGV[1], 1)
if tonumber(ARGV[2]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
note(KEYS[3], KEYS[4], ARGV[3], ARGV[4])
return 1
"""


class RatingChanged(Exception):
    """A rating changed between reading and committing: nothing was written."""


Entity = tuple[str, str]
"""(kind, id): a player (``human``/``bot``, player id) or a level (``computer``, name)."""


class RatingStore:
    """Ratings through ``client``; with ``seeded`` (the default) the computer levels' shipped
    ratings (:mod:`api.ratings.seed`) are loaded where missing before the client's first
    read, once per process; ``seeded=False``: the store as it is (arena seeds, tests of the
    model); ``loaded``: with a database, what loads the cache from it when missing (and
    never raises), and each commit is noted in the outbox."""

    def __init__(self, client: Client, seeded: bool = True,
                 loaded: Callable[[], None] | None = None) -> None:
        self.redis = client
        self.seeded = seeded
        self.loaded = loaded
        self._commit = client.register_script(_COMMIT)

    def _ready(self) -> None:
        """The seed loaded once per process (the cache first: the seed fills only what the
        database lacks)."""
        if self.seeded and not seed.ensured(self.redis):
            if self.loaded is not None:
                self.loaded()
            seed.ensure(self.redis, noted=self.loaded is not None)

    def _read(self, queue: Callable[[Any], object]) -> list[Any]:
        """The answers of ``queue``'s reads, the cache loaded first if it was lost."""
        self._ready()
        return read_cached(self.redis, slot_meta_key(RATINGS_TAG, "cached"), self.loaded, queue)

    def read(self, variant: str, entities: Sequence[Entity]) -> list[str | None]:
        """The stored values (``None``: never rated) of ``entities``, as committed."""
        if not entities:
            self._ready()
            return []
        fields = [f"{k}:{i}" for k, i in entities]
        raw = self._read(lambda pipe: pipe.hmget(ratings_key(variant), fields))[0]
        return [None if v is None else text(v) for v in raw]

    def get(self, variant: str, entities: Sequence[Entity]) -> list[Rating]:
        return [Rating.stored(v) for v in self.read(variant, entities)]

    def done(self, source: str, match: str) -> bool:
        self._ready()
        return bool(self.redis.hexists(rated_marker_key(source), match))

    def commit(self, variant: str, source: str, match: str, ttl: int,
               changes: Sequence[tuple[Entity, str | None, Rating]]) -> bool:
        """Write ``(entity, old value, new rating)`` once for ``match`` of ``source``; False if
        it was rated before, :class:`RatingChanged` if a rating moved meanwhile (or the cache
        was found not loaded: it is loaded then)."""
        keys = [rated_marker_key(source), ratings_key(variant), RATINGS.key, RATINGS.overflow,
                slot_meta_key(RATINGS_TAG, "cached")]
        entry = "" if self.loaded is None else rating_entry(
            "rate", variant, [(source, match)], [(e, new) for e, _, new in changes])
        args: list[str | int | float] = [match, ttl, entry, OUTBOX_CAP, int(bool(entry))]
        for (kind, ident), old, new in changes:
            key = listing_key(variant, kind)
            if key not in keys:
                keys.append(key)
            args += [f"{kind}:{ident}", old or "", new.encode(), keys.index(key) - 4, ident,
                     repr(new.ordinal)]
        status = int(self._commit(keys=keys, args=args))
        if status == -2:  # its ratings were read from a cache since lost: read them again
            if self.loaded is not None:
                self.loaded()
            if self.redis.exists(slot_meta_key(RATINGS_TAG, "cached")):
                raise RatingChanged(f"{source} {match}")
            args[4] = 0  # the database down: rated in Redis all the same
            status = int(self._commit(keys=keys, args=args))
        if status == -1:
            raise RatingChanged(f"{source} {match}")
        return status == 1

    def page(self, variant: str, kind: str, offset: int, limit: int,
             ) -> list[tuple[str, Rating]]:
        """Up to ``limit`` (id, rating) from position ``offset``, highest ordinal first."""
        raw = cast(list[bytes], self._read(lambda pipe: pipe.zrevrange(
            listing_key(variant, kind), offset, offset + limit - 1))[0])
        ids = [text(m) for m in raw]
        return list(zip(ids, self.get(variant, [(kind, i) for i in ids]), strict=True))

    def position(self, variant: str, kind: str, ident: str) -> int | None:
        """1-based place of ``ident`` in its listing, or ``None`` if never rated."""
        rank = self._read(lambda pipe: pipe.zrevrank(listing_key(variant, kind), ident))[0]
        return None if rank is None else cast(int, rank) + 1


def rating_entry(kind: str, variant: str, markers: Sequence[tuple[str, str]],
                 ratings: Sequence[tuple[Entity, Rating]]) -> str:
    """An outbox entry (``rate``: a rated match's new ratings; ``seed``: levels' starting
    ratings, kept only where the database has none) with the markers it sets."""
    return json.dumps({"t": kind, "variant": variant, "at": int(time.time()),
                       "markers": [list(m) for m in markers],
                       "ratings": [[k, i, r.mu, r.sigma, r.matches] for (k, i), r in ratings]},
                      separators=(",", ":"))
