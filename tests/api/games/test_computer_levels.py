"""Every computer level of engine.ai plays through the service, from its own view only."""

from __future__ import annotations

import random

import pytest
from flask.testing import FlaskClient

from engine.ai import LEVELS
from tests.api.helpers import bearer, create, view


def test_rules_list_every_level() -> None:
    assert set(LEVELS) == {"random", "easy", "normal", "strong", "expert"}


def test_rules_endpoint_publishes_the_levels(client: FlaskClient) -> None:
    published = client.get("/v1/rules").json
    assert published is not None
    names = [level["name"] for level in published["computer_levels"]]
    assert names == list(LEVELS)


@pytest.mark.parametrize("level", list(LEVELS))
def test_a_hand_against_each_level(client: FlaskClient, level: str) -> None:
    """A human plays a whole hand against the computer. The computer answers within the
    write's bounded wait when it can; on a busy machine (or the pure path) its move may
    outlast that wait, and the human then long-polls for it, as any client would."""
    created = create(client, seats=[{"kind": "human", "name": "Ann"},
                                    {"kind": "computer", "level": level}])
    game_id, token = created["game_id"], created["seats"][0]["token"]
    assert created["seats"][1]["token"] is None
    rng = random.Random(level)
    me = view(client, game_id, token)
    computer_moves = 0
    while me["status"] == "playing":
        if me["to_act"] != 0:  # the computer is still thinking: wait for its move
            seen = me["version"]
            me = client.get(f"/v1/games/{game_id}?after_version={seen}&wait=30",
                            headers=bearer(token)).json
            assert me is not None and me["version"] > seen, "no computer move within 30 s"
            computer_moves += 1
            continue
        legal = [a for a in me["legal_actions"] if a["type"] != "declare"]
        response = client.post(f"/v1/games/{game_id}/actions", json=rng.choice(legal),
                               headers=bearer(token))
        assert response.status_code == 200, response.json
        me = response.json
        assert me is not None
        computer_moves += sum(1 for e in me["events"]
                              if e["type"] == "card_played" and e["seat"] == 1)
    assert me["status"] in ("hand_over", "match_over")
    assert computer_moves >= 1
    assert me["settlement"]["reason"]
