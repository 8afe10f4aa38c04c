"""POST /v1/analysis of a pasted Tausendeins seat's view: the strong computer's ranking on the
worker tier (at the auction and in play); malformed views are 422s naming their field, never
500s, whatever member is dropped or replaced."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import event, given, settings
from hypothesis import strategies as st

from api.games.tausendeins_position import REQUIRED
from tests.api.helpers import act, assert_problem, two_humans, view

MUSIK = {"contract_deal": "musik"}
#: Card codes of the 24-card deck and some that are not in it.
CODES = [r + s for r in "9TJQKA" for s in "CSHD"] + ["7H", "8C", "ZZ", "ah"]


def analyse(client: FlaskClient, body: Any) -> Any:
    return client.post("/v1/analysis", json=body)


def auction_view(client: FlaskClient) -> dict[str, Any]:
    game_id, tokens = two_humans(client, variant="tausendeins", rules=MUSIK, first_dealer=1)
    bidder = view(client, game_id)["to_act"]
    return view(client, game_id, tokens[bidder])


def musik_view(client: FlaskClient) -> dict[str, Any]:
    """The declarer's view after taking the first musik, to discard two cards."""
    game_id, tokens = two_humans(client, variant="tausendeins", rules=MUSIK, first_dealer=1)
    bidder = view(client, game_id)["to_act"]
    assert act(client, game_id, tokens[bidder], {"type": "pass"}).status_code == 200
    declarer = 1 - bidder
    taken = act(client, game_id, tokens[declarer], {"type": "take_musik", "musik": 1})
    assert taken.status_code == 200, taken.json
    return view(client, game_id, tokens[declarer])


def play_view(client: FlaskClient) -> dict[str, Any]:
    """A view in the play stage with a choice, the first legal action taken until then."""
    game_id, tokens = two_humans(client, variant="tausendeins", rules=MUSIK, first_dealer=1)
    while True:
        current = view(client, game_id, tokens[view(client, game_id)["to_act"]])
        if current["stage"] == "play" and len(current["legal_actions"]) > 1:
            return current
        response = act(client, game_id, tokens[current["seat"]], current["legal_actions"][0])
        assert response.status_code == 200, response.json


def checked_analysis(client: FlaskClient, seat_view: dict[str, Any]) -> dict[str, Any]:
    response = analyse(client, seat_view)
    assert response.status_code == 200, response.json
    answer: dict[str, Any] = response.json
    ranked = [a["action"] for a in answer["actions"]]
    legal = seat_view["legal_actions"]
    assert answer["best"] == ranked[0] and all(a in legal for a in ranked)
    assert len(ranked) > 1
    values = [a["expected_game_points"] for a in answer["actions"]]
    assert values == sorted(values, reverse=True)
    assert answer["level"] == "strong" and answer["samples"] >= 1
    assert "deal margin" in answer["reason"]
    return answer


def test_a_view_at_the_auction_is_analysed(client: FlaskClient) -> None:
    seat_view = auction_view(client)
    assert seat_view["stage"] == "auction"
    answer = checked_analysis(client, seat_view)
    assert {a["action"]["type"] for a in answer["actions"]} == {"pass", "bid"}


def test_a_view_at_the_musik_is_analysed(client: FlaskClient) -> None:
    seat_view = musik_view(client)
    assert seat_view["musik"]["cards"]
    answer = checked_analysis(client, seat_view)
    assert {a["action"]["type"] for a in answer["actions"]} == {"discard"}


def test_a_view_in_play_is_analysed_with_only_the_members_needed(
        client: FlaskClient) -> None:
    seat_view = play_view(client)
    answer = checked_analysis(client, {k: seat_view[k] for k in REQUIRED})
    assert {a["action"]["type"] for a in answer["actions"]} & {"play", "meld"}


