"""A game's settled hands are packed in its events list (the game hash's ``packed`` field
lists where each pack ends), and every reader answers as before."""

from __future__ import annotations

import random

import redis
from flask import Flask
from flask.testing import FlaskClient

from api.games.store import GameStore, Logged
from api.keys import events_key, game_key
from tests.api.helpers import act, bearer, two_humans, view


def _play_hands(client: FlaskClient, game_id: str, tokens: list[str], store: GameStore,
                hands: int) -> list[Logged]:
    """Random legal actions (a chat message in every hand) until ``hands`` hands settled and
    a few events of the next one; the events as read after each action, before any pack."""
    rng = random.Random(7)
    seen: list[Logged] = []
    settled = 0
    while settled < hands or seen[-1].event.type == "hand_settled":
        for token in tokens:
            legal = view(client, game_id, token)["legal_actions"]
            if legal:
                break
        else:
            raise AssertionError("no seat may act")
        if rng.random() < 0.1:
            said = client.post(f"/v1/games/{game_id}/chat", json={"text": f"m{len(seen)}"},
                               headers={**bearer(token), "Idempotency-Key": f"c{len(seen)}"})
            assert said.status_code in (200, 201), said.json
        assert act(client, game_id, token, rng.choice(legal)).status_code == 200
        _, _, fresh = store.events(game_id, seen[-1].seq if seen else 0, 500)
        seen += fresh
        settled += sum(e.event.type == "hand_settled" for e in fresh)
    return seen


def _lines(events: list[Logged]) -> list[str]:
    return [e.to_json() for e in events]


def test_settled_hands_are_packed_and_read_back_exactly(
        app: Flask, client: FlaskClient, redis_client: redis.Redis) -> None:
    store: GameStore = app.extensions["sixtysix"].games
    game_id, tokens = two_humans(client)
    seen = _play_hands(client, game_id, tokens, store, hands=2)
    count = len(seen)
    assert [e.seq for e in seen] == list(range(1, count + 1))
    packed = redis_client.hget(game_key(game_id), "packed")
    assert packed is not None
    ends = [int(end) for end in packed.split(b",")]
    assert len(ends) >= 2 and seen[ends[-1] - 1].event.type == "hand_settled"
    assert redis_client.llen(events_key(game_id)) == len(ends) + count - ends[-1]
    raw = sum(len(e.to_json()) for e in seen)
    assert redis_client.memory_usage(events_key(game_id), samples=0) < raw // 2

    game = store.load(game_id)
    assert game.event_count == count
    assert _lines(store.all_events(game)) == _lines(seen)
    for after in range(count + 1):
        assert _lines(store.events_since(game, after)) == _lines(seen[after:])
        for limit in (1, 3):
            assert _lines(store.events(game_id, after, limit)[2]) == _lines(
                seen[after:after + limit])
    page = client.get(f"/v1/games/{game_id}/events?after=0&limit=500").json
    assert page is not None
    assert page["events"] == [e.for_seat(None) for e in seen]


def test_a_chat_key_replays_its_message_once_packed(
        app: Flask, client: FlaskClient, redis_client: redis.Redis) -> None:
    store: GameStore = app.extensions["sixtysix"].games
    game_id, tokens = two_humans(client)
    headers = {**bearer(tokens[0]), "Idempotency-Key": "early"}
    first = client.post(f"/v1/games/{game_id}/chat", json={"text": "hello"}, headers=headers)
    assert first.status_code in (200, 201)
    _play_hands(client, game_id, tokens, store, hands=1)
    assert redis_client.hget(game_key(game_id), "packed") is not None
    again = client.post(f"/v1/games/{game_id}/chat", json={"text": "hello"}, headers=headers)
    assert (again.status_code, again.json) == (first.status_code, first.json)
