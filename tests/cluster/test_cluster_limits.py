"""Rate limits counted on a Redis Cluster (limits' own cluster client, same startup nodes)."""

from __future__ import annotations

import pytest
import requests

from api.runtime.local import LocalServer
from tests.cluster.conftest import LocalCluster

pytestmark = pytest.mark.cluster


def test_a_limit_is_shared_by_two_instances_on_a_cluster(redis_cluster: LocalCluster) -> None:
    config = {"RATELIMIT_ENABLED": True, "SIXTYSIX_RATE_ADDRESS": "3/minute"}
    with (LocalServer(redis_cluster.url, config) as a, LocalServer(redis_cluster.url, config) as b,
          requests.Session() as http):
        statuses = [http.get(f"{server.url}/v1/rules", timeout=10).status_code
                    for server in (a, b, a)]
        assert statuses == [200, 200, 200]
        response = http.get(f"{b.url}/v1/rules", timeout=10)
        assert response.status_code == 429
        assert response.json()["limit"] == "3 per 1 minute per address"
        assert int(response.headers["Retry-After"]) >= 1
