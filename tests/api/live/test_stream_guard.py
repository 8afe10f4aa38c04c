"""A stream never sends faster than what it follows changes (:func:`api.live.streams.follow`),
whatever its source renders: woken by real notices on the session's Redis."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import redis

from api.keys import notify_channel
from api.live.notify import Notice, VersionWaiter, publish
from api.live.streams import MIN_GAP, follow
from tests.waiting import until

CHANNEL = notify_channel("guarded")
#: Seconds the streams are watched after their first change.
WATCHED = 0.5


@dataclass
class Stale:
    """A game whose renderings never catch up with the notices (as a rendering shared by the
    streams once did after a hint and a chat message): each call of :meth:`changed` counted."""

    version: int = 1
    cursor: int = 4
    calls: int = 0

    def first(self) -> bytes:
        return b"first"

    def changed(self, announced: Notice) -> bytes:
        self.calls += 1
        return b"the same view again"

    def beat(self) -> tuple[bytes, Notice]:
        return b"", Notice(self.version, self.cursor)


@dataclass
class Current(Stale):
    """A game whose renderings hold what was announced."""

    def changed(self, announced: Notice) -> bytes:
        self.calls += 1
        self.version, self.cursor = announced.version, max(self.cursor, announced.seq)
        return b"view %d" % self.version


@contextmanager
def streaming(client: redis.Redis, source: Stale) -> Iterator[list[bytes]]:
    """The chunks :func:`follow` sends of ``source`` (heartbeats a minute apart) while the
    block runs; the stream is drained after it."""
    waiter = VersionWaiter(client)
    chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: chunks.extend(follow(waiter, CHANNEL, source,
                                                                  60.0)))
    reader.start()
    try:
        yield chunks
    finally:
        waiter.drain()
        reader.join()
        waiter.close()


def test_a_notice_the_rendering_does_not_catch_up_with_wakes_the_stream_once(
        redis_client: redis.Redis) -> None:
    source = Stale()
    with streaming(redis_client, source) as chunks:
        def woken() -> bool:  # once the listener is subscribed, the notice wakes the stream
            publish(redis_client, CHANNEL, "1:5")  # a chat message at the same version
            return source.calls > 0
        until(woken, "stream woken by the chat's notice", interval=0.05)
        watched = time.monotonic() + WATCHED
        while time.monotonic() < watched:
            publish(redis_client, CHANNEL, "1:5")  # the same notice again: nothing new
            time.sleep(0.05)
        assert source.calls == 1
        assert chunks == [b"first"]  # nothing new was rendered: nothing sent


def test_a_stream_wakes_at_most_once_per_min_gap(redis_client: redis.Redis) -> None:
    source = Current()
    with streaming(redis_client, source) as chunks:
        version = 1

        def woken() -> bool:
            nonlocal version
            version += 1
            publish(redis_client, CHANNEL, str(version))
            return source.calls > 0
        until(woken, "stream woken by a save's notice", interval=0.05)
        calls = source.calls
        watched = time.monotonic() + WATCHED
        while time.monotonic() < watched:  # a save every 5 ms
            version += 1
            publish(redis_client, CHANNEL, str(version))
            time.sleep(0.005)
        until(lambda: source.version == version, "the last save sent")
        assert source.calls - calls <= WATCHED / MIN_GAP + 2
        assert chunks[-1] == b"view %d" % version
        assert len(chunks) == 1 + source.calls
