"""``redis+sentinel://`` against a real Sentinel that monitors the session's redis-server."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests
from redis.sentinel import MasterNotFoundError

from api.runtime.local import LocalServer
from api.runtime.redis_connect import connect
from api.runtime.redis_server import (
    HOST,
    EmbeddedRedis,
    RedisServerError,
    _free_port,
    find_redis_server,
)
from tests.api.helpers import assert_waits_for_the_busy_connection

MASTER = "sixtysix-test"
STARTUP_TIMEOUT = 10.0  # seconds until the Sentinel names the master


@pytest.fixture(scope="module")
def sentinel_port(
    redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[int]:
    """A Sentinel (redis-server in sentinel mode) on a free loopback port, for the test master."""
    data_dir: Path = tmp_path_factory.mktemp("sentinel")
    port = _free_port()
    conf = data_dir / "sentinel.conf"  # Sentinel rewrites its config file: it must be writable
    conf.write_text(
        f"bind {HOST}\nport {port}\ndir {data_dir}\n"
        f"sentinel monitor {MASTER} {HOST} {redis_server.port} 1\n"
    )
    with (data_dir / "sentinel.log").open("wb") as log:
        process = subprocess.Popen(
            [find_redis_server(), str(conf), "--sentinel"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    client = redis.Redis(host=HOST, port=port, socket_timeout=1.0)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            try:
                if client.sentinel_get_master_addr_by_name(MASTER):
                    break
            except redis.ConnectionError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RedisServerError(
                    f"sentinel not up: {(data_dir / 'sentinel.log').read_text()}"
                )
            time.sleep(0.05)
        yield port
    finally:
        client.close()
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_sentinel_url_reaches_the_master(
    sentinel_port: int, redis_server: EmbeddedRedis, redis_client: redis.Redis
) -> None:
    client = connect(f"redis+sentinel://{HOST}:{sentinel_port}/{MASTER}/0", socket_timeout=2.0)
    try:
        client.set("sixtysix:sentinel-probe", "here")
        assert redis_client.get("sixtysix:sentinel-probe") == b"here"  # written on the master
        assert client.connection_pool.get_master_address() == (HOST, redis_server.port)
    finally:
        client.close()


def test_sentinel_url_with_unknown_master_fails_on_use(sentinel_port: int) -> None:
    client = connect(f"redis+sentinel://{HOST}:{sentinel_port}/no-such-master")
    try:
        with pytest.raises(MasterNotFoundError):
            client.ping()
    finally:
        client.close()


def test_no_master_known_to_the_sentinels_is_a_503(sentinel_port: int) -> None:
    url = f"redis+sentinel://{HOST}:{sentinel_port}/no-such-master"
    with LocalServer(url) as server:
        response = requests.post(f"{server.url}/v1/games", json={}, timeout=10)
    assert response.status_code == 503, response.text
    assert response.json()["type"] == "https://sixtysix.dev/problems/store-unavailable"
    assert "Retry-After" in response.headers


def test_sentinel_pool_waits_for_a_busy_connection(sentinel_port: int,
                                                   redis_server: EmbeddedRedis) -> None:
    client = connect(f"redis+sentinel://{HOST}:{sentinel_port}/{MASTER}/0", 1,
                     socket_timeout=2.0)
    try:
        assert_waits_for_the_busy_connection(client)  # its one connection to the master
        assert client.connection_pool.get_master_address() == (HOST, redis_server.port)
    finally:
        client.close()
