"""The cap on games per address on a Redis Cluster: the owner's set has a slot of its own."""

from __future__ import annotations

import pytest
import requests

from api.keys import owner_key
from api.runtime.local import LocalServer
from api.runtime.redis_connect import connect
from tests.cluster.conftest import LocalCluster

pytestmark = pytest.mark.cluster


def test_the_cap_holds_on_a_cluster(redis_cluster: LocalCluster,
                                    queue_config: dict[str, str]) -> None:
    cluster = connect(redis_cluster.url)
    cluster.delete(owner_key("127.0.0.1"))  # games of other tests of the session
    try:
        with LocalServer(redis_cluster.url, {"SIXTYSIX_MAX_GAMES_PER_ADDRESS": 2,
                                             **queue_config}) as server:
            answers = [requests.post(f"{server.url}/v1/games", json={}, timeout=10)
                       for _ in range(3)]
        assert [a.status_code for a in answers] == [201, 201, 403]
        assert answers[2].json()["type"] == "https://sixtysix.dev/problems/too-many-games"
        assert cluster.zcard(owner_key("127.0.0.1")) == 2
    finally:
        cluster.delete(owner_key("127.0.0.1"))
        cluster.close()
