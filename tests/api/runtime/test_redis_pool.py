"""The web tier's Redis pool (``SIXTYSIX_REDIS_POOL``): a command finding every pooled
connection busy waits for one instead of failing, so a burst of requests larger than the pool
is served, not answered 503; a wait past the timeout still fails, as Redis being down does."""

from __future__ import annotations

import threading
import time

import pytest
import redis

from api.app import close_app, create_app
from api.runtime.redis_connect import connect
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import assert_waits_for_the_busy_connection, two_humans


def test_a_command_waits_for_the_pools_only_connection(redis_server: EmbeddedRedis) -> None:
    client = connect(redis_server.url, 1, socket_timeout=5.0)
    try:
        assert_waits_for_the_busy_connection(client)
    finally:
        client.close()


def test_a_wait_past_the_timeout_fails_as_an_unreachable_store(
        redis_server: EmbeddedRedis) -> None:
    client = connect(redis_server.url, 1, socket_timeout=0.2)
    held = client.connection_pool.get_connection()
    try:
        started = time.monotonic()
        with pytest.raises(redis.ConnectionError):
            client.ping()
        assert time.monotonic() - started >= 0.2
    finally:
        client.connection_pool.release(held)
        client.close()


def test_a_burst_larger_than_the_pool_is_served(redis_server: EmbeddedRedis,
                                                redis_client: redis.Redis) -> None:
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                      "RATELIMIT_ENABLED": False, "SIXTYSIX_REDIS_POOL": 2})
    try:
        game_id, tokens = two_humans(app.test_client())
        statuses: list[int] = []

        def views() -> None:
            client = app.test_client()
            for i in range(40):
                statuses.append(client.get(f"/v1/games/{game_id}", headers={
                    "Authorization": f"Bearer {tokens[i % 2]}"}).status_code)

        threads = [threading.Thread(target=views) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert statuses == [200] * 480
        assert app.extensions["sixtysix"].games.redis.connection_pool.max_connections == 2
    finally:
        close_app(app)


def test_the_pool_size_must_be_positive(redis_server: EmbeddedRedis) -> None:
    with pytest.raises(ValueError, match="SIXTYSIX_REDIS_POOL"):
        create_app({"REDIS_URL": redis_server.url, "SIXTYSIX_REDIS_POOL": 0})

