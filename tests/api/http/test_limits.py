"""Rate limits counted in the real Redis, answered 429; body and page caps.

Each test builds the app with limits on and small enough to reach in a few requests; windows
are a minute long, so the test never races a window's end.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api.app import close_app, create_app
from api.http.limits import storage
from api.runtime.redis_connect import connect
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import act, assert_problem, bearer, two_humans


def _app(url: str, **config: Any) -> Flask:
    return create_app({"TESTING": True, "REDIS_URL": url, "SIXTYSIX_RATE_ADDRESS": "off",
                       "SIXTYSIX_RATE_CREATE": "off", "SIXTYSIX_RATE_ACTIONS": "off", **config})


def limits(**config: Any) -> pytest.MarkDecorator:
    """Run the test with a ``limited`` client of the app under ``config``."""
    return pytest.mark.parametrize("limited", [config], indirect=True, ids=[""])


@pytest.fixture
def limited(redis_server: EmbeddedRedis, redis_client: redis.Redis,
            request: pytest.FixtureRequest) -> Iterator[FlaskClient]:
    app = _app(redis_server.url, **request.param)
    yield app.test_client()
    close_app(app)


def _rate_limited(response: Any, limit: str) -> None:
    problem = assert_problem(response, 429, "rate-limited")
    assert problem["limit"] == limit
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert problem["request_id"] == response.headers["X-Request-Id"]


@limits(SIXTYSIX_RATE_ADDRESS="5/minute")
def test_requests_per_address(limited: FlaskClient, redis_client: redis.Redis) -> None:
    for _ in range(5):
        assert limited.get("/v1/rules").status_code == 200
    _rate_limited(limited.get("/v1/rules"), "5 per 1 minute per address")
    # counted in Redis under the limiter's prefix, not in the process
    assert redis_client.keys("*sixtysix:rate*"), redis_client.keys()
    # another address has its own count
    response = limited.get("/v1/rules", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert response.status_code == 200


@limits(SIXTYSIX_RATE_ADDRESS="2/minute")
def test_probes_metrics_and_docs_are_not_limited(limited: FlaskClient) -> None:
    for _ in range(4):
        for path in ("/healthz", "/readyz", "/metrics", "/openapi.json", "/docs", "/redoc"):
            assert limited.get(path).status_code == 200, path


@limits(SIXTYSIX_RATE_ACTIONS="3/minute")
def test_actions_per_token(limited: FlaskClient) -> None:
    game_id, tokens = two_humans(limited)
    for _ in range(3):  # illegal actions count too
        assert act(limited, game_id, tokens[1], {"type": "continue"}).status_code == 409
    _rate_limited(act(limited, game_id, tokens[1], {"type": "continue"}),
                  "3 per 1 minute per token")
    # the other seat's token is counted apart; views are not actions
    assert act(limited, game_id, tokens[0], {"type": "continue"}).status_code != 429
    assert limited.get(f"/v1/games/{game_id}", headers=bearer(tokens[1])).status_code == 200


@limits(SIXTYSIX_RATE_ACTIONS="1/minute")
def test_the_token_is_counted_as_a_digest_only(limited: FlaskClient,
                                                redis_client: redis.Redis) -> None:
    game_id, tokens = two_humans(limited)
    act(limited, game_id, tokens[0], {"type": "continue"})
    keys = b" ".join(redis_client.keys("LIMITS:*"))
    assert keys and tokens[0].encode() not in keys


@limits(SIXTYSIX_RATE_CREATE="2/minute")
def test_game_creation_per_address(limited: FlaskClient) -> None:
    two_humans(limited)
    two_humans(limited)
    _rate_limited(limited.post("/v1/games", json={}), "2 per 1 minute per address for new games")
    assert limited.get("/v1/rules").status_code == 200


@limits(SIXTYSIX_RATE_CREATE="2/minute")
def test_tour_starts_share_the_game_creation_limit(limited: FlaskClient) -> None:
    player = limited.post("/v1/players", json={"name": "Traveller"}).json
    assert player is not None

    def start() -> Any:
        return limited.post("/v1/tour/chicago/start", headers=bearer(player["token"]))

    assert start().status_code == 201
    two_humans(limited)
    _rate_limited(start(), "2 per 1 minute per address for new games")
    _rate_limited(limited.post("/v1/games", json={}), "2 per 1 minute per address for new games")


@limits(SIXTYSIX_RATE_ADDRESS="1/minute", SIXTYSIX_TRUSTED_PROXIES=1)
def test_behind_a_trusted_proxy_the_forwarded_address_counts(limited: FlaskClient) -> None:
    def get(client_ip: str) -> int:
        return limited.get("/v1/rules", headers={"X-Forwarded-For": client_ip}).status_code

    assert get("198.51.100.1") == 200
    assert get("198.51.100.2") == 200
    assert get("198.51.100.1") == 429


@limits(SIXTYSIX_RATE_ADDRESS="1/minute")
def test_without_trusted_proxies_a_forwarded_address_is_ignored(limited: FlaskClient) -> None:
    client = limited
    assert client.get("/v1/rules", headers={"X-Forwarded-For": "198.51.100.1"}).status_code == 200
    assert client.get("/v1/rules", headers={"X-Forwarded-For": "198.51.100.2"}).status_code == 429


def test_a_bad_limit_is_refused_at_startup(redis_server: EmbeddedRedis) -> None:
    with pytest.raises(ValueError, match="SIXTYSIX_RATE_ACTIONS"):
        _app(redis_server.url, SIXTYSIX_RATE_ACTIONS="ten a second")


def test_limits_off_in_the_test_fixture(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    statuses = {act(client, game_id, tokens[1], {"type": "continue"}).status_code
                for _ in range(30)}
    assert statuses == {409}


def test_redis_down_is_503_not_500(redis_server: EmbeddedRedis) -> None:
    """The limiter meets the outage first: the answer is still the store's 503."""
    app = _app("redis://127.0.0.1:1/0", SIXTYSIX_RATE_ADDRESS="5/minute")
    response = app.test_client().get("/v1/rules")
    assert_problem(response, 503, "store-unavailable")
    assert response.headers["Retry-After"]


def test_storage_shares_the_store_pool(redis_server: EmbeddedRedis) -> None:
    client = connect(redis_server.url)
    assert storage(redis_server.url, client) == ("redis://",
                                                 {"connection_pool": client.connection_pool})
    client.close()


def test_body_cap_holds_without_content_length(client: FlaskClient) -> None:
    """A streamed body (no Content-Length; gunicorn marks a chunked one input_terminated)
    past SIXTYSIX_MAX_BODY is a 413 as well."""
    body = b'{"variant": "' + b"x" * (70 * 1024) + b'"}'
    response = client.post("/v1/games", input_stream=io.BytesIO(body),
                           environ_overrides={"wsgi.input_terminated": True},
                           content_type="application/json")
    assert_problem(response, 413, "payload-too-large")


def test_event_pages_are_capped(client: FlaskClient) -> None:
    game_id, _ = two_humans(client)
    assert client.get(f"/v1/games/{game_id}/events?limit=500").status_code == 200
    assert_problem(client.get(f"/v1/games/{game_id}/events?limit=501"), 422, "validation-error")
