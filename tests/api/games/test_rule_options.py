"""The options of other rule sets over HTTP (issue 19): published in GET /v1/rules, set when
creating a game or a table, refused in combinations that cannot be played, played by the
engine and the computers, and kept in the record so that a replay is identical."""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from api.http.resources.analysis import POSITION_EXAMPLE
from engine.replay import replay
from tests.api.helpers import act, assert_problem, bearer, create, two_humans, view
from tests.api.lobby_helpers import new_player, new_table, table
from tests.engine.helpers import two_hand_deck

OPTIONS = {"closing": False, "automatic_66": True, "meld_credit": "next_trick",
           "played_out_points": "one"}
#: Seat 1 (forehand with seat 0 dealing) takes 14 and 13 with his spades, then melds 40 in
#: trumps (clubs): 67 points.
DECK = two_hand_deck(["AS", "TS", "AC", "TC", "KC", "QC"],
                     ["9H", "JH", "9D", "JD", "QH", "QD"], "JC")


def test_the_rules_publish_each_option_with_default_values_and_description(
        client: FlaskClient) -> None:
    body = client.get("/v1/rules").json
    assert body is not None
    options = {o["name"]: o for o in body["options"]}
    talon = ["sixty-six", "schnapsen", "three-hand"]
    every = ["sixty-six", "schnapsen", "three-hand", "four-hand"]
    expected = {
        "closing": ("boolean", True, [True, False], talon),
        "automatic_66": ("boolean", False, [False, True], every),
        "meld_credit": ("string", "immediate", ["immediate", "next_trick"], every),
        "played_out_points": ("string", "table", ["table", "one"], every),
    }
    for name, (kind, default, allowed, variants) in expected.items():
        o = options[name]
        assert (o["type"], o["default"], o["allowed"], o["variants"]) == (
            kind, default, allowed, variants), name
        assert len(o["description"]) > 40 and o["source"], name


def test_a_game_with_every_option_plays_by_them(client: FlaskClient) -> None:
    """Automatic 66: the meld that brings seat 1 to 67 ends the hand; no close and no
    declare is ever offered."""
    game_id, tokens = two_humans(client, rules=OPTIONS, deck=DECK, first_dealer=0)
    current = view(client, game_id, tokens[1])
    assert {k: current["rules"][k] for k in OPTIONS} == OPTIONS
    script = [(1, {"type": "play", "card": "AS"}), (0, {"type": "play", "card": "QH"}),
              (1, {"type": "play", "card": "TS"}), (0, {"type": "play", "card": "QD"})]
    for seat, action in script:
        types = {a["type"] for a in view(client, game_id, tokens[seat])["legal_actions"]}
        assert not types & {"close", "declare"}
        response = act(client, game_id, tokens[seat], action)
        assert response.status_code == 200, response.json
    meld = act(client, game_id, tokens[1], {"type": "meld", "suit": "C"})
    assert meld.status_code == 200, meld.json
    body = meld.json
    assert body is not None
    # meld_credit next_trick: the 40 wait for the next trick; no 66 yet, the hand goes on
    assert body["status"] == "playing"
    assert [m["credited"] for m in body["melds"]] == [False]
    response = act(client, game_id, tokens[1], {"type": "play", "card": "KC"})
    assert response.status_code == 200
    response = act(client, game_id, tokens[0], {"type": "play", "card": "9H"})
    body = response.json
    assert body is not None and body["status"] == "hand_over"
    settlement = body["settlement"]
    assert (settlement["reason"], settlement["winners"], settlement["game_points"]) == (
        "reached_66", [1], 3)
    assert any(e["type"] == "reached_66" for e in body["events"])


def test_the_record_keeps_the_options_and_replays_identically(client: FlaskClient) -> None:
    """A match against the computer under every option: the record lists them and its
    replay gives the same settlements and score."""
    created = create(client, rules=OPTIONS, match_points=3,
                     seats=[{"kind": "human"}, {"kind": "computer", "level": "normal"}])
    game_id, token = created["game_id"], created["seats"][0]["token"]
    rng = random.Random(5)
    current = view(client, game_id, token)
    while current["status"] != "match_over":
        assert not {a["type"] for a in current["legal_actions"]} & {"close", "declare"}
        response = act(client, game_id, token, rng.choice(current["legal_actions"]))
        assert response.status_code == 200, response.json
        current = response.json
    record = client.get(f"/v1/games/{game_id}/record").json
    assert record is not None
    assert {k: record["rules"][k] for k in OPTIONS} == OPTIONS
    done = replay(record)
    assert done.state.score == record["result"]["score"]
    assert done.state.rules.automatic_66 and not done.state.rules.closing
    reasons = {h["settlement"]["reason"] for h in record["hands"] if h["settlement"]}
    assert "reached_66" in reasons and reasons <= {"reached_66", "played_out", "tie"}


@pytest.mark.parametrize(("rules", "field"), [
    ({"closing": False, "close_min_talon": 4}, "rules.close_min_talon"),
    ({"closing": "off"}, "rules.closing"),
    ({"automatic_66": "yes"}, "rules.automatic_66"),
    ({"meld_credit": "later"}, "rules.meld_credit"),
    ({"played_out_points": 1}, "rules.played_out_points"),
])
def test_invalid_options_are_422_and_save_nothing(client: FlaskClient,
                                                  redis_client: redis.Redis,
                                                  rules: dict[str, Any], field: str) -> None:
    response = client.post("/v1/games", json={"rules": rules})
    problem = assert_problem(response, 422, "validation-error")
    assert field in problem["errors"], problem
    assert not redis_client.keys("sixtysix:game:*")


def test_closing_does_not_apply_to_four_hand(client: FlaskClient) -> None:
    response = client.post("/v1/games", json={"variant": "four-hand",
                                              "rules": {"closing": False}})
    problem = assert_problem(response, 422, "validation-error")
    assert "rules.closing" in problem["errors"]
    assert "does not apply to four-hand" in problem["detail"]


def test_a_table_takes_the_options(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    created = new_table(client, ann, seats=[{"kind": "player"}, {"kind": "open"}],
                        rules={"automatic_66": True, "closing": False})
    shown = table(client, created["table_id"], ann)
    assert shown["rules"]["automatic_66"] is True and shown["rules"]["closing"] is False
    response = client.post("/v1/tables", headers=bearer(ann), json={
        "seats": [{"kind": "player"}, {"kind": "open"}],
        "rules": {"closing": False, "close_min_talon": 2}})
    problem = assert_problem(response, 422, "validation-error")
    assert "rules.close_min_talon" in problem["errors"]


def test_the_analysis_plays_by_the_position_s_options(client: FlaskClient) -> None:
    """The documented position (forehand to lead, closing offered) with closing off and
    automatic 66: no close is ranked; with the default rules it is."""
    knobs = {"budget_ms": 50, "samples": 4}
    position = {k: v for k, v in POSITION_EXAMPLE.items() if k != "legal_actions"}
    kinds = {}
    for name, rules in (("default", {}), ("options", {"closing": False, "automatic_66": True})):
        body = {**position, "rules": {**position["rules"], **rules}, **knobs}
        response = client.post("/v1/analysis", json=body)
        assert response.status_code == 200, response.json
        kinds[name] = {a["action"]["type"] for a in response.json["actions"]}
    assert "close" in kinds["default"]
    assert "close" not in kinds["options"] and "declare" not in kinds["options"]
    assert kinds["options"] == kinds["default"] - {"close"}
