"""POST /v1/games/{id}/actions: applying, computer replies, errors, If-Match, idempotency,
and whole matches played over HTTP."""

from __future__ import annotations

import random
from typing import Any, Final

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import DECK, act, assert_problem, create, two_humans, view


def test_a_legal_play_is_applied_and_answered_with_the_new_view(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    response = act(client, game_id, tokens[0], {"type": "play", "card": "AC"})
    assert response.status_code == 200
    body = response.json
    assert body is not None
    assert response.headers["ETag"] == '"2"' and body["version"] == 2
    assert body["seat"] == 0 and "AC" not in body["hand"]
    assert body["trick"] == [{"seat": 0, "card": "AC"}] and body["to_act"] == 1
    assert [e["type"] for e in body["events"]] == ["card_played"]
    assert body["events"][0]["seq"] > 1


def test_the_answer_waits_for_the_computers_reply(client: FlaskClient) -> None:
    created = create(client, deck=DECK, first_dealer=1,
                     seats=[{"kind": "human"}, {"kind": "computer", "level": "random"}])
    token = created["seats"][0]["token"]
    body = act(client, created["game_id"], token, {"type": "play", "card": "AC"}).json
    assert body is not None
    types = [e["type"] for e in body["events"]]
    assert types[:3] == ["card_played", "card_played", "trick_won"]
    # the human's save, then one save per computer move (made by a worker)
    computer_moves = [e for e in body["events"] if e["type"] == "card_played" and e["seat"] == 1]
    assert body["version"] == 2 + len(computer_moves)
    assert body["to_act"] == 0 or body["trick"]  # the human leads, or the computer did


def test_an_illegal_action_is_409_with_the_reason_and_the_legal_actions(
        client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    legal = view(client, game_id, tokens[0])["legal_actions"]
    problem = assert_problem(act(client, game_id, tokens[0], {"type": "play", "card": "QC"}),
                             409, "illegal-action")
    assert problem["reason"] and problem["legal_actions"] == legal
    not_your_turn = assert_problem(act(client, game_id, tokens[1], {"type": "close"}),
                                   409, "illegal-action")
    assert not_your_turn["legal_actions"] == []
    assert view(client, game_id)["version"] == 1


def test_malformed_actions_are_422_naming_the_field(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    cases = [({"type": "play", "card": "XX"}, "card"), ({"type": "play"}, "card"),
             ({"type": "meld", "suit": "Z"}, "suit"), ({"type": "dance"}, "type"), ({}, "type")]
    for body, field in cases:
        problem = assert_problem(act(client, game_id, tokens[0], body), 422, "validation-error")
        assert field in problem["errors"], body


def test_acting_needs_a_seat_token(client: FlaskClient) -> None:
    game_id, _ = two_humans(client)
    response = client.post(f"/v1/games/{game_id}/actions", json={"type": "close"})
    assert_problem(response, 401, "unauthorized")
    assert_problem(act(client, game_id, "forged", {"type": "close"}), 401, "unauthorized")
    assert_problem(act(client, "nope", "forged", {"type": "close"}), 404, "game-not-found")


def test_if_match_with_a_stale_version_is_412_and_changes_nothing(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    stale = act(client, game_id, tokens[0], {"type": "play", "card": "AC"}, **{"If-Match": '"7"'})
    problem = assert_problem(stale, 412, "stale-version")
    assert problem["current_version"] == 1
    assert view(client, game_id)["version"] == 1
    fresh = act(client, game_id, tokens[0], {"type": "play", "card": "AC"}, **{"If-Match": '"1"'})
    assert fresh.status_code == 200


#: If-Match values as RFC 9110 reads them, for a game at version 1: applied (a strong tag
#: "1" in the list, or *), stale (a well-formed list without it: weak tags never match
#: strongly) or malformed (a 400, whatever the game's version).
IF_MATCH_APPLIED: Final = ('"1"', '"0", "1"', "*", ' "1" ', '"0" ,\t"1"', ', "1",', '"2", "1"')
IF_MATCH_STALE: Final = ('W/"1"', '"2", W/"1"', '"2"', '"01"', '""', "", " , ")
IF_MATCH_MALFORMED: Final = ('"1', "1", "W/1", 'w/"1"', 'W/ "1"', '"1" "2"', '*, "1"',
                             '"1"x', '"1\x7f"', '"1 "', '"a"b"', "**")


@pytest.mark.parametrize(("given", "status"), [
    *((g, 200) for g in IF_MATCH_APPLIED), *((g, 412) for g in IF_MATCH_STALE),
    *((g, 400) for g in IF_MATCH_MALFORMED)])
def test_if_match_is_read_as_rfc_9110_says(client: FlaskClient, given: str,
                                            status: int) -> None:
    """Strong comparison of a well-formed list; a malformed header is a 400 naming it, never
    skipped (a lenient parser once let ``"1`` through as if no condition were set)."""
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    answer = act(client, game_id, tokens[0], {"type": "play", "card": "AC"}, **{"If-Match": given})
    assert answer.status_code == status, answer.get_data(as_text=True)
    if status == 400:
        problem = assert_problem(answer, 400, "bad-request")
        assert "If-Match" in problem["errors"] and "If-Match" in problem["detail"]
    assert view(client, game_id)["version"] == (2 if status == 200 else 1)


def test_a_malformed_if_match_is_refused_before_a_replay(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    action, key = {"type": "play", "card": "AC"}, {"Idempotency-Key": "k1"}
    assert act(client, game_id, tokens[0], action, **key).status_code == 200
    assert_problem(act(client, game_id, tokens[0], action, **key, **{"If-Match": '"2'}),
                   400, "bad-request")


def test_idempotent_replay_applies_once(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    action = {"type": "play", "card": "AC"}
    first = act(client, game_id, tokens[0], action, **{"Idempotency-Key": "a1"})
    second = act(client, game_id, tokens[0], action, **{"Idempotency-Key": "a1"})
    assert first.status_code == second.status_code == 200
    assert second.json == first.json and second.headers["ETag"] == '"2"'
    assert second.headers["Idempotent-Replayed"] == "true"
    assert view(client, game_id)["version"] == 2
    other = act(client, game_id, tokens[0], {"type": "play", "card": "TC"},
                **{"Idempotency-Key": "a1"})
    assert_problem(other, 422, "idempotency-key-reused")
    by_other_seat = act(client, game_id, tokens[1], action, **{"Idempotency-Key": "a1"})
    assert_problem(by_other_seat, 422, "idempotency-key-reused")


def _play_out(client: FlaskClient, game_id: str, tokens: list[str], rng: random.Random,
              ) -> tuple[dict[str, Any], int]:
    """Both seats choose random legal actions from their views until the game is over."""
    moves = 0
    while True:
        views = [view(client, game_id, t) for t in tokens]
        if views[0]["status"] == "match_over":
            return views[0], moves
        acting = [s for s, v in enumerate(views) if v["legal_actions"]]
        assert acting, views[0]
        seat = acting[0]
        response = act(client, game_id, tokens[seat], rng.choice(views[seat]["legal_actions"]),
                       **{"If-Match": f'"{views[seat]["version"]}"'})
        assert response.status_code == 200, response.json
        moves += 1


def test_two_humans_play_a_whole_match(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, match_points=3)
    final, moves = _play_out(client, game_id, tokens, random.Random(66))
    assert final["match"]["set_winner"] in (0, 1)
    assert max(final["match"]["points"]) >= 3
    assert final["version"] == moves + 1
    assert all(v["legal_actions"] == [] for v in (view(client, game_id, t) for t in tokens))
    assert_problem(act(client, game_id, tokens[0], {"type": "continue"}), 409, "illegal-action")


def test_against_the_computer_with_auto_continue_hands_follow_at_once(
        client: FlaskClient) -> None:
    created = create(client, variant="schnapsen", match_points=7,
                     settings={"auto_continue": True})
    game_id, token = created["game_id"], created["seats"][0]["token"]
    rng = random.Random(7)
    hands = set()
    while (seat0 := view(client, game_id, token))["status"] != "match_over":
        assert seat0["status"] == "playing" and seat0["to_act"] == 0
        assert seat0["settings"]["auto_continue"] is True
        hands.add(seat0["hand_no"])
        assert act(client, game_id, token, rng.choice(seat0["legal_actions"])).status_code == 200
    # a hand scores at most 3 game points, so 7 take at least 3 hands
    assert len(hands) >= 3 and seat0["match"]["set_winner"] in (0, 1)
