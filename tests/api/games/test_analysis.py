"""POST /v1/analysis: any seat's view pasted as it is, ranked; bad positions are 422s."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.http.resources.analysis import POSITION_EXAMPLE
from engine.cards import CARD_CODES
from engine.rules import VARIANTS
from tests.api.helpers import act, assert_problem, bearer, create, two_humans, view

#: Small enough to keep the tests quick.
KNOBS: dict[str, Any] = {"budget_ms": 50, "samples": 4}


def analyse(client: FlaskClient, body: Any) -> Any:
    return client.post("/v1/analysis", json=body)


def assert_ranks_legal_actions(answer: dict[str, Any], position: dict[str, Any]) -> None:
    texts = [a["text"] for a in answer["actions"]]
    legal = [a for a in position["legal_actions"] if a["type"] != "declare"]
    assert len(texts) == len(set(texts))
    assert {(a["action"]["type"], a["action"].get("card"), a["action"].get("suit"))
            for a in answer["actions"] if a["action"]["type"] != "declare"} == {
        (a["type"], a.get("card"), a.get("suit")) for a in legal}
    values = [a["expected_game_points"] for a in answer["actions"]]
    if not answer["would_declare_66"]:
        # a false declaration is ranked last whatever its value: it is never advised
        kinds = [a["action"]["type"] for a in answer["actions"]]
        if "declare" in kinds:
            assert kinds[-1] == "declare"
            values = values[:-1]
        # best first by expected game points; a closing is ranked with its hedge
        ranked = [a["expected_game_points"] for a in answer["actions"]
                  if a["action"]["type"] not in ("close", "declare")]
        assert ranked == sorted(ranked, reverse=True)
    assert answer["best"] == answer["actions"][0]["action"]
    assert all(-3 <= v <= 3 for v in values)
    assert answer["reason"]


def play_randomly(client: FlaskClient, game_id: str, tokens: list[str], moves: int,
                  rng: random.Random) -> None:
    """Play ``moves`` random legal actions (never a declaration) of whoever is to act."""
    for _ in range(moves):
        seat = view(client, game_id)["to_act"]
        assert seat is not None
        legal = [a for a in view(client, game_id, tokens[seat])["legal_actions"]
                 if a["type"] != "declare"]
        assert act(client, game_id, tokens[seat], rng.choice(legal)).status_code == 200


def test_a_view_from_get_is_analysed_as_it_is(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    seat_view = view(client, game_id, tokens[0])
    response = analyse(client, {**seat_view, **KNOBS})
    assert response.status_code == 200, response.json
    answer = response.json
    assert answer is not None
    assert_ranks_legal_actions(answer, seat_view)
    assert 1 <= answer["samples"] <= KNOBS["samples"]
    assert answer["level"] == "strong"


@pytest.mark.parametrize(("variant", "players", "moves", "size"), [
    ("sixty-six", 2, 9, 24), ("sixty-six", 2, 15, 24), ("schnapsen", 2, 7, 24),
    ("three-hand", 3, 6, 24), ("four-hand", 4, 5, 24),
    ("sixty-six", 2, 9, 32), ("sixty-six", 2, 19, 32), ("three-hand", 3, 6, 32),
    ("four-hand", 4, 5, 32)])
def test_positions_deep_in_a_hand_of_every_variant(client: FlaskClient, variant: str,
                                                   players: int, moves: int, size: int) -> None:
    """A fixed deck and seeded moves: the same position every run, still in play (``size``:
    the option ``deck``)."""
    rng = random.Random(moves)
    deck = [CARD_CODES[c] for c in VARIANTS[variant].with_deck(size).deck]
    rng.shuffle(deck)
    created = create(client, variant=variant, first_dealer=0, deck=deck,
                     rules={} if size == 24 else {"deck": size},
                     seats=[{"kind": "human"}] * players)
    game_id = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    play_randomly(client, game_id, tokens, moves, rng)
    seat = view(client, game_id)["to_act"]
    assert seat is not None, "the hand is still being played"
    seat_view = view(client, game_id, tokens[seat])
    assert len(seat_view["tricks"]) >= moves // (players + 1), "deep in the hand"
    response = analyse(client, {**seat_view, **KNOBS, "level": "normal"})
    assert response.status_code == 200, response.json
    assert response.json is not None
    assert_ranks_legal_actions(response.json, seat_view)


def test_the_documented_example_is_a_valid_position(client: FlaskClient) -> None:
    response = analyse(client, {**POSITION_EXAMPLE, **KNOBS})
    assert response.status_code == 200, response.json
    assert response.json is not None
    assert_ranks_legal_actions(response.json, POSITION_EXAMPLE)


def test_members_not_needed_may_be_missing_and_legal_actions_are_derived(
        client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    seat_view = view(client, game_id, tokens[0])
    needed = {k: seat_view[k] for k in (
        "seat", "variant", "rules", "status", "dealer", "to_act", "hand", "hand_sizes",
        "trump_suit", "turned_card", "trump_card", "talon_size", "closed_by",
        "closed_after_tricks", "leader", "trick", "tricks", "melds")}
    response = analyse(client, {**needed, **KNOBS})
    assert response.status_code == 200, response.json
    assert response.json is not None
    assert_ranks_legal_actions(response.json, seat_view)


def _broken(seat_view: dict[str, Any], how: str) -> dict[str, Any]:
    v = copy.deepcopy(seat_view)
    other = next(c for c in POSITION_EXAMPLE["hand"] if c not in v["hand"]  # type: ignore
                 and c != v["trump_card"])
    if how == "duplicate":
        v["hand"][1] = v["hand"][0]
    elif how == "hand_and_trump":
        v["hand"][0] = v["trump_card"]
    elif how == "short_hand":
        v["hand"] = v["hand"][:5]
    elif how == "unknown_card":
        v["hand"][0] = "ZZ"
    elif how == "not_in_deck":
        v["hand"][0] = "9S" if "9S" not in v["hand"] else "9C"
    elif how == "not_your_turn":
        v["to_act"] = 1
    elif how == "to_act_false":  # false == 0 in Python, but not the seat 0
        v["to_act"] = False
    elif how == "hand_over":
        v["status"] = "hand_over"
    elif how == "missing":
        del v["hand"]
    elif how == "spectator":
        v["seat"] = None
    elif how == "legal_actions":
        v["legal_actions"] = [{"type": "play", "card": other}]
    elif how == "hand_sizes":
        v["hand_sizes"] = [6, 5]
    elif how == "rules":
        v["rules"] = {**v["rules"], "close_min_talon": 99}
    elif how == "variant":
        v["variant"] = "skat"
    return v


@pytest.mark.parametrize(("how", "field", "variant"), [
    ("duplicate", "hand", "sixty-six"), ("hand_and_trump", "trump_card", "sixty-six"),
    ("short_hand", "hand", "sixty-six"), ("unknown_card", "hand", "sixty-six"),
    ("not_in_deck", "hand", "schnapsen"), ("not_your_turn", "to_act", "sixty-six"),
    ("to_act_false", "to_act", "sixty-six"),
    ("hand_over", "status", "sixty-six"), ("missing", "hand", "sixty-six"),
    ("spectator", "seat", "sixty-six"), ("legal_actions", "legal_actions", "sixty-six"),
    ("hand_sizes", "hand_sizes", "sixty-six"), ("rules", "rules.close_min_talon", "sixty-six"),
    ("variant", "variant", "sixty-six")])
def test_inconsistent_positions_are_422_naming_the_problem(
        client: FlaskClient, how: str, field: str, variant: str) -> None:
    game_id, tokens = two_humans(client, first_dealer=1, variant=variant)
    seat_view = view(client, game_id, tokens[0])
    body = assert_problem(analyse(client, {**_broken(seat_view, how), **KNOBS}), 422,
                          "validation-error")
    assert list(body["errors"]) == [field], body


def test_knobs_are_capped(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    seat_view = view(client, game_id, tokens[0])
    for knobs in ({"budget_ms": 60_000}, {"samples": 10**6}, {"samples": 0},
                  {"level": "grandmaster"}):
        body = assert_problem(analyse(client, {**seat_view, **knobs}), 422, "validation-error")
        assert list(body["errors"]) == list(knobs)


def test_garbage_in_any_member_is_a_422_never_a_500(client: FlaskClient) -> None:
    """Every member of a real view replaced by values of the wrong kind."""
    game_id, tokens = two_humans(client, first_dealer=1)
    play_randomly(client, game_id, tokens, 3, random.Random(1))
    seat = view(client, game_id)["to_act"]
    seat_view = view(client, game_id, tokens[seat])
    for member in seat_view:
        for junk in (None, "x", -1, [], {}, [{"card": "AH"}], True):
            response = analyse(client, {**seat_view, member: junk, "samples": 1})
            assert response.status_code in (200, 422), (member, junk, response.json)
            assert response.mimetype in ("application/json", "application/problem+json")
    assert analyse(client, [seat_view]).status_code == 422


def test_no_token_is_needed_and_no_game_is_touched(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    before = view(client, game_id, tokens[0])
    assert analyse(client, {**before, **KNOBS}).status_code == 200
    after = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json
    assert after is not None
    assert after["version"] == before["version"] and after["hinted_hands"] == []


RECORD_DECK = ("KH QH AS AH TH KS TS 9C JC QS 9D JD 9H AC TC KC QC JS 9S AD TD KD QD JH")
RECORD_PREFIX = f"variant=sixty-six\ndealer=1 deck={RECORD_DECK} | 0:meld:H 0:play:QH\n"


def test_a_text_record_prefix_is_analysed_as_the_seats_view(client: FlaskClient) -> None:
    """The position is replayed from the text; the answer ranks the same actions as the
    seat's pasted view of that position."""
    game_id, tokens = two_humans(client, deck=RECORD_DECK.split(), first_dealer=1)
    for action in ({"type": "meld", "suit": "H"}, {"type": "play", "card": "QH"}):
        assert act(client, game_id, tokens[0], action).status_code == 200
    pasted = analyse(client, {**view(client, game_id, tokens[1]), **KNOBS})
    from_text = analyse(client, {"record_text": RECORD_PREFIX, "seat": 1, **KNOBS})
    assert pasted.status_code == from_text.status_code == 200, from_text.json
    assert {a["text"] for a in from_text.json["actions"]} == {
        a["text"] for a in pasted.json["actions"]} == {
        f"play:{c}" for c in view(client, game_id, tokens[1])["hand"]}


