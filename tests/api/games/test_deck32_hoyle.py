"""Four-hand with 32 cards and ``four_hand_scoring`` hoyle over HTTP (docs/rules.md §13,
worked case 10's hoyle part): the options published in GET /v1/rules, a meld refused with
its reason and never offered, hands played out to 1, 2 and 3 game points, the working in the
settlement, the record replaying it, and the combinations that cannot be played refused."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from engine.replay import replay
from tests.api.helpers import act, assert_problem, bearer, create, view
from tests.api.lobby_helpers import new_player, new_table, table
from tests.engine.test_deck32_hoyle import DECK_99, DECK_100, HOYLE, SWEEP, TEN_POINT

HUMANS = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy", "Di")]


def four_humans(client: FlaskClient, deck: list[str], rules: dict[str, object],
                ) -> tuple[str, list[str]]:
    created = create(client, variant="four-hand", rules=rules, seats=HUMANS, deck=deck,
                     first_dealer=0)
    return created["game_id"], [s["token"] for s in created["seats"]]


def play_first_cards(client: FlaskClient, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """Every seat to act plays its first legal card until the hand is over; the last view."""
    current = view(client, game_id, tokens[1])
    while current["status"] == "playing":
        seat = current["to_act"]
        mine = view(client, game_id, tokens[seat])
        card = next(a for a in mine["legal_actions"] if a["type"] == "play")
        response = act(client, game_id, tokens[seat], card)
        assert response.status_code == 200, response.json
        current = response.json
    return current


def test_the_rules_publish_the_hoyle_options(client: FlaskClient) -> None:
    body = client.get("/v1/rules").json
    assert body is not None
    options = {o["name"]: o for o in body["options"]}
    assert [options["four_hand_scoring"][k] for k in ("type", "default", "allowed",
                                                      "variants")] == [
        "string", "project", ["project", "hoyle"], ["four-hand"]]
    assert [options["trump_ten_point"][k] for k in ("type", "default", "allowed",
                                                    "variants")] == [
        "boolean", False, [False, True], ["four-hand"]]


def test_case_10_hoyle_a_meld_is_refused_with_its_reason(client: FlaskClient) -> None:
    game_id, tokens = four_humans(client, SWEEP, HOYLE)
    lead = view(client, game_id, tokens[1])
    assert lead["to_act"] == 1 and {"KD", "QD"} <= set(lead["hand"])
    assert not [a for a in lead["legal_actions"] if a["type"] == "meld"]
    problem = assert_problem(act(client, game_id, tokens[1], {"type": "meld", "suit": "D"}),
                             409, "illegal-action")
    assert "no marriages" in problem["reason"]
    assert problem["legal_actions"] == lead["legal_actions"]


@pytest.mark.parametrize(("deck", "winners", "totals", "points"), [
    (DECK_99, [1, 3], [31, 99], 1), (DECK_100, [1, 3], [30, 100], 2),
    (SWEEP, [0, 2], [130, 0], 3)])
def test_case_10_hoyle_99_100_and_every_trick(client: FlaskClient, deck: list[str],
                                              winners: list[int], totals: list[int],
                                              points: int) -> None:
    game_id, tokens = four_humans(client, deck, HOYLE)
    done = play_first_cards(client, game_id, tokens)
    s = done["settlement"]
    assert (s["reason"], s["winners"], s["game_points"]) == ("played_out", winners, points)
    assert [side["total"] for side in sorted(s["sides"], key=lambda w: w["side"])] == totals
    assert (s["carried_points"], s["carried_to_next"]) == (0, 0)
    assert done["match"]["carried"] == 0
    assert done["match"]["points"] == [points if seat % 2 == winners[0] else 0
                                       for seat in range(4)]
    assert act(client, game_id, tokens[0], {"type": "resign"}).status_code == 200
    record = client.get(f"/v1/games/{game_id}/record").json  # complete: its decks shown
    assert record is not None and record["rules"]["four_hand_scoring"] == "hoyle"
    assert replay(record).state.score == [points if side == winners[0] else 0
                                          for side in (0, 1)]


def test_the_trump_ten_point_shows_in_the_settlement(client: FlaskClient) -> None:
    game_id, tokens = four_humans(client, DECK_99, TEN_POINT)
    done = play_first_cards(client, game_id, tokens)
    s = done["settlement"]
    side = s["trump_ten_side"]
    hand = [s["game_points"] if w == s["winner_side"] else 0 for w in (0, 1)]
    hand[side] += 1
    assert done["match"]["points"] == [hand[seat % 2] for seat in range(4)]
    events = client.get(f"/v1/games/{game_id}/events", headers=bearer(tokens[0])).json
    assert events is not None
    assert [e["side"] for e in events["events"] if e["type"] == "trump_ten_point"] == [side]


@pytest.mark.parametrize(("variant", "rules", "field"), [
    ("four-hand", {"four_hand_scoring": "hoyle"}, "rules.four_hand_scoring"),
    ("sixty-six", {"deck": 32, "four_hand_scoring": "hoyle"}, "rules.four_hand_scoring"),
    ("four-hand", {"deck": 32, "trump_ten_point": True}, "rules.trump_ten_point"),
    ("four-hand", {**HOYLE, "meld_credit": "next_trick"}, "rules.meld_credit"),
])
def test_hoyle_is_refused_where_it_does_not_apply(client: FlaskClient, redis_client: redis.Redis,
                                                  variant: str, rules: dict[str, object],
                                                  field: str) -> None:
    response = client.post("/v1/games", json={"variant": variant, "rules": rules})
    problem = assert_problem(response, 422, "validation-error")
    assert field in problem["errors"]
    assert not redis_client.keys("sixtysix:game:*")


def test_a_four_hand_table_takes_the_hoyle_options(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    created = new_table(client, ann, variant="four-hand",
                        seats=[{"kind": "player"}, *[{"kind": "open"}] * 3], rules=TEN_POINT)
    rules = table(client, created["table_id"], ann)["rules"]
    assert (rules["four_hand_scoring"], rules["trump_ten_point"]) == ("hoyle", True)