def _broken(seat_view: dict[str, Any], how: str) -> dict[str, Any]:
    v = copy.deepcopy(seat_view)
    if how == "missing":
        del v["stock_size"]
    elif how == "spectator":
        v["seat"] = None
    elif how == "seat_two":
        v["seat"] = 2
    elif how == "not_to_act":
        v["to_act"] = 1 - v["seat"]
    elif how == "unknown_card":
        v["hand"][0] = "ZZ"
    elif how == "not_in_deck":
        v["hand"][0] = "7H"
    elif how == "twice":
        v["hand"][1] = v["hand"][0]
    elif how == "trick_and_hand":
        v["trick"] = [{"seat": 1 - v["seat"], "card": v["hand"][0]}]
    elif how == "hand_sizes":
        v["hand_sizes"] = "8"
    elif how == "no_legal_actions":
        del v["legal_actions"]
    elif how == "legal_actions":
        v["legal_actions"] = [{"type": "play", "card": v["hand"][0]}]
    elif how == "meld_suit":
        v["melds"] = [{"seat": 0, "suit": "X", "value": 100, "trick_no": 1,
                       "state": "credited", "credited_at": 1}]
    elif how == "totals":
        v["totals"] = [0]
    return v


@pytest.mark.parametrize(("how", "field"), [
    ("missing", "stock_size"), ("spectator", "seat"), ("seat_two", "seat"),
    ("not_to_act", "to_act"), ("unknown_card", "hand"), ("not_in_deck", "hand"),
    ("twice", "hand"), ("trick_and_hand", "trick"), ("hand_sizes", "hand_sizes"),
    ("no_legal_actions", "legal_actions"), ("legal_actions", "legal_actions"),
    ("meld_suit", "melds.0.suit"), ("totals", "totals")])
def test_malformed_views_are_422_naming_the_field(client: FlaskClient, how: str,
                                                  field: str) -> None:
    seat_view = play_view(client)
    body = assert_problem(analyse(client, _broken(seat_view, how)), 422, "validation-error")
    assert list(body["errors"]) == [field], body


def test_a_tausendeins_record_has_no_text_form(client: FlaskClient) -> None:
    body = assert_problem(analyse(client, {"record_text": "variant=tausendeins\n", "seat": 0}),
                          422, "validation-error")
    assert list(body["errors"]) == ["record_text"]
    assert "no text form" in str(body["errors"]["record_text"])


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every member and list item of ``value``, as key paths."""
    out: list[tuple[Any, ...]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, inner in items:
        out.append((*prefix, key))
        out += _paths(inner, (*prefix, key))
    return out


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.sampled_from(CODES),
                 st.text(max_size=3), st.lists(st.sampled_from(CODES), max_size=3),
                 st.just({}), st.just([{"seat": 0, "card": "AH"}]),
                 st.dictionaries(st.sampled_from(["0", "1", "x"]),
                                 st.lists(st.sampled_from(CODES), max_size=2), max_size=2))


def test_mutated_real_views_are_never_a_500(client: FlaskClient) -> None:
    """Real views (at the auction, the musik and in play), up to three members or list items each
    dropped or replaced by values of the wrong kind or card codes: 200 or 422."""
    real = [auction_view(client), musik_view(client), play_view(client)]

    @settings(max_examples=60, deadline=None)
    @given(data=st.data())
    def mutated(data: st.DataObject) -> None:
        seat_view = copy.deepcopy(data.draw(st.sampled_from(real), label="view"))
        for _ in range(data.draw(st.integers(1, 3), label="mutations")):
            path = data.draw(st.sampled_from(_paths(seat_view)), label="path")
            parent = seat_view
            for key in path[:-1]:
                parent = parent[key]
            if data.draw(st.booleans(), label="drop"):
                del parent[path[-1]]
            else:
                parent[path[-1]] = copy.deepcopy(data.draw(JUNK, label="junk"))
        response = analyse(client, {**seat_view, "level": "normal"})
        assert response.status_code in (200, 422), (seat_view, response.json)
        event(f"status {response.status_code}")

    mutated()
