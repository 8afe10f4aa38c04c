"""The computer levels' starting ratings, shipped in ``seed.json`` and loaded into a store that
lacks them, so that a fresh deployment shows "strong ≈ N" before any match is rated.

``seed.json`` is written by ``sixtysix rating-seed`` (:mod:`api.ratings.seed_make`: real
arena runs, their command and output recorded in the file). Per variant it holds each level's
``mu``, ``sigma`` and ``matches`` and the arena runs they came from.

Loading (:func:`apply`) is one script per variant: each level's rating is written only where
that level has none (``HSETNX``: a rating that exists is never overwritten), with its place in
the computer listing; when every level of the variant was missing, the seed's arena runs are
also marked as rated, so ``sixtysix arena --rate`` with the same settings rates nothing twice.
Several processes loading at once write it once (the second script finds every level set).

:func:`ensure` loads it once per process and Redis client, before the client's first rating
read (:class:`api.ratings.store.RatingStore` calls it), so also before the first rated match
against a computer is computed. A store emptied later gets the seed again from the next
process (or client) that reads it.
"""

from __future__ import annotations

import functools
import json
import threading
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from api.keys import listing_key, rated_marker_key, ratings_key
from api.outbox import NOTE_LUA, OUTBOX_CAP, RATINGS
from api.ratings.model import Rating
from api.runtime.redis_connect import Client

SEED_PATH: Final = Path(__file__).with_name("seed.json")
COMPUTER: Final = "computer"

# KEYS: ratings hash, computer listing, outbox, its overflow flag, then the markers of the
# seed's runs; ARGV: number of levels, four per level (hash field, value, id, ordinal), then
# each run's number of matches, then the outbox entry ('' for none) and the outbox's cap
_SEED: Final = NOTE_LUA + """
local n = tonumber(ARGV[1])
local fresh = 0
for i = 0, n - 1 do
  local j = 2 + 4 * i
  if redis.call('HSETNX', KEYS[1], ARGV[j], ARGV[j + 1]) == 1 then
    redis.call('ZADD', KEYS[2], ARGV[j + 3], ARGV[j + 2])
    fresh = fresh + 1
  end
end
if fresh == n then
  for k = 5, #KEYS do
    for m = 1, tonumber(ARGV[2 + 4 * n + k - 5]) do
      redis.call('HSETNX', KEYS[k], 'match:' .. m, 1)
    end
  end
end
if fresh > 0 then note(KEYS[3], KEYS[4], ARGV[#ARGV - 1], ARGV[#ARGV]) end
return fresh
"""


class SeedError(ValueError):
    """The seed file cannot be read as a seed."""


@dataclass(frozen=True, slots=True)
class VariantSeed:
    #: level -> its rating.
    ratings: Mapping[str, Rating]
    #: (marker source, matches rated) of each arena run.
    runs: tuple[tuple[str, int], ...]


Seed = Mapping[str, VariantSeed]
"""variant -> its levels' seed."""


def parse(doc: Mapping[str, Any]) -> Seed:
    """The seed of a ``seed.json`` document; :class:`SeedError` naming what is wrong."""
    try:
        return {variant: VariantSeed(
            {level: Rating(float(r["mu"]), float(r["sigma"]), int(r["matches"]))
             for level, r in entry["ratings"].items()},
            tuple((str(run["source"]), int(run["matches"])) for run in entry["runs"]))
            for variant, entry in doc["variants"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SeedError(f"not a rating seed: {exc!r}") from None


@functools.cache
def shipped() -> Seed:
    """The seed shipped with the package (:data:`SEED_PATH`)."""
    return parse(json.loads(SEED_PATH.read_text(encoding="utf-8")))


def apply(client: Client, seed: Seed, noted: bool = False) -> dict[str, int]:
    """Load ``seed`` where levels have no rating; the number of levels written per variant.
    ``noted``: a load that wrote anything is also noted in the ratings' outbox (for the
    database, which keeps a level's seed only where it has no rating of it)."""
    from api.ratings.store import rating_entry  # the store loads the seed: imported late

    script = client.register_script(_SEED)
    written = {}
    for variant, entry in seed.items():
        keys = [ratings_key(variant), listing_key(variant, COMPUTER), RATINGS.key,
                RATINGS.overflow]
        keys += [rated_marker_key(source) for source, _ in entry.runs]
        args: list[str | int] = [len(entry.ratings)]
        for level, rating in entry.ratings.items():
            args += [f"{COMPUTER}:{level}", rating.encode(), level, repr(rating.ordinal)]
        args += [matches for _, matches in entry.runs]
        note = rating_entry("seed", variant, [
            (source, f"match:{m}") for source, count in entry.runs
            for m in range(1, count + 1)],
            [((COMPUTER, level), r) for level, r in entry.ratings.items()]) if noted else ""
        args += [note, OUTBOX_CAP]
        written[variant] = int(script(keys=keys, args=args))
    return written


_loaded: weakref.WeakSet[Any] = weakref.WeakSet()
_lock = threading.Lock()


def ensured(client: Client) -> bool:
    """Whether this process loaded the seed through ``client``."""
    return client in _loaded


def ensure(client: Client, noted: bool = False) -> None:
    """Load the shipped seed through ``client`` unless this process did already (``noted``:
    see :func:`apply`)."""
    if client in _loaded:
        return
    with _lock:
        if client not in _loaded:
            apply(client, shipped(), noted)
            _loaded.add(client)
