"""Who may ask comes first: an operation that needs a token answers 401 before it reads its
body or query, and a private table's game is a 404 to a foreign token, as an unknown game is
(its existence never leaks)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api.http.body import MAX_DEPTH
from api.http.credentials import documented_operations, required_scheme
from tests.api.helpers import assert_problem, bearer
from tests.api.lobby_helpers import new_player, new_table

ME: dict[str, str] = {"kind": "player"}
CPU: dict[str, str] = {"kind": "computer", "level": "random"}
#: A body no operation takes (every field of the wrong type), and a query likewise.
MALFORMED: Any = {"seats": 5, "seat": "x", "text": 7, "type": 9, "name": 3, "invite_code": 1}
BAD_QUERY: dict[str, str] = {"limit": "x", "after": "x", "budget_ms": "x", "cursor": "?"}
#: Every game-scoped operation that takes a seat token: method, path after the game id.
GAME_OPERATIONS: list[tuple[str, str, Any]] = [
    ("GET", "", None), ("GET", "/events", None), ("GET", "/record", None),
    ("GET", "/stream", None), ("POST", "/stream-ticket", None),
    ("POST", "/actions", {"type": "resign"}), ("POST", "/chat", {"text": "hi"}),
    ("POST", "/hint", None)]


def _needing_a_token(app: Flask) -> list[tuple[str, str, str]]:
    return [(rule, method, scheme) for rule, method, _, apidoc in documented_operations(app)
            if (scheme := required_scheme(apidoc)) is not None]


def test_the_sweep_finds_every_operation_that_needs_a_token(app: Flask) -> None:
    found = {(rule, method) for rule, method, _ in _needing_a_token(app)}
    assert {("/v1/tables", "POST"), ("/v1/tables/<table_id>/join", "POST"),
            ("/v1/games/<game_id>/actions", "POST"), ("/v1/games/<game_id>/chat", "POST"),
            ("/v1/games/<game_id>/hint", "POST"), ("/v1/players/me", "GET"),
            ("/v1/tour/<station>/start", "POST")} <= found
    assert ("/v1/games", "POST") not in found and ("/v1/games/<game_id>", "GET") not in found


def _call(client: FlaskClient, method: str, path: str, headers: dict[str, str]
          ) -> TestResponse:
    return client.open(path, method=method, json=MALFORMED, query_string=BAD_QUERY,
                       headers=headers)


@pytest.mark.parametrize("authorization", [None, "Basic YTpi", "Bearer ", "Bearer nobody"])
def test_a_missing_or_unknown_token_is_a_401_before_the_body_is_read(
        app: Flask, client: FlaskClient, authorization: str | None) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    for rule, method, scheme in _needing_a_token(app):
        path = (rule.replace("<game_id>", "gNoSuchGame0").replace("<table_id>", "tNoSuchTbl0")
                .replace("<station>", "chicago"))
        if scheme == "seatToken" and authorization == "Bearer nobody":
            continue  # whose seat a token is, only its game tells (a 404 here: no such game)
        response = _call(client, method, path, headers)
        assert response.status_code == 401, (method, rule, response.get_data(as_text=True))
        assert_problem(response, 401, "unauthorized")
        assert response.headers["WWW-Authenticate"] == 'Bearer realm="sixtysix"'


#: A JSON body nested deeper than any parser is let see (a 400 of its own once past the token).
TOO_DEEP: bytes = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)


@pytest.mark.parametrize("suffix", ["/actions", "/chat", "/hint", "/stream-ticket"])
@pytest.mark.parametrize("body", ["malformed", "too deep"])
def test_a_wrong_seat_token_is_a_401_before_the_body_or_query_is_read(
        client: FlaskClient, suffix: str, body: str) -> None:
    game_id = client.post("/v1/games", json={}).json["game_id"]  # type: ignore[index]
    data = TOO_DEEP if body == "too deep" else json.dumps(MALFORMED).encode()
    response = client.post(f"/v1/games/{game_id}{suffix}", data=data,
                           content_type="application/json", query_string=BAD_QUERY,
                           headers=bearer("not-a-seat-token"))
    assert_problem(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="sixtysix"'


def test_post_tables_without_authorization_is_a_401_not_the_bodys_422(
        client: FlaskClient) -> None:
    response = client.post("/v1/tables", json={"seats": "nonsense"})
    problem = assert_problem(response, 401, "unauthorized")
    assert "errors" not in problem


def _same_answer(first: TestResponse, second: TestResponse) -> None:
    assert (first.status_code, first.mimetype) == (second.status_code, second.mimetype)
    a: Any = first.json
    b: Any = second.json
    assert (a["type"], a["title"]) == (b["type"], b["title"])


@pytest.mark.parametrize(("method", "suffix", "body"), GAME_OPERATIONS)
def test_a_private_tables_game_is_a_404_to_a_foreign_token_like_an_unknown_game(
        client: FlaskClient, method: str, suffix: str, body: Any) -> None:
    _, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    private = new_table(client, bob, seats=[ME, CPU], visibility="private")["game_id"]
    public = new_table(client, ann, seats=[ME, CPU])
    for foreign in (public["you"]["token"], ann, "any-bearer-token"):
        headers = bearer(foreign)
        hidden = client.open(f"/v1/games/{private}{suffix}", method=method, json=body,
                             headers=headers)
        unknown = client.open(f"/v1/games/gNoSuchGame0{suffix}", method=method, json=body,
                              headers=headers)
        assert_problem(hidden, 404, "game-not-found")
        _same_answer(hidden, unknown)
    # a public game's existence is no secret: a foreign token there is a 401
    response = client.open(f"/v1/games/{public['game_id']}{suffix}", method=method, json=body,
                           headers=bearer(ann))
    assert_problem(response, 401, "unauthorized")
