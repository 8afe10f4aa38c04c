"""Every error is an RFC 9457 problem: Flask's own, flask-smorest's, the service's, Redis'."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api.app import close_app, create_app
from api.keys import game_key
from tests.api.helpers import assert_problem, two_humans


@pytest.fixture
def dead_redis_app() -> Iterator[Flask]:
    """The app pointed at a loopback port where no Redis listens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app({"TESTING": True, "REDIS_URL": f"redis://127.0.0.1:{port}/0",
                      "SIXTYSIX_RETRY_AFTER": 7})
    yield app
    close_app(app)


def test_unknown_route_is_404(client: FlaskClient) -> None:
    problem = assert_problem(client.get("/v2/anything"), 404, "not-found")
    assert problem["instance"] == "/v2/anything"


def test_wrong_method_is_405_with_allow(client: FlaskClient) -> None:
    response = client.delete("/v1/games")
    assert_problem(response, 405, "method-not-allowed")
    assert "POST" in response.headers["Allow"]


def test_too_large_a_body_is_413(client: FlaskClient) -> None:
    response = client.post("/v1/games", data=b"{" + b" " * 70000 + b"}",
                           content_type="application/json")
    assert_problem(response, 413, "payload-too-large")


def test_malformed_json_is_400_and_a_bad_field_422(client: FlaskClient) -> None:
    bad = client.post("/v1/games", data="{", content_type="application/json")
    assert "body" in assert_problem(bad, 400, "bad-request")["errors"]
    wrong_type = client.post("/v1/games", json={"seats": "two"})
    assert "seats" in assert_problem(wrong_type, 422, "validation-error")["errors"]
    long_key = client.post("/v1/games", json={}, headers={"Idempotency-Key": "k" * 256})
    assert_problem(long_key, 400, "bad-request")


def test_a_corrupt_game_is_a_500_problem(app: Flask, client: FlaskClient,
                                         redis_client: redis.Redis) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    game_id, _ = two_humans(client)
    redis_client.hset(game_key(game_id), "state", "{not json")
    problem = assert_problem(client.get(f"/v1/games/{game_id}"), 500, "internal-error")
    assert "not json" not in problem["detail"]


def test_redis_down_is_503_with_retry_after(dead_redis_app: Flask) -> None:
    client = dead_redis_app.test_client()
    assert client.get("/healthz").status_code == 200
    for response in (client.get("/readyz"), client.get("/v1/games/abc"),
                     client.post("/v1/games", json={}),
                     client.get("/v1/games/abc/events")):
        assert_problem(response, 503, "store-unavailable")
        assert response.headers["Retry-After"] == "7"
