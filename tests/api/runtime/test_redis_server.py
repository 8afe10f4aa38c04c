"""The embedded redis-server is real: it answers over TCP and keeps its AOF across restarts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import redis

from api.runtime.redis_server import EmbeddedRedis, RedisServerError, find_redis_server


def test_find_redis_server_returns_an_executable() -> None:
    assert os.access(find_redis_server(), os.X_OK)


def test_server_answers_ping(redis_server: EmbeddedRedis) -> None:
    assert redis_server.running
    assert redis_server.url == f"redis://127.0.0.1:{redis_server.port}/0"
    assert redis.Redis.from_url(redis_server.url).ping() is True


def test_set_and_get(redis_client: redis.Redis) -> None:
    assert redis_client.set("sixtysix:test", "66") is True
    assert redis_client.get("sixtysix:test") == b"66"


def test_flushdb_between_tests(redis_client: redis.Redis) -> None:
    assert redis_client.get("sixtysix:test") is None


def test_aof_survives_restart(tmp_path: Path) -> None:
    with EmbeddedRedis(data_dir=tmp_path) as server:
        redis.Redis.from_url(server.url).set("sixtysix:game:1", "state")
    assert not server.running

    with EmbeddedRedis(data_dir=tmp_path) as server:
        assert redis.Redis.from_url(server.url).get("sixtysix:game:1") == b"state"


def test_without_appendonly_nothing_survives(tmp_path: Path) -> None:
    with EmbeddedRedis(data_dir=tmp_path, appendonly=False) as server:
        redis.Redis.from_url(server.url).set("sixtysix:game:1", "state")

    with EmbeddedRedis(data_dir=tmp_path, appendonly=False) as server:
        assert redis.Redis.from_url(server.url).get("sixtysix:game:1") is None


def test_port_in_use_raises_with_server_output(redis_server: EmbeddedRedis) -> None:
    clash = EmbeddedRedis(port=redis_server.port, appendonly=False)
    with pytest.raises(RedisServerError, match="Address already in use"):
        clash.start()
    assert not clash.running
    assert redis.Redis.from_url(redis_server.url).ping() is True


def test_maxmemory_refuses_writes_when_full_and_keeps_the_data(tmp_path: Path) -> None:
    with EmbeddedRedis(data_dir=tmp_path, appendonly=False, maxmemory="3mb") as server:
        client = redis.Redis.from_url(server.url)
        assert client.config_get("maxmemory-policy") == {"maxmemory-policy": "noeviction"}
        value = b"x" * 64 * 1024
        written = 0
        with pytest.raises(redis.exceptions.OutOfMemoryError):
            for written in range(1000):  # far more than 3 MB
                client.set(f"sixtysix:game:{written}", value)
        assert written > 0
        assert client.dbsize() == written  # nothing was evicted
        assert client.get("sixtysix:game:0") == value


def test_without_maxmemory_there_is_no_cap(redis_server: EmbeddedRedis) -> None:
    assert redis_server.maxmemory is None
    assert redis.Redis.from_url(redis_server.url).config_get("maxmemory") == {"maxmemory": "0"}


def test_restart_needs_a_dead_started_server(tmp_path: Path) -> None:
    server = EmbeddedRedis(data_dir=tmp_path, appendonly=False)
    with pytest.raises(RedisServerError, match="never started"):
        server.restart()
    with server, pytest.raises(RedisServerError, match="still running"):
        server.restart()
