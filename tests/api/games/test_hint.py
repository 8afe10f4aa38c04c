"""POST /v1/games/{id}/hint: advice for the seat to act; the hand is marked as hinted."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.games.store import VersionConflict
from api.http.resources.hint import mark_hinted
from tests.api.helpers import DECK, act, assert_problem, bearer, two_humans, view

#: Small enough to keep the tests quick.
BUDGET = "?budget_ms=40"


def hint(client: FlaskClient, game_id: str, token: str, query: str = BUDGET) -> Any:
    return client.post(f"/v1/games/{game_id}/hint{query}", headers=bearer(token))


def test_hint_ranks_the_legal_actions_and_marks_the_hand(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    before = view(client, game_id, tokens[0])
    assert before["hinted_hands"] == []
    response = hint(client, game_id, tokens[0])
    assert response.status_code == 200, response.json
    answer = response.json
    assert answer is not None
    legal = {(a["type"], a.get("card"), a.get("suit")) for a in before["legal_actions"]}
    ranked = [(a["action"]["type"], a["action"].get("card"), a["action"].get("suit"))
              for a in answer["actions"]]
    assert set(ranked) == legal and len(ranked) == len(legal)
    assert answer["best"] == answer["actions"][0]["action"]
    assert answer["level"] == "strong" and answer["reason"] and answer["samples"] >= 1
    assert "would_declare_66" not in answer  # hint_66 is off at this table
    assert (answer["game_id"], answer["seat"], answer["hand_no"]) == (game_id, 0, 1)
    assert answer["version"] == before["version"] + 1
    assert response.headers["ETag"] == f'"{answer["version"]}"'
    after = view(client, game_id, tokens[1])
    assert after["hinted_hands"] == [{"seat": 0, "hand_no": 1, "match_no": 1}]
    assert after["version"] == answer["version"]
    again = hint(client, game_id, tokens[0]).json
    assert again is not None and again["version"] == answer["version"]  # marked once
    assert view(client, game_id)["hinted_hands"] == [{"seat": 0, "hand_no": 1, "match_no": 1}]


def test_the_hinted_seat_can_play_on_with_the_new_version(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    answer = hint(client, game_id, tokens[0]).json
    assert answer is not None
    response = act(client, game_id, tokens[0], answer["best"],
                   **{"If-Match": f'"{answer["version"]}"'})
    assert response.status_code == 200, response.json


def test_no_decision_is_a_409(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    body = assert_problem(hint(client, game_id, tokens[1]), 409, "no-decision")
    assert "seat 1" in body["detail"]
    assert view(client, game_id)["hinted_hands"] == []


def test_a_hint_needs_the_seat_token(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    assert_problem(client.post(f"/v1/games/{game_id}/hint"), 401, "unauthorized")
    assert_problem(hint(client, game_id, "nope"), 401, "unauthorized")
    assert_problem(hint(client, "unknown-game", tokens[0]), 404, "game-not-found")
    body = assert_problem(hint(client, game_id, tokens[0], "?budget_ms=60000"), 422,
                          "validation-error")
    assert list(body["errors"]) == ["budget_ms"]


def test_marking_a_changed_game_is_a_version_conflict(app: Flask, client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    store = app.extensions["sixtysix"].games
    stale = store.load(game_id)
    first = view(client, game_id, tokens[0])["legal_actions"][0]
    assert act(client, game_id, tokens[0], first).status_code == 200
    with pytest.raises(VersionConflict):
        mark_hinted(store, stale, 0)
    assert store.load(game_id).meta.get("hinted_hands", []) == []


def _reach_66(client: FlaskClient, hint_66: bool, seed: int) -> tuple[str, str] | None:
    """Play a seeded random hand (no declarations) of a fixed deck until the seat to act
    may declare with 66 credited points; its game and token, or None if the hand ended."""
    rng = random.Random(seed)
    deck = DECK[:]
    rng.shuffle(deck)
    game_id, tokens = two_humans(client, first_dealer=1, deck=deck,
                                 settings={"hint_66": True, "point_counter": True})
    shadow = None
    if not hint_66:
        shadow, shadow_tokens = two_humans(client, first_dealer=1, deck=deck)
    while True:
        seat = view(client, game_id)["to_act"]
        if seat is None:
            return None
        seat_view = view(client, game_id, tokens[seat])
        if seat_view.get("can_declare_66"):
            return (game_id, tokens[seat]) if shadow is None else (shadow, shadow_tokens[seat])
        action = rng.choice([a for a in seat_view["legal_actions"] if a["type"] != "declare"])
        assert act(client, game_id, tokens[seat], action).status_code == 200
        if shadow is not None:
            assert act(client, shadow, shadow_tokens[seat], action).status_code == 200


@pytest.mark.parametrize("hint_66", [True, False])
def test_would_declare_66_only_with_hint_66(client: FlaskClient, hint_66: bool) -> None:
    found = next(g for seed in range(40) if (g := _reach_66(client, hint_66, seed)))
    game_id, token = found
    answer = hint(client, game_id, token).json
    assert answer is not None
    declares = [a for a in answer["actions"] if a["action"]["type"] == "declare"]
    if hint_66:
        assert answer["would_declare_66"] is True
        assert answer["best"] == {"type": "declare"} and declares
    else:
        assert "would_declare_66" not in answer and not declares
        assert "declare" not in answer["reason"]
