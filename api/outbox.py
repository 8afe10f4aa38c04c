"""Outboxes: the changes to ratings, the leaderboard, tour stamps and table results that Redis
took, noted for the database (:mod:`api.archive.durable` drains them in the workers' sweep).

An outbox is a Redis list of JSON entries, at most :data:`OUTBOX_CAP` long. The ratings' and
the leaderboard's outboxes live in their slots (:func:`api.keys.slot_meta_key`), so the script
that commits a change pushes its entry in the same step: a change is in Redis and in its
outbox, or in neither. Tour stamps and table results (each in its own player's or table's
slot) are pushed to :data:`api.keys.OUTBOX` just after their write, and again whenever that
write is offered again (each entry is a fact the database keeps once).

A full outbox takes no more entries: the change is made in Redis all the same (play goes on)
and the outbox's ``overflow`` counter goes up; the next drain then copies the whole slot from
Redis instead (:func:`api.archive.durable.migrate_standings`), and removes the entries that
copy covered (:func:`covered`). Draining (:func:`take`, :func:`done`) removes only the entries
it read, still at the head: of two drains at once the second removes nothing, and each entry's
effect is made once by the database's keys, so a repeat is harmless. Every removal adds to the
outbox's ``popped`` counter, so a copy knows which of the entries it saw are gone since.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, cast

from api.keys import LEADERBOARD_TAG, OUTBOX, RATINGS_TAG, slot_meta_key
from api.runtime.redis_connect import Client

#: Most entries an outbox holds (about 300 B each: some 30 MB at most, a long outage's worth).
OUTBOX_CAP: Final = 100_000

#: Lua: push ARGV entry onto KEYS outbox unless it is full (then set KEYS flag); '' pushes
#: nothing. Used inside the ratings' and the leaderboard's scripts.
NOTE_LUA: Final = """
local function note(outbox, flag, entry, cap)
  if entry == '' then return end
  if redis.call('LLEN', outbox) < tonumber(cap) then redis.call('RPUSH', outbox, entry)
  else redis.call('INCR', flag) end
end
"""

_PUSH: Final = NOTE_LUA + "note(KEYS[1], KEYS[2], ARGV[1], ARGV[2])\nreturn 1\n"

# KEYS: outbox, its popped counter; ARGV: the entries read, in order: pop each while it is
# still the head
_POP: Final = """
local n = 0
for i = 1, #ARGV do
  if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[i] then break end
  redis.call('LPOP', KEYS[1])
  n = n + 1
end
if n > 0 then redis.call('INCRBY', KEYS[2], n) end
return n
"""

# KEYS: outbox, popped counter, overflow counter; ARGV: the outbox's length, popped and
# overflow counters a copy saw: remove what is left of the entries it covered, and clear the
# overflow unless it grew since
_COVERED: Final = """
local left = tonumber(ARGV[1]) - (tonumber(redis.call('GET', KEYS[2]) or '0') - tonumber(ARGV[2]))
if left > 0 then
  redis.call('LTRIM', KEYS[1], left, -1)
  redis.call('INCRBY', KEYS[2], left)
end
if (redis.call('GET', KEYS[3]) or '0') == ARGV[3] then redis.call('DEL', KEYS[3]) end
return math.max(left, 0)
"""


class Box:
    """One outbox: its list, its ``overflow`` counter (changes it had no room for) and its
    ``popped`` counter (entries removed), all in one slot."""

    def __init__(self, key: str, overflow: str, popped: str) -> None:
        self.key = key
        self.overflow = overflow
        self.popped = popped

    @classmethod
    def of_slot(cls, tag: str) -> Box:
        return cls(*(slot_meta_key(tag, part)
                     for part in ("outbox", "outbox-overflow", "outbox-popped")))


RATINGS: Final = Box.of_slot(RATINGS_TAG)
LEADERBOARD: Final = Box.of_slot(LEADERBOARD_TAG)
FACTS: Final = Box(OUTBOX, f"{OUTBOX}-overflow", f"{OUTBOX}-popped")
BOXES: Final = (RATINGS, LEADERBOARD, FACTS)


def push(client: Client, box: Box, entry: str) -> None:
    """Note ``entry`` in ``box`` (or its overflow, when full)."""
    client.register_script(_PUSH)(keys=[box.key, box.overflow], args=[entry, OUTBOX_CAP])


def take(client: Client, box: Box, limit: int) -> list[bytes]:
    """Up to ``limit`` entries from the head of ``box``, left in it."""
    return cast(list[bytes], client.lrange(box.key, 0, limit - 1))


def done(client: Client, box: Box, entries: Sequence[bytes]) -> int:
    """Remove ``entries`` (read by :func:`take`) from the head of ``box``; how many were."""
    if not entries:
        return 0
    return int(client.register_script(_POP)(keys=[box.key, box.popped], args=list(entries)))


def overflowed(client: Client, box: Box) -> bool:
    return bool(client.exists(box.overflow))


def covered(client: Client, box: Box, seen: tuple[int, int, int]) -> int:
    """After a copy of the whole slot that saw ``seen`` (the outbox's length, its ``popped``
    and ``overflow`` counters): remove the entries it covered (those still there) and clear
    the overflow unless it grew; how many went."""
    return int(client.register_script(_COVERED)(keys=[box.key, box.popped, box.overflow],
                                                args=list(seen)))



def read_cached(client: Client, cached: str, loaded: Callable[[], None] | None,
                queue: Callable[[Any], object]) -> list[Any]:
    """The answers of the reads ``queue`` puts on a pipeline, sent with ``EXISTS cached`` in
    one round trip; when the slot's cache is not loaded (``cached`` missing), ``loaded`` loads
    it and the reads are sent again. ``loaded`` ``None`` (no database): the reads alone."""
    pipe = client.pipeline(transaction=False)
    if loaded is not None:
        pipe.exists(cached)
    queue(pipe)
    answers = pipe.execute()
    if loaded is None:
        return list(answers)
    if answers[0]:
        return list(answers[1:])
    loaded()
    pipe = client.pipeline(transaction=False)
    queue(pipe)
    return list(pipe.execute())
