"""Security headers on every response, Content-Security-Policy of the docs, CORS."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator

import pytest
import redis
from flask import Flask, Response
from flask.testing import FlaskClient

from api.app import close_app, create_app
from api.http import security
from api.http.security import API_CSP, origins
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import act, bearer, two_humans

STATIC = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
          "X-Frame-Options": "DENY"}


def test_every_kind_of_response_has_the_headers(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    responses = {
        "create": client.post("/v1/games", json={}),
        "view": client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])),
        "act 409": act(client, game_id, tokens[0], {"type": "continue"}),
        "events": client.get(f"/v1/games/{game_id}/events"),
        "404": client.get("/nowhere"),
        "405": client.delete("/v1/games"),
        "rules": client.get("/v1/rules"),
        "metrics": client.get("/metrics"),
        "spec": client.get("/openapi.json"),
        "docs": client.get("/docs"),
    }
    for name, response in responses.items():
        for header, value in STATIC.items():
            assert response.headers[header] == value, name
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"], name
    for name in ("create", "view", "act 409", "events"):
        assert responses[name].headers["Cache-Control"] == "no-store", name
    assert responses["rules"].headers["Content-Security-Policy"] == API_CSP


@pytest.mark.parametrize("path", ["/v1/games/own", "/own"])
def test_a_header_a_view_set_is_replaced_not_doubled(path: str) -> None:
    app = Flask("t")
    app.config["SIXTYSIX_CORS_ORIGINS"] = ""
    security.init(app)

    @app.get(path)
    def own() -> Response:
        return Response("{}", mimetype="application/json",
                        headers={"X-Frame-Options": "SAMEORIGIN", "Cache-Control": "max-age=60"})

    got = app.test_client().get(path).headers
    assert got.getlist("X-Frame-Options") == ["DENY"]
    assert got.getlist("Content-Security-Policy") == [API_CSP]
    assert got.getlist("Cache-Control") == (["no-store"] if path.startswith("/v1/games")
                                            else ["max-age=60"])


def test_an_api_answer_gets_each_header_once(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    got = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).headers
    for name in (*STATIC, "Content-Security-Policy", "Cache-Control"):
        assert len(got.getlist(name)) == 1, name


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_docs_policy_allows_this_server_and_their_own_inline_scripts(client: FlaskClient,
                                                                     path: str) -> None:
    response = client.get(path)
    policy = dict(part.strip().split(" ", 1) for part in
                  response.headers["Content-Security-Policy"].split(";"))
    html = response.get_data(as_text=True)
    for src in re.findall(r'<script src="([^"]+)"', html):
        assert src.startswith("/static/"), src
    assert policy["script-src"].split()[0] == "'self'"
    assert not [s for s in policy["script-src"].split() if s.startswith(("http", "*"))]
    for inline in re.findall(r"<script>(.*?)</script>", html, re.DOTALL):
        digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy["script-src"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert policy["connect-src"] == "'self'"  # the spec at /openapi.json


@pytest.fixture
def cors_client(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[FlaskClient]:
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url, "RATELIMIT_ENABLED": False,
                      "SIXTYSIX_CORS_ORIGINS": "https://play.example, http://localhost:3000/"})
    yield app.test_client()
    close_app(app)


def test_cors_is_closed_by_default(client: FlaskClient) -> None:
    response = client.get("/v1/rules", headers={"Origin": "https://play.example"})
    assert not [k for k, _ in response.headers.items() if k.startswith("Access-Control")]


def test_cors_answers_a_configured_origin(cors_client: FlaskClient) -> None:
    response = cors_client.get("/v1/rules", headers={"Origin": "http://localhost:3000"})
    assert response.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"
    assert "X-Request-Id" in response.headers["Access-Control-Expose-Headers"]
    assert "Origin" in response.headers["Vary"]
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_cors_preflight_of_an_action(cors_client: FlaskClient) -> None:
    response = cors_client.options("/v1/games/abc/actions", headers={
        "Origin": "https://play.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, if-match"})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "https://play.example"
    allowed = response.headers["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "content-type", "if-match", "prefer"} <= set(
        allowed.replace(" ", "").split(","))  # Prefer: respond-async from a browser too
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert "Preference-Applied" in response.headers["Access-Control-Expose-Headers"]


def test_cors_ignores_other_origins(cors_client: FlaskClient) -> None:
    response = cors_client.get("/v1/rules", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in response.headers


def test_origins_are_validated() -> None:
    assert origins("") == frozenset()
    assert origins("*") == frozenset({"*"})
    with pytest.raises(ValueError, match="not an origin"):
        origins("play.example")
    with pytest.raises(ValueError, match="not an origin"):
        origins("https://play.example/path")


def test_cors_preflight_of_a_resumed_stream(cors_client: FlaskClient) -> None:
    """A browser client reading the stream with fetch resumes it with Last-Event-ID."""
    response = cors_client.options("/v1/games/abc/stream", headers={
        "Origin": "https://play.example", "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization, last-event-id"})
    allowed = response.headers["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "last-event-id"} <= set(allowed.replace(" ", "").split(","))
