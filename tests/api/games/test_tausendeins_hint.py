"""POST /v1/games/{id}/hint in Tausendeins: the strong computer ranks the seat's candidates
on the worker tier at every stage (auction, musik, play), the hand is marked as hinted
(``hinted_hands``, ``match_no`` 1), and a seat not to act has no decision (a 409)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import act, assert_problem, bearer, two_humans, view

MUSIK = {"contract_deal": "musik"}


def hint(client: FlaskClient, game_id: str, token: str) -> Any:
    return client.post(f"/v1/games/{game_id}/hint", headers=bearer(token))


def checked_hint(client: FlaskClient, game_id: str, token: str) -> dict[str, Any]:
    """A hint of the seat to act: a legal best action, several candidates ranked by value."""
    before = view(client, game_id, token)
    response = hint(client, game_id, token)
    assert response.status_code == 200, response.json
    answer: dict[str, Any] = response.json  # type: ignore[assignment]
    legal = before["legal_actions"]
    ranked = [a["action"] for a in answer["actions"]]
    assert answer["best"] == ranked[0] and answer["best"] in legal
    assert all(a in legal for a in ranked) and len(ranked) > 1
    values = [a["expected_game_points"] for a in answer["actions"]]
    assert values == sorted(values, reverse=True)
    assert answer["level"] == "strong" and answer["samples"] >= 1
    assert "deal margin" in answer["reason"] and "would_declare_66" not in answer
    assert (answer["game_id"], answer["seat"], answer["hand_no"]) == \
        (game_id, before["seat"], 1)
    assert response.headers["ETag"] == f'"{answer["version"]}"'
    return answer


def test_hints_at_the_auction_the_musik_and_in_play_mark_the_hand(
        client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, variant="tausendeins", rules=MUSIK, first_dealer=1)
    start = view(client, game_id, tokens[0])
    assert start["stage"] == "auction" and start["hinted_hands"] == []
    bidder = start["to_act"]
    answer = checked_hint(client, game_id, tokens[bidder])
    assert {a["action"]["type"] for a in answer["actions"]} == {"pass", "bid"}
    assert answer["version"] == start["version"] + 1
    marks = [{"seat": bidder, "hand_no": 1, "match_no": 1}]
    assert view(client, game_id, tokens[1 - bidder])["hinted_hands"] == marks
    again = checked_hint(client, game_id, tokens[bidder])
    assert again["version"] == answer["version"]  # marked once a hand
    assert act(client, game_id, tokens[bidder], {"type": "pass"}).status_code == 200
    musik = view(client, game_id, tokens[1 - bidder])
    declarer = musik["auction"]["declarer"]
    assert musik["stage"] == "musik" and declarer == 1 - bidder
    answer = checked_hint(client, game_id, tokens[declarer])
    assert {a["action"]["type"] for a in answer["actions"]} == {"take_musik"}
    marks.append({"seat": declarer, "hand_no": 1, "match_no": 1})
    assert view(client, game_id, tokens[bidder])["hinted_hands"] == marks
    assert act(client, game_id, tokens[declarer], answer["best"]).status_code == 200
    answer = checked_hint(client, game_id, tokens[declarer])
    assert {a["action"]["type"] for a in answer["actions"]} == {"discard"}
    assert len(answer["actions"]) == 8  # the strong computer's cheapest pairs
    current = act(client, game_id, tokens[declarer], answer["best"]).json
    assert current is not None
    while current["stage"] != "play" or len(current["legal_actions"]) < 2:
        current = act(client, game_id, tokens[current["to_act"]],
                      current["legal_actions"][0]).json
        assert current is not None
    seat = current["to_act"]
    answer = checked_hint(client, game_id, tokens[seat])
    assert {a["action"]["type"] for a in answer["actions"]} & {"play", "meld"}
    assert view(client, game_id)["hinted_hands"] == marks


def test_a_seat_not_to_act_has_no_decision(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, variant="tausendeins", first_dealer=1)
    waiting = 1 - view(client, game_id)["to_act"]
    body = assert_problem(hint(client, game_id, tokens[waiting]), 409, "no-decision")
    assert f"seat {waiting}" in body["detail"]
    assert view(client, game_id)["hinted_hands"] == []
