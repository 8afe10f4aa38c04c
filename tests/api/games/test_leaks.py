"""No response or event to a seat shows a card of another seat's hand it has not seen.

Two humans play a match (with 24 cards, and with the 32-card pack); after every action each
seat reads its view and its new events.
Every card code in what a seat receives is checked against the true state in Redis: a card
in another seat's hand must be one shown face up (``state.public``). Checked while a hand is
being played (a settled hand reveals what was left), and without the cut for the deal (its
drawn cards are not the dealt ones).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from api.keys import game_key
from engine import PLAYING, from_json
from engine.cards import CARD_CODES, codes
from tests.api.helpers import act, bearer, two_humans, view


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _cards_in(value: Any) -> set[str]:
    return {s for s in _strings(value) if s in CARD_CODES}


def _hidden_from(redis_client: redis.Redis, game_id: str, seat: int | None,
                 ) -> set[str] | None:
    """Cards of the other seats' hands that ``seat`` (``None``: a spectator) may not know;
    ``None`` between hands."""
    state = from_json(redis_client.hget(game_key(game_id), "state") or b"")
    if state.status != PLAYING:
        return None
    hidden: set[str] = set()
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= set(codes(hand & ~state.public))
    return hidden


def _check(received: Any, hidden: set[str] | None) -> int:
    """Assert nothing hidden is in ``received``; 1 if it contained cards to check, else 0."""
    if hidden is None:
        return 0
    if isinstance(received, dict) and isinstance(received.get("events"), list):
        received = {**received, "events": [e for e in received["events"]
                                           if e["type"] != "dealer_chosen"]}
    seen = _cards_in(received)
    assert not seen & hidden, f"leaked {sorted(seen & hidden)}"
    return 1 if seen else 0


@pytest.mark.parametrize("rules", [{}, {"deck": 32}], ids=["24-cards", "32-cards"])
def test_no_seat_sees_another_seats_hidden_cards(client: FlaskClient, redis_client: redis.Redis,
                                                 rules: dict[str, Any]) -> None:
    game_id, tokens = two_humans(client, match_points=7, rules=rules,
                                 settings={"point_counter": True, "hint_66": True})
    rng = random.Random(3)
    after = [0, 0]
    checked = 0
    while True:
        views = []
        for seat, token in enumerate(tokens):
            hidden = _hidden_from(redis_client, game_id, seat)
            seat_view = view(client, game_id, token)
            checked += _check(seat_view, hidden)
            page = client.get(f"/v1/games/{game_id}/events?after={after[seat]}&limit=500",
                              headers=bearer(token)).json
            assert page is not None
            after[seat] = page["next_after"]
            if not any(e["type"] == "hand_settled" for e in page["events"]):
                checked += _check(page, hidden)
            checked += _check(view(client, game_id), _hidden_from(redis_client, game_id, None))
            views.append(seat_view)
        if views[0]["status"] == "match_over":
            break
        seat = next(s for s, v in enumerate(views) if v["legal_actions"])
        response = act(client, game_id, tokens[seat], rng.choice(views[seat]["legal_actions"]))
        assert response.status_code == 200
        checked += _check(response.json, _hidden_from(redis_client, game_id, seat))
    assert checked > 10  # at least 3 hands: each seat's views held cards to check


def test_the_check_catches_a_leak(client: FlaskClient, redis_client: redis.Redis) -> None:
    """Seat 1's own view holds cards hidden from seat 0: the check must object to them."""
    game_id, tokens = two_humans(client)
    hidden_from_0 = _hidden_from(redis_client, game_id, 0)
    assert hidden_from_0
    seat1 = view(client, game_id, tokens[1])
    try:
        _check(seat1, hidden_from_0)
    except AssertionError as exc:
        assert "leaked" in str(exc)
    else:
        raise AssertionError("a view with another seat's hand passed the leak check")
