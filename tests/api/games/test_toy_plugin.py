"""Proof that a game is a plug-in (issue 38, item 5): the toy game of
:mod:`tests.engine.toy_game`, defined only there and registered here, is served whole over
HTTP by the real app on a real Redis: described by ``GET /v1/rules``, created, viewed per seat,
refused an illegal card with its reason and legal actions, played to the end and its record
replayed, with no change to any file of the service for it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine import registry
from tests.api.helpers import act, assert_problem, bearer, create, view
from tests.engine.toy_game import DECK, TOY

#: The toy's deal from this deck, dealer 0: seat 0 holds AH QH KS, seat 1 KH AS QS and leads.
_DEAL: list[str] = list(DECK)


@pytest.fixture(autouse=True)
def _toy_registered() -> Iterator[None]:
    """The toy is a registered game for this module's tests only."""
    registry.register(TOY)
    yield
    registry.unregister(TOY.name)


def test_the_rules_describe_the_registered_toy(client: FlaskClient) -> None:
    rules: dict[str, Any] = client.get("/v1/rules").json  # type: ignore[assignment]
    toy = next(v for v in rules["variants"] if v["name"] == "toy")
    assert toy["game"] == "toy" and toy["players"] == 2
    assert [o["name"] for o in toy["options"]] == ["last_trick_bonus"]
    assert {v["game"] for v in rules["variants"]} == {"sixty-six", "tausendeins", "toy"}


def test_the_toy_is_created_viewed_played_to_the_end_and_replayed(
        client: FlaskClient) -> None:
    created = create(client, variant="toy", rules={"last_trick_bonus": 10}, first_dealer=0,
                     deck=_DEAL, seats=[{"kind": "human", "name": "Ann"},
                                        {"kind": "human", "name": "Bob"}])
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    assert created["variant"] == "toy" and created["rated"] is False
    views = [view(client, game_id, t) for t in tokens]
    assert [v["game"] for v in views] == ["toy", "toy"]
    assert views[0]["hand"] == ["AH", "QH", "KS"] and views[1]["hand"] == ["KH", "AS", "QS"]
    watcher = view(client, game_id)
    assert watcher["hand"] is None and not {"AH", "KH"} & set(str(watcher))
    hint = client.post(f"/v1/games/{game_id}/hint", headers=bearer(tokens[1]))
    assert assert_problem(hint, 422, "validation-error")["errors"] == {
        "variant": ["positions of toy cannot be analysed"]}

    assert act(client, game_id, tokens[1], {"type": "play", "card": "QS"}).status_code == 200
    refused = assert_problem(act(client, game_id, tokens[0], {"type": "play", "card": "AH"}),
                             409, "illegal-action")
    assert refused["reason"] == "follow suit: play one of KS"
    assert refused["legal_actions"] == [{"type": "play", "card": "KS"}]

    plays = 1
    while (to_act := view(client, game_id)["to_act"]) is not None:
        hand = view(client, game_id, tokens[to_act])["hand"]
        response = act(client, game_id, tokens[to_act], {"type": "play", "card": hand[0]})
        if response.status_code == 409:
            legal = response.json["legal_actions"]  # type: ignore[index]
            response = act(client, game_id, tokens[to_act], legal[0])
        assert response.status_code == 200, response.json
        plays += 1
    final = view(client, game_id, tokens[0])
    assert plays == 6 and final["hand"] == [] and sum(final["points"]) == 11 + 4 + 3 + 11 + 4 + 3

    response = client.get(f"/v1/games/{game_id}/record", headers=bearer(tokens[0]))
    assert response.status_code == 200, response.json
    record: dict[str, Any] = response.json  # type: ignore[assignment]
    assert record["game"] == "toy" and record["variant"] == "toy" and record["deck"] == _DEAL
    replayed = TOY.replay(record)
    assert replayed.points == final["points"] and TOY.outcome(replayed) is not None
