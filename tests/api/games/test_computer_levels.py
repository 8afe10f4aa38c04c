"""Every computer level of engine.ai plays through the service, from its own view only."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api.arena.strength import LADDER, decided_stronger
from engine.ai import LEVELS, RETIRED
from tests.api.helpers import bearer, create, view

STRENGTH = Path(__file__).resolve().parents[3] / "docs" / "strength.json"


def test_rules_list_every_level() -> None:
    assert set(LEVELS) == {"random", "easy", "normal", "strong"}


def test_a_level_is_offered_only_if_decided_stronger_than_the_one_below() -> None:
    """docs/strength.md's table (from docs/strength.json) decides each offered level stronger
    than the level below it; ``expert`` is not (undecided against ``strong`` and
    ``strong_v1``), so it is not offered, and a stored seat of it plays as ``strong``."""
    entries = json.loads(STRENGTH.read_text())
    offered = [a for a, _ in LADDER if a in LEVELS]
    assert offered == [name for name in LEVELS if name != "random"]
    for a, b in LADDER:
        assert a not in LEVELS or decided_stronger(entries, a, b), (a, b)
    assert not decided_stronger(entries, "expert", "strong")
    assert RETIRED == {"expert": "strong"} and RETIRED["expert"] in LEVELS


def test_a_level_no_longer_offered_is_refused_for_a_new_game(client: FlaskClient) -> None:
    refused = client.post("/v1/games", json={"seats": [
        {"kind": "human"}, {"kind": "computer", "level": "expert"}]})
    assert refused.status_code == 422 and refused.json is not None
    assert "no longer offered" in refused.json["errors"]["seats.1.level"][0]
    assert refused.json["allowed"] == list(LEVELS)


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
