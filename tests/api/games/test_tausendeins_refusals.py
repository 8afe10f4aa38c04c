"""A refused Tausendeins action lists the seat's legal actions, as a Sixty-Six one does, and a
bad Tausendeins deck is refused as a Tausendeins deck (not as the Sixty-Six deck it borrows)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.helpers import DECK, act, assert_problem, two_humans, view
from tests.engine.tausendeins.helpers import deck

#: Seat 0 declares in a musik deal and holds TC; musik 2 is KC QH.
MUSIK_DECK = deck(["TC"], [], ["AH", "TH", "KC", "QH"], kind="musik")


def test_a_bad_tausendeins_deck_is_named_as_one(client: FlaskClient) -> None:
    response = client.post("/v1/games", json={"variant": "tausendeins", "deck": DECK[:23]})
    problem = assert_problem(response, 422, "validation-error")
    assert problem["errors"]["deck"][0].startswith("a tausendeins deck has 24 distinct cards")


def test_a_refused_tausendeins_action_lists_the_legal_actions(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, variant="tausendeins", first_dealer=1,
                                 rules={"contract_deal": "musik"})
    for seat, token in enumerate(tokens):
        seen = view(client, game_id, token)
        problem = assert_problem(act(client, game_id, token,
                                     {"type": "play", "card": seen["hand"][0]}),
                                 409, "illegal-action")
        assert problem["legal_actions"] == seen["legal_actions"], seat
    game_id, tokens = two_humans(client, variant="tausendeins", deck=MUSIK_DECK,
                                 rules={"contract_deal": "musik"}, first_dealer=1)
    assert act(client, game_id, tokens[1], {"type": "pass"}).status_code == 200
    assert act(client, game_id, tokens[0], {"type": "take_musik", "musik": 2}).status_code == 200
    seen = view(client, game_id, tokens[0])
    problem = assert_problem(act(client, game_id, tokens[0], {"type": "discard",
                                                              "cards": ["AH", "TH"]}),
                             409, "illegal-action")  # the other musik: not in the hand
    assert problem["legal_actions"] == seen["legal_actions"]
    assert {"type": "discard", "cards": ["TC", "KC"]} in problem["legal_actions"]
