"""The examples of the OpenAPI document are real answers: each is replayed against the app
and compared, with only the game id, token and request id of the run put in."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from api.games.advice import REQUIRED
from api.games.store import VersionConflict
from api.games.tausendeins_position import REQUIRED as T1001_REQUIRED
from api.http import examples
from api.http.examples import ERRORS, GAME_ID, SEEDED_CREATE
from api.http.examples_lobby import LOBBY_ERRORS
from api.http.openapi_docs import CREATED_LINKS, RESPONSES
from tests.api.helpers import bearer

EXAMPLES_1001 = Path(examples.__file__).with_name("examples_tausendeins.json")


def _run(value: Any, game_id: str, token: str | None = None) -> Any:
    """``value`` with the example's game id, token and request id replaced by this run's."""
    text = json.dumps(value).replace(GAME_ID, game_id)
    if token is not None:
        text = text.replace(examples.TOKEN, token)
    return json.loads(text)


def _same_problem(response: Any, name: str, game_id: str) -> None:
    got = response.json
    expected = {**_run(ERRORS[name], game_id), "request_id": got["request_id"]}
    assert got == expected
    assert response.status_code == expected["status"]


@pytest.fixture
def seeded(client: FlaskClient) -> tuple[str, str, dict[str, Any]]:
    response = client.post("/v1/games", json=SEEDED_CREATE)
    assert response.status_code == 201
    created: dict[str, Any] = response.json  # type: ignore[assignment]
    return created["game_id"], created["seats"][0]["token"], created


def test_create_and_view_examples_are_the_seeded_game(
        client: FlaskClient, seeded: tuple[str, str, dict[str, Any]]) -> None:
    game_id, token, created = seeded
    assert created == _run(examples.CREATED, game_id, token)
    assert client.get(f"/v1/games/{game_id}", headers=bearer(token)).json == _run(
        examples.VIEW, game_id)


def test_problem_examples_are_what_the_server_answers(
        client: FlaskClient, seeded: tuple[str, str, dict[str, Any]]) -> None:
    game_id, token, _ = seeded
    actions = f"/v1/games/{game_id}/actions"
    play = {"type": "play", "card": "QH"}
    _same_problem(client.post("/v1/games", data=b"{", content_type="application/json"),
                  "malformed_json", game_id)
    _same_problem(client.post(actions, json=play), "missing_token", game_id)
    _same_problem(client.post(actions, json=play, headers=bearer("nope")), "unknown_token",
                  game_id)
    _same_problem(client.get(f"/v1/games/{GAME_ID}"), "game_not_found", GAME_ID)
    _same_problem(client.post(actions, json={"type": "play", "card": "KD"},
                              headers=bearer(token)), "illegal_action", game_id)
    _same_problem(client.post(actions, json=play, headers={**bearer(token), "If-Match": '"0"'}),
                  "stale_version", game_id)
    _same_problem(client.post(actions, json={"type": "fly"}, headers=bearer(token)),
                  "validation_error", game_id)
    key = {**bearer(token), "Idempotency-Key": "k1"}
    assert client.post(actions, json={"type": "meld", "suit": "H"}, headers=key).status_code == 200
    _same_problem(client.post(actions, json=play, headers=key), "idempotency_key_reused", game_id)
    # seat 1 of a two-human game has no decision at the start of the hand
    other = client.post("/v1/games", json={**SEEDED_CREATE, "seats": [{"kind": "human"}] * 2})
    two = other.json
    assert two is not None
    _same_problem(client.post(f"/v1/games/{two['game_id']}/hint",
                              headers=bearer(two["seats"][1]["token"])), "no_decision",
                  two["game_id"])


def test_version_conflict_example_is_the_store_error() -> None:
    example = ERRORS["version_conflict"]
    assert example["detail"] == str(VersionConflict(GAME_ID, 1, example["current_version"]))


def test_store_unavailable_example_is_what_a_dead_redis_gives() -> None:
    app = create_app({"TESTING": True, "REDIS_URL": "redis://127.0.0.1:1/0",
                      "RATELIMIT_ENABLED": False, "SIXTYSIX_REDIS_TIMEOUT": 1})
    response = app.test_client().get(f"/v1/games/{GAME_ID}")
    assert response.headers["Retry-After"] == "5"
    _same_problem(response, "store_unavailable", GAME_ID)


def test_every_example_is_used_and_links_name_real_operations(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    assert spec is not None
    used = {name for r in RESPONSES.values()
            for media in r["content"].values() for name in media["examples"]}
    assert used == set(ERRORS) | set(LOBBY_ERRORS)
    ids = {op["operationId"] for path in spec["paths"].values() for op in path.values()
           if isinstance(op, dict) and "operationId" in op}
    assert {link["operationId"] for link in CREATED_LINKS.values()} <= ids
    view_form, record_form, t1001_form = spec["components"]["schemas"]["AnalysisRequest"][
        "anyOf"]
    assert set(view_form["required"]) == set(REQUIRED)
    assert set(record_form["required"]) == {"record_text", "seat"}
    assert set(t1001_form["required"]) == set(T1001_REQUIRED)
    body = spec["paths"]["/v1/games"]["post"]["requestBody"]
    assert body["required"] is False
    assert client.post("/v1/games").status_code == 201  # an empty body is a valid creation


def _tausendeins_views(client: FlaskClient) -> tuple[str, dict[str, dict[str, Any]]]:
    """Play the Tausendeins example's first deal as :func:`examples.tausendeins_move` says;
    its game id and Ann's views just after trump was first set and at the settlement."""
    response = client.post("/v1/games", json=examples.TAUSENDEINS_CREATE)
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json  # type: ignore[assignment]
    game_id = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    views: dict[str, dict[str, Any]] = {}
    for _ in range(200):
        seen = [client.get(f"/v1/games/{game_id}", headers=bearer(t)).json for t in tokens]
        ann = seen[0]
        assert ann is not None
        if ann["trump_suit"] is not None and "trump_set" not in views:
            views["trump_set"] = ann
        if ann["status"] == "hand_over":
            views["settled"] = ann
            return game_id, views
        seat = next(s for s, v in enumerate(seen) if v and v["legal_actions"])
        legal = seen[seat]["legal_actions"]  # type: ignore[index]
        answer = client.post(f"/v1/games/{game_id}/actions", headers=bearer(tokens[seat]),
                             json=examples.tausendeins_move(legal))
        assert answer.status_code == 200, answer.json
    raise AssertionError("the example's first deal did not end")


def test_the_tausendeins_view_examples_are_the_seeded_game(client: FlaskClient) -> None:
    game_id, views = _tausendeins_views(client)
    if os.environ.get("SIXTYSIX_WRITE_EXAMPLES") == "1":
        text = json.dumps(views, indent=1, sort_keys=True).replace(game_id, GAME_ID)
        EXAMPLES_1001.write_text(text + "\n", encoding="utf-8")
    assert views == _run(examples.TAUSENDEINS_VIEWS, game_id)
    settlement = views["settled"]["settlement"]
    assert settlement is not None and views["trump_set"]["melds"]
