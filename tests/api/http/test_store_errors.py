"""Redis refusing a write is a true problem, never a 500: a read-only replica is a 503 (retry
later), a full Redis (``maxmemory`` reached) a 507 and nothing saved."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
import requests
from flask.testing import FlaskClient

from api.http.errors import redis_error_code
from api.runtime.local import LocalServer
from api.runtime.redis_server import HOST, EmbeddedRedis
from tests.api.helpers import act, assert_problem, bearer, service_keys, two_humans, view

PROBLEMS = "https://sixtysix.dev/problems/"


@pytest.fixture
def replica(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[EmbeddedRedis]:
    """A read-only replica of the session's server, as a Sentinel fail-over leaves an old
    master behind (or a client pointed at the wrong node)."""
    with EmbeddedRedis(appendonly=False,
                       extra_args=("--replicaof", HOST, str(redis_server.port))) as server:
        yield server


def test_a_write_to_a_read_only_replica_is_a_503(replica: EmbeddedRedis) -> None:
    with LocalServer(replica.url, {"SIXTYSIX_RETRY_AFTER": 3}) as server:
        for response in (requests.post(f"{server.url}/v1/games", json={}, timeout=10),
                         requests.post(f"{server.url}/v1/games", json={}, timeout=10,
                                       headers={"Idempotency-Key": "replica-key-0123456789ab"})):
            assert response.status_code == 503, response.text
            assert response.headers["Content-Type"] == "application/problem+json"
            assert response.json()["type"] == PROBLEMS + "store-unavailable"
            assert response.headers["Retry-After"] == "3"


@pytest.fixture
def full_redis(redis_client: redis.Redis) -> Iterator[redis.Redis]:
    """The session's Redis with ``maxmemory`` below what it uses (restored afterwards)."""
    before = redis_client.config_get("maxmemory")["maxmemory"]
    policy = redis_client.config_get("maxmemory-policy")["maxmemory-policy"]
    redis_client.config_set("maxmemory-policy", "noeviction")
    redis_client.config_set("maxmemory", 1)
    try:
        yield redis_client
    finally:
        redis_client.config_set("maxmemory", before)
        redis_client.config_set("maxmemory-policy", policy)


def test_a_full_store_is_a_507_and_saves_nothing(client: FlaskClient,
                                                 redis_client: redis.Redis,
                                                 request: pytest.FixtureRequest) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    keys = service_keys(redis_client)
    request.getfixturevalue("full_redis")
    refused = [
        client.post("/v1/games", json={}),
        client.post("/v1/games", json={}, headers={"Idempotency-Key": "full-key-0123456789abcd"}),
        act(client, game_id, tokens[0], {"type": "play", "card": view(
            client, game_id, tokens[0])["hand"][0]}),
        act(client, game_id, tokens[0], {"type": "close"}, **{"Idempotency-Key": "full-2"}),
        client.post(f"/v1/games/{game_id}/hint", headers=bearer(tokens[0]),
                    query_string={"budget_ms": 10}),
    ]
    for response in refused:
        problem = assert_problem(response, 507, "insufficient-storage")
        assert "Retry-After" not in response.headers
        assert "nothing was saved" in problem["detail"]
    assert service_keys(redis_client) == keys  # no game, record or marker was left behind
    assert view(client, game_id)["version"] == 1
    assert client.get(f"/v1/games/{game_id}").status_code == 200  # reads go on


def test_error_codes_of_scripts_are_found() -> None:
    script_error = redis.ResponseError(
        "Error running script (call to f_0123): @user_script:15: @user_script: 15: "
        "-OOM command not allowed when used memory > 'maxmemory'.")
    assert redis_error_code(script_error) == "OOM"
    assert redis_error_code(redis.ResponseError(
        "READONLY You can't write against a read only replica.")) == "READONLY"
    assert redis_error_code(redis.ResponseError("WRONGTYPE Operation against a key")) is None
    assert redis_error_code(redis.ResponseError("ERR the word OOM in a message")) is None
