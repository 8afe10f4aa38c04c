"""docs/rules.md §13, four-hand with ``deck`` 32 and ``four_hand_scoring`` hoyle (worked case
10's hoyle part), and ``trump_ten_point``, through the engine.

Seat 0 deals unless stated: seat 1 leads, seats 0+2 (side 0) play against 1+3 (side 1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine import (
    HAND_OVER,
    MATCH_OVER,
    IllegalAction,
    InvalidOption,
    InvalidState,
    Rules,
    apply,
    from_json,
    legal_actions,
    to_json,
    view,
)
from engine.actions import Action
from engine.scoring import hoyle_table
from engine.serialize import FIELDS
from tests.engine.helpers import continue_all, of_type, play_out, start

HOYLE = {"deck": 32, "four_hand_scoring": "hoyle"}
TEN_POINT = {**HOYLE, "trump_ten_point": True}

#: Found by a search over shuffled deals played out with first legal cards (seat 0 dealing):
#: side 1 ends with 99 : 31, 100 : 30, and 65 : 65.
DECK_99 = ["8H", "9D", "QH", "7S", "AS", "JS", "JC", "QC", "7H", "AC", "8S", "TH", "KD", "AH",
           "7D", "JD", "8C", "TD", "KS", "9S", "7C", "AD", "QS", "QD", "8D", "9H", "JH", "KC",
           "TS", "KH", "9C", "TC"]
DECK_100 = ["7S", "JS", "9S", "JD", "TH", "AD", "TD", "JC", "TS", "9D", "8C", "9H", "AH", "KH",
            "QD", "KD", "KS", "TC", "7D", "8D", "KC", "QS", "JH", "7H", "QC", "8H", "9C", "8S",
            "QH", "AC", "7C", "AS"]
DECK_TIE = ["AS", "AC", "8S", "QH", "TD", "JD", "7S", "7C", "TS", "AH", "9H", "9S", "KS", "TH",
            "8C", "AD", "JH", "TC", "8D", "8H", "KD", "JS", "9C", "JC", "QD", "KC", "QC", "QS",
            "7H", "KH", "9D", "7D"]


def four_hand_deck32(hands: Mapping[int, Sequence[str]], dealer: int = 0) -> list[str]:
    """The deal order giving each seat its eight cards in packets of 3, 3 and 2 from the
    dealer's left; the dealer's last card fixes trump."""
    order = [(dealer + i) % 4 for i in (1, 2, 3, 4)]
    return [c for lo, hi in ((0, 3), (3, 6), (6, 8)) for seat in order
            for c in hands[seat][lo:hi]]


#: Side 0 holds every club (trump, seat 0) and the side Aces and Tens: it takes every trick
#: when first legal cards are played. Seat 1, on lead, holds the diamond marriage.
SWEEP = four_hand_deck32({
    0: ["AC", "TC", "KC", "QC", "JC", "9C", "8C", "7C"],
    1: ["KD", "QD", "QS", "JS", "9S", "QH", "JH", "9H"],
    2: ["AS", "TS", "AH", "TH", "AD", "TD", "KS", "KH"],
    3: ["8S", "7S", "8H", "7H", "JD", "9D", "8D", "7D"]})


def settlement(state: Any) -> dict[str, Any]:
    s = state.settlement
    assert s is not None
    return s


def totals(state: Any) -> dict[int, int]:
    return {w["side"]: w["total"] for w in settlement(state)["sides"]}


def test_case_10_hoyle_refuses_a_meld_and_offers_none() -> None:
    project = start(SWEEP, "four-hand", {"deck": 32})
    assert Action.from_text("meld:D") in legal_actions(project, 1)
    state = start(SWEEP, "four-hand", HOYLE)
    assert [a for a in legal_actions(state, 1) if a.kind == "meld"] == []
    before = to_json(state)
    with pytest.raises(IllegalAction, match="no marriages") as err:
        apply(state, 1, Action.from_text("meld:D"))
    assert err.value.legal == legal_actions(state, 1)
    assert to_json(state) == before


@pytest.mark.parametrize(("deck", "winner_total", "points"), [
    (DECK_99, 99, 1), (DECK_100, 100, 2)])
def test_case_10_hoyle_99_scores_1_and_100_scores_2(deck: list[str], winner_total: int,
                                                   points: int) -> None:
    state = start(deck, "four-hand", HOYLE)
    play_out(state)
    s = settlement(state)
    assert totals(state) == {1: winner_total, 0: 130 - winner_total}
    assert (s["reason"], s["winners"], s["game_points"]) == ("played_out", [1, 3], points)
    assert (s["carried_points"], s["carried_to_next"]) == (0, 0)
    assert "trump_ten_side" not in s
    assert state.score == [0, points]


def test_case_10_hoyle_every_trick_scores_3() -> None:
    state = start(SWEEP, "four-hand", HOYLE)
    play_out(state)
    s = settlement(state)
    assert len(state.tricks) == 8 and state.won_tricks == [8, 0]
    assert totals(state) == {0: 130, 1: 0}
    assert (s["winners"], s["game_points"], s["explanation"]) == (
        [0, 2], 3, "the winners took every trick")


def test_the_hoyle_lines() -> None:
    assert [hoyle_table(p, False)[0] for p in (66, 99, 100, 120)] == [1, 1, 2, 2]
    assert hoyle_table(130, True)[0] == 3


def test_a_hoyle_declaration_scores_the_declarers_points() -> None:
    state = start(SWEEP, "four-hand", HOYLE)
    declare = Action.from_text("declare")
    while state.credited_points(0) < 66:
        seat = state.to_act()
        assert seat is not None
        apply(state, seat, next(a for a in legal_actions(state, seat) if a.kind == "play"))
    apply(state, state.leader, declare)
    s = settlement(state)
    expected, _ = hoyle_table(state.credited_points(0), False)
    assert (s["reason"], s["winners"], s["game_points"]) == ("declaration", [0, 2], expected)


def test_a_65_65_tie_carries_1_to_the_winners_of_the_next_hand() -> None:
    state = start(DECK_TIE, "four-hand", HOYLE, more=[DECK_100])
    play_out(state)
    s = settlement(state)
    assert totals(state) == {0: 65, 1: 65}
    assert (s["reason"], s["winners"], s["game_points"]) == ("tie", [], 0)
    assert (s["carried_points"], s["carried_to_next"]) == (0, 1)
    assert s["explanation"] == "equal points 65:65; the winners of the next hand get 1 more"
    assert state.carried == 1 and state.score == [0, 0]
    assert view(state, 0)["match"]["carried"] == view(state, None)["match"]["carried"] == 1
    text = to_json(state)
    assert len(json.loads(text)) == 2 + len(FIELDS)  # the carry stored after the members
    assert from_json(text).carried == 1 and to_json(from_json(text)) == text
    continue_all(state)  # seat 1 deals DECK_100 now: seats 0+2 get what 1+3 had
    play_out(state)
    s = settlement(state)
    assert (s["winners"], s["game_points"], s["carried_points"], s["carried_to_next"]) == (
        [0, 2], 3, 1, 0)
    assert s["explanation"].endswith("+1 carried from 1 tied hand")
    assert state.carried == 0 and state.score == [3, 0]
    assert view(state, 1)["match"]["carried"] == 0
    assert len(json.loads(to_json(state))) == 1 + len(FIELDS)


def test_the_trump_ten_is_one_game_point_to_the_side_winning_it() -> None:
    state = start(DECK_99, "four-hand", TEN_POINT)  # the dealer's shown card TC: the trump Ten
    events = play_out(state)
    s = settlement(state)
    ten = [e.data for e in of_type(events, "trump_ten_point")]
    assert len(ten) == 1
    side = ten[0]["side"]
    assert s["trump_ten_side"] == side and ten[0]["seat"] % 2 == side
    hand = {1: 1, 0: 0}
    assert state.score[side] == hand[side] + 1 and state.score[1 - side] == hand[1 - side]


def test_the_trump_ten_at_one_short_wins_the_match_at_once() -> None:
    state = start(DECK_99, "four-hand", TEN_POINT)
    state.score = [6, 6]
    events = play_out(state)
    ten = [e.data for e in of_type(events, "trump_ten_point")]
    side = ten[0]["side"]
    s = settlement(state)
    assert state.status == MATCH_OVER and state.score[side] == 7 and state.score[1 - side] == 6
    assert (s["reason"], s["winner_side"], s["game_points"]) == ("trump_ten", side, 0)
    assert s["match"]["winner_side"] == side
    assert len(state.tricks) < 8  # the hand ended right after the trick of the trump Ten
    assert [w["last_trick_bonus"] for w in s["sides"]] == [0, 0] and s["last_trick_by"] is None
    assert of_type(events, "match_won")


def test_without_the_option_the_trump_ten_counts_nothing() -> None:
    state = start(DECK_99, "four-hand", HOYLE)
    assert of_type(play_out(state), "trump_ten_point") == []
    assert state.status == HAND_OVER
    project = start(DECK_99, "four-hand", {"deck": 32})
    play_out(project)
    s = settlement(project)
    assert not {"carried_points", "carried_to_next", "trump_ten_side"} & set(s)
    assert "carried" not in view(project, 0)["match"]


@pytest.mark.parametrize(("variant", "options", "named"), [
    ("four-hand", {"four_hand_scoring": "hoyle"}, "four_hand_scoring"),
    ("sixty-six", {"deck": 32, "four_hand_scoring": "hoyle"}, "four_hand_scoring"),
    ("four-hand", {"deck": 32, "trump_ten_point": True}, "trump_ten_point"),
    ("four-hand", {**HOYLE, "meld_credit": "next_trick"}, "meld_credit"),
    ("four-hand", {**HOYLE, "meld_before_first_trick": "forbidden"}, "meld_before_first_trick"),
    ("four-hand", {**HOYLE, "false_declaration": "mirror"}, "false_declaration"),
    ("four-hand", {**HOYLE, "played_out_points": "one"}, "played_out_points"),
    ("four-hand", {**HOYLE, "last_trick_bonus": 0}, "last_trick_bonus"),
])
def test_hoyle_combinations_that_cannot_be_played_are_refused(
        variant: str, options: dict[str, object], named: str) -> None:
    with pytest.raises(InvalidOption) as err:
        Rules.make(variant, options)
    assert err.value.option == named


def test_the_options_round_trip_and_the_defaults_change_nothing() -> None:
    rules = Rules.make("four-hand", TEN_POINT)
    assert rules.changed_options() == TEN_POINT
    assert Rules.from_dict(rules.as_dict()) == rules
    assert Rules.make("four-hand", {"deck": 32}).changed_options() == {"deck": 32}


@pytest.mark.parametrize("extra", [["x"], [-1], [True], [1, 1]])
def test_a_stored_carry_that_is_not_a_small_count_is_refused(extra: list[object]) -> None:
    stored = json.loads(to_json(start(DECK_TIE, "four-hand", HOYLE)))
    with pytest.raises(InvalidState, match="corrupt game state"):
        from_json(json.dumps([*stored, *extra]))
    assert from_json(json.dumps([*stored, 2])).carried == 2
