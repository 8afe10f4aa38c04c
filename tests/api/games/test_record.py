"""GET /v1/games/{id}/record (issue 15 D item 7): access, masking, formats, and replay of
random matches of every variant played over HTTP."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.record import parse_text
from engine.replay import replay
from engine.rules import VARIANTS
from tests.api.helpers import DECK, act, assert_problem, bearer, create, two_humans, view
from tests.engine.test_properties import card_codes_in


def record(client: FlaskClient, game_id: str, token: str | None = None,
           **query: str) -> Any:
    response = client.get(f"/v1/games/{game_id}/record", query_string=query,
                          headers=bearer(token) if token else {})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response


def random_match(client: FlaskClient, variant: str, seed: int) -> str:
    """A match of ``variant``: seat 0 human playing random legal actions, the others
    computers; answers the game id once it is over."""
    players = VARIANTS[variant].players
    created = create(client, variant=variant, match_points=3, seats=[{"kind": "human"}] + [
        {"kind": "computer", "level": "random"}] * (players - 1))
    game_id, token = created["game_id"], created["seats"][0]["token"]
    rng = random.Random(seed)
    current = view(client, game_id, token)
    while current["status"] != "match_over":
        response = act(client, game_id, token, rng.choice(current["legal_actions"]))
        assert response.status_code == 200, response.json
        current = response.json
    return game_id


@pytest.mark.parametrize("variant", tuple(VARIANTS))
def test_a_random_match_over_http_replays_to_its_settlements_and_result(
        client: FlaskClient, variant: str) -> None:
    game_id = random_match(client, variant, seed=len(variant))
    final = view(client, game_id)
    body = record(client, game_id).json  # after the match: no token needed
    assert body["complete"] is True and body["status"] == "match_over"
    assert len(body["hands"]) == final["hand_no"]
    assert all(len(h["deck"]) == len(VARIANTS[variant].deck) for h in body["hands"])
    assert body["result"]["reason"] == "points"
    assert body["result"]["winner_side"] == final["match"]["winner"] is not None
    done = replay(body)
    assert done.hands == final["hand_no"]
    assert done.state.score == body["result"]["score"]
    text = record(client, game_id, format="text")
    assert text.mimetype == "text/plain"
    lines = text.get_data(as_text=True).splitlines()
    assert lines[0].startswith(f"# sixtysix record of game {game_id}")
    assert lines[1].startswith(f"variant={variant}") and len(lines) == 2 + final["hand_no"]
    assert replay(parse_text(text.get_data(as_text=True))).state.score == done.state.score


def test_during_the_match_only_seats_read_it_without_decks(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    act(client, game_id, tokens[0], {"type": "play", "card": "AC"})
    problem = assert_problem(client.get(f"/v1/games/{game_id}/record"), 401, "unauthorized")
    assert "only to its seats" in problem["detail"]
    assert_problem(client.get(f"/v1/games/{game_id}/record", headers=bearer("x" * 43)), 401,
                   "unauthorized")
    mine = record(client, game_id, tokens[1]).json
    assert mine["complete"] is False and mine["result"] is None
    assert mine["hands"] == [{"hand_no": 1, "dealer": 1, "deck": None,
                              "cards": view(client, game_id, tokens[1])["hand"],
                              "actions": [{"seat": 0, "type": "play", "card": "AC"}],
                              "settlement": None}]
    text = record(client, game_id, tokens[1], format="text").get_data(as_text=True)
    assert "dealer=1 deck=? | 0:play:AC" in text
    assert_problem(client.get(f"/v1/games/{game_id}/record?format=xml",
                              headers=bearer(tokens[0])), 422, "validation-error")
    assert_problem(client.get("/v1/games/nosuchgame/record"), 404, "game-not-found")


def test_an_aborted_game_has_a_public_record_without_result(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    act(client, game_id, tokens[1], {"type": "abort"})
    body = record(client, game_id).json
    assert body["status"] == "aborted" and body["hands"][0]["deck"] == DECK
    assert body["result"]["reason"] == "aborted" and body["result"]["winners"] == []
    assert replay(body).state.status == "aborted"


def seen_cards(client: FlaskClient, game_id: str, token: str) -> set[str]:
    """Every card code in the seat's view now and in all its events."""
    events = client.get(f"/v1/games/{game_id}/events?limit=500", headers=bearer(token)).json
    return set(card_codes_in(view(client, game_id, token))) | set(card_codes_in(events))


def test_a_seats_record_shows_no_card_it_could_not_see_and_no_secret(
        client: FlaskClient, redis_client: Any) -> None:
    game_id, tokens = two_humans(client, settings={"auto_continue": False})
    rng = random.Random(4)
    seen: list[set[str]] = [set(), set()]
    for _ in range(60):
        if view(client, game_id, tokens[0])["status"] == "match_over":
            break  # a finished game's record shows every deck: nothing more to check
        for seat, token in enumerate(tokens):
            seen[seat] |= seen_cards(client, game_id, token)
            body = record(client, game_id, token)
            text = body.get_data(as_text=True)
            assert set(card_codes_in(body.json)) <= seen[seat]
            assert set(re.findall(r"\b[ATKQJ9][CSHD]\b", record(
                client, game_id, token, format="text").get_data(as_text=True))) <= seen[seat]
            assert not any(t in text for t in tokens)
            assert "token" not in text and "sha256" not in text
        meta = json.loads(redis_client.hget(f"sixtysix:game:{{{game_id}}}", "meta"))
        assert not any(s["token_sha256"] in text for s in meta["seats"])
        views = [view(client, game_id, t) for t in tokens]
        current = next(v for v in views if v["legal_actions"])
        act(client, game_id, tokens[current["seat"]], rng.choice(current["legal_actions"]))
