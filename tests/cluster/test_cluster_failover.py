"""A cluster with slots no master serves (a master lost, a fail-over under way) is a 503."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests

from api.runtime.local import LocalServer
from api.runtime.redis_server import HOST, EmbeddedRedis
from tests.cluster.conftest import SLOTS, _start_node

STARTUP_TIMEOUT = 10.0


@pytest.fixture
def one_node_cluster(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A cluster of one master serving every slot (not the session's cluster: it is broken)."""
    node = _start_node(tmp_path, set())
    client = redis.Redis(host=HOST, port=node.port, socket_timeout=2.0)
    try:
        client.execute_command("CLUSTER ADDSLOTS", *range(SLOTS))
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while client.execute_command("CLUSTER INFO")["cluster_state"] != "ok":
            assert time.monotonic() < deadline, "cluster not ok"
            time.sleep(0.05)
        yield node
    finally:
        client.close()
        node.stop()


def test_uncovered_slots_are_a_503(one_node_cluster: EmbeddedRedis,
                                   queue_config: dict[str, str]) -> None:
    url = f"redis+cluster://{HOST}:{one_node_cluster.port}"
    with LocalServer(url, queue_config) as server:
        created = requests.post(f"{server.url}/v1/games", json={}, timeout=10)
        assert created.status_code == 201
        game = created.json()["game_id"]
        node = redis.Redis(host=HOST, port=one_node_cluster.port)
        node.execute_command("CLUSTER DELSLOTS", *range(100))  # as if their master were lost
        node.close()
        for response in (requests.get(f"{server.url}/v1/games/{game}", timeout=30),
                         requests.post(f"{server.url}/v1/games", json={}, timeout=30)):
            assert response.status_code == 503, response.text
            assert response.headers["Content-Type"] == "application/problem+json"
            assert response.json()["type"] == "https://sixtysix.dev/problems/store-unavailable"
            assert "Retry-After" in response.headers