@pytest.mark.parametrize("body, field, message", [
    ({"record_text": RECORD_PREFIX, "seat": 0}, "to_act", "not seat 0's turn"),
    ({"record_text": RECORD_PREFIX}, "seat", "the seat to analyse"),
    ({"record_text": "dealer=1 deck=? |", "seat": 1}, "record_text", "line 1"),
    ({"record_text": RECORD_PREFIX.replace("0:play:QH", "0:play:AS"), "seat": 1},
     "record_text", "hand 1, action 2: 0:play:AS is illegal"),
    ({"record_text": "variant=sixty-six\ndealer=1 deck=? | 0:play:QH", "seat": 1},
     "record_text", "hand 1 has no deck"),
    ({"record_text": 7, "seat": 1}, "record_text", "Not a valid string"),
])
def test_bad_text_records_are_422_on_their_field(client: FlaskClient, body: dict[str, Any],
                                                 field: str, message: str) -> None:
    problem = assert_problem(analyse(client, {**body, **KNOBS}), 422, "validation-error")
    assert message in " ".join(problem["errors"][field]), problem


def test_a_level_no_longer_offered_does_not_analyse(client: FlaskClient) -> None:
    """``expert`` is not offered (docs/strength.md does not show it stronger than strong)."""
    problem = assert_problem(analyse(client, {**POSITION_EXAMPLE, **KNOBS, "level": "expert"}),
                             422, "validation-error")
    assert "level" in problem["errors"], problem
