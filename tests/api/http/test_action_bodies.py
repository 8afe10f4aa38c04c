"""An action body is read strictly (docs/api.md, "Actions"): each type takes its own member
and no other, card and suit codes exactly as written (upper case, nothing around them), a
discard a list of two codes; each fault a 422 naming the member, with nothing applied."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from api.http.resources.analysis import POSITION_EXAMPLE
from tests.api.helpers import DECK, act, assert_problem, two_humans, view
from tests.engine.tausendeins.helpers import deck

#: Seat 0 declares in a musik deal and holds TC; musik 2 is KC QH.
MUSIK_DECK = deck(["TC"], [], ["AH", "TH", "KC", "QH"], kind="musik")

#: For every action type of each game, a member of another type.
FOREIGN: dict[str, list[dict[str, Any]]] = {
    "sixty-six": [
        {"type": "play", "card": "QH", "suit": "H"}, {"type": "meld", "suit": "H", "card": "KH"},
        {"type": "exchange", "card": "9H"}, {"type": "close", "suit": "H"},
        {"type": "declare", "card": "QH"}, {"type": "continue", "card": "QH"},
        {"type": "resign", "card": "QH"}, {"type": "abort", "suit": "H"},
        {"type": "pause", "card": "QH"}],
    "tausendeins": [
        {"type": "play", "card": "QH", "suit": "H"}, {"type": "meld", "suit": "H", "card": "KH"},
        {"type": "bid", "points": 110, "musik": 1}, {"type": "pass", "card": "QH"},
        {"type": "take_musik", "musik": 2, "points": 110},
        {"type": "discard", "cards": ["9C", "9S"], "card": "9C"},
        {"type": "raise", "points": 120, "cards": ["9C", "9S"]},
        {"type": "continue", "musik": 1}, {"type": "resign", "points": 0},
        {"type": "abort", "card": "QH"}, {"type": "pause", "suit": "H"}],
}


def _musik_discard(client: FlaskClient) -> tuple[str, list[str]]:
    """A Tausendeins game in which seat 0 has taken musik 2 and is to discard."""
    game_id, tokens = two_humans(client, variant="tausendeins",
                                 rules={"contract_deal": "musik"}, deck=MUSIK_DECK,
                                 first_dealer=1)
    assert act(client, game_id, tokens[1], {"type": "pass"}).status_code == 200
    assert act(client, game_id, tokens[0], {"type": "take_musik", "musik": 2}).status_code == 200
    return game_id, tokens


def _refused(client: FlaskClient, game_id: str, token: str, body: dict[str, Any],
             member: str) -> str:
    """Check ``body`` is a 422 on ``member`` alone and changed nothing; its message."""
    before = view(client, game_id, token)["version"]
    problem = assert_problem(act(client, game_id, token, body), 422, "validation-error")
    assert list(problem["errors"]) == [member], problem
    assert view(client, game_id, token)["version"] == before
    message: str = problem["errors"][member][0]
    return message


@pytest.mark.parametrize(("variant", "body"), [
    (variant, body) for variant, bodies in FOREIGN.items() for body in bodies],
    ids=lambda v: v["type"] if isinstance(v, dict) else v)
def test_a_member_of_another_action_type_is_a_422_naming_it(
        client: FlaskClient, variant: str, body: dict[str, Any]) -> None:
    game_id, tokens = two_humans(client, variant=variant)
    foreign = list(body)[-1]
    message = _refused(client, game_id, tokens[0], body, foreign)
    assert f"'{foreign}' is not a member of {body['type']}" in message
    assert view(client, game_id)["status"] == "playing"  # a resign with a stray member too


@pytest.mark.parametrize("cards", [["9C,9S"], ["KC TC"], ["KC", "TC", "QH"], ["KC"], []])
def test_a_discard_is_a_list_of_two_codes(client: FlaskClient, cards: list[str]) -> None:
    game_id, tokens = _musik_discard(client)
    message = _refused(client, game_id, tokens[0], {"type": "discard", "cards": cards}, "cards")
    assert "two card codes" in message or "not a card code" in message
    assert act(client, game_id, tokens[0],
               {"type": "discard", "cards": ["KC", "TC"]}).status_code == 200


@pytest.mark.parametrize(("body", "member"), [
    ({"type": "play", "card": "qh"}, "card"), ({"type": "play", "card": "Qh"}, "card"),
    ({"type": "play", "card": " QH"}, "card"), ({"type": "play", "card": "QH "}, "card"),
    ({"type": "meld", "suit": "h"}, "suit"), ({"type": "meld", "suit": "H "}, "suit")])
def test_codes_are_upper_case_and_bare_in_sixty_six(client: FlaskClient, body: dict[str, Any],
                                                    member: str) -> None:
    game_id, tokens = two_humans(client, first_dealer=1, deck=DECK)
    assert "upper case" in _refused(client, game_id, tokens[0], body, member)


@pytest.mark.parametrize("cards", [["kc", "TC"], ["KC", "tc"], [" KC", "TC"], ["KC", "TC "]])
def test_codes_are_upper_case_and_bare_in_tausendeins(client: FlaskClient,
                                                      cards: list[str]) -> None:
    game_id, tokens = _musik_discard(client)
    message = _refused(client, game_id, tokens[0], {"type": "discard", "cards": cards}, "cards")
    assert "upper case" in message


def test_a_deck_of_lower_case_codes_is_refused(client: FlaskClient) -> None:
    for variant in ("sixty-six", "tausendeins"):
        response = client.post("/v1/games", json={"variant": variant,
                                                  "deck": [c.lower() for c in DECK]})
        problem = assert_problem(response, 422, "validation-error")
        assert "upper case" in problem["errors"]["deck"][0]


def test_an_analysed_position_or_record_of_lower_case_codes_is_refused(
        client: FlaskClient) -> None:
    position = {**POSITION_EXAMPLE, "hand": ["ac", "TC", "KC", "KS", "QS", "9H"]}
    problem = assert_problem(client.post("/v1/analysis", json=position), 422,
                             "validation-error")
    assert "upper case" in problem["errors"]["hand"][0]
    record = f"variant=sixty-six\ndealer=1 deck={' '.join(DECK)} | 0:meld:h\n"
    problem = assert_problem(client.post("/v1/analysis", json={"record_text": record,
                                                              "seat": 1}),
                             422, "validation-error")
    assert "upper case" in problem["errors"]["record_text"][0]
