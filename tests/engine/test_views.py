"""Views per seat, events' visibility, and serialization."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    MATCH_OVER,
    PLAYING,
    SCHEMA_VERSION,
    InvalidState,
    Rules,
    Settings,
    apply,
    from_json,
    legal_actions,
    new_game,
    to_json,
    view,
)
from tests.engine.helpers import continue_all, of_type, run, start, two_hand_deck
from tests.engine.test_rule_options import EDGE_66
from tests.engine.test_worked_cases import SWEEP_F, plan_deck

F, D = 1, 0
DEAL = two_hand_deck(["9C", "KH", "QH", "AS", "9D", "JD"], ["AH", "TH", "JS", "9S", "TD", "KD"],
                     "KC")


def test_own_hand_only_and_spectator_sees_no_hand() -> None:
    state = start(DEAL)
    fore, dealer, spectator = view(state, F), view(state, D), view(state, None)
    assert fore["hand"] == ["9C", "AS", "KH", "QH", "JD", "9D"]
    assert dealer["hand"] == ["JS", "9S", "AH", "TH", "TD", "KD"]
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    assert dealer["legal_actions"] == [] and fore["to_act"] == F
    for v in (fore, dealer, spectator):
        assert v["hand_sizes"] == [6, 6] and v["talon_size"] == 12
        assert v["trump_card"] == "KC" and v["trump_suit"] == "C" and v["known_cards"] == {}
        assert "talon" not in v


def test_known_cards_from_meld_and_exchange() -> None:
    state = start(DEAL)
    run(state, "1 exchange; 1 meld:H; 1 play:QH")
    for seat in (D, None):
        assert view(state, seat)["known_cards"] == {"1": ["KC", "KH"]}
    assert view(state, F)["known_cards"] == {}
    assert view(state, D)["trump_card"] == "9C"


def test_events_card_drawn_private_meld_public_trick_reasons() -> None:
    state = start(DEAL)
    events = run(state, "1 play:AS; 0 play:9S")
    assert of_type(events, "trick_won")[0].data["reason"] == "higher_card"
    drawn = of_type(events, "card_drawn")
    assert [e.owner for e in drawn] == [F, D]
    for e in drawn:
        mine, theirs, public = e.for_seat(e.owner), e.for_seat(1 - (e.owner or 0)), e.for_seat(None)
        assert mine["card"] is not None and theirs["card"] is None and public["card"] is None
    events = run(state, "1 play:JD; 0 play:JS")
    assert of_type(events, "trick_won")[0].data == {
        "seat": F, "cards": ["JD", "JS"], "points": 4, "reason": "off_suit"}
    events = run(state, "1 meld:H")
    assert all(e.for_seat(s)["cards"] == ["KH", "QH"] for e in events for s in (D, None))
    events = run(state, "1 play:KH; 0 play:JC")
    assert of_type(events, "trick_won")[0].data["reason"] == "trump"


def test_cards_dealt_private_to_the_receiver() -> None:
    _, events = new_game(Rules.make(), first_dealer=0, decks=[DEAL])
    dealt = of_type(events, "cards_dealt")
    assert dealt[0].for_seat(F)["cards"] == ["9C", "AS", "KH", "QH", "JD", "9D"]
    assert "cards" not in dealt[0].for_seat(D) and "cards" not in dealt[0].for_seat(None)


def test_point_counter_and_hint_66_settings() -> None:
    plain = start(plan_deck(SWEEP_F))
    assert "points" not in view(plain, F) and "can_declare_66" not in view(plain, F)
    state = start(plan_deck(SWEEP_F), settings=Settings(point_counter=True, hint_66=True))
    run(state, "1 meld:C")
    points = view(state, F)["points"]
    assert points[0] == {"side": 1, "seats": [1], "trick_points": 0, "melds": 0,
                         "pending_melds": 40, "total": 0}
    assert view(state, F)["can_declare_66"] is False
    run(state, "1 play:KC; 0 play:9H; 1 play:AC; 0 play:9D; 1 play:TC; 0 play:JH")
    assert view(state, F)["can_declare_66"] is True
    assert view(state, D)["can_declare_66"] is False
    assert "can_declare_66" not in view(state, None)
    assert view(state, None)["points"][0]["total"] == 67


@pytest.mark.parametrize(("last", "points", "can"), [("TS", 65, False), ("AS", 66, True)])
def test_hint_66_lights_at_exactly_66(last: str, points: int, can: bool) -> None:
    """40 and KC+9H (4), then TS+AD (21) or AS+AD (22): 65 or 66."""
    state = start(EDGE_66, settings=Settings(hint_66=True))
    run(state, f"1 meld:C; 1 play:KC; 0 play:9H; 1 play:{last}; 0 play:AD")
    assert state.credited_points(F) == points
    assert view(state, F)["can_declare_66"] is can


def test_match_view_shows_won_and_still_needed() -> None:
    state = start(plan_deck(SWEEP_F), options={"match_points": 11, "set_bummerl": 2})
    run(state, SWEEP_F[2].replace("F ", "1 ").replace("D ", "0 "))
    match = view(state, None)["match"]
    assert match["points"] == [0, 3] and match["needed"] == [11, 8] and match["target"] == 11
    settlement = view(state, D)["settlement"]
    assert settlement["winners"] == [F] and set(settlement["hands_left"]) == {"0", "1"}


def test_serialization_round_trip_and_versioned() -> None:
    state = start(DEAL, options={"match_points": 3}, settings=Settings(hint_66=True))
    run(state, "1 exchange; 1 meld:H; 1 play:QH; 0 play:AH")
    text = to_json(state)
    assert json.loads(text)[0] == SCHEMA_VERSION
    assert to_json(from_json(text)) == text
    assert view(from_json(text), D) == view(state, D)


@pytest.mark.parametrize("text", ["", "[]", '{"v": 99}', '{"v": 1}', "{"])
def test_corrupt_state_is_refused(text: str) -> None:
    with pytest.raises(InvalidState):
        from_json(text)


def test_mid_hand_two_hand_state_is_at_most_1_5_kb() -> None:
    """The largest JSON of any step of random two-hand hands stays within 1.5 KB."""
    rng = random.Random(11)
    state, _ = new_game(Rules.make("sixty-six", {"match_points": 11, "set_bummerl": 3}),
                        Settings(point_counter=True, hint_66=True), first_dealer=0, rng=rng)
    largest = 0
    for _ in range(40):
        while state.status == PLAYING:
            largest = max(largest, len(to_json(state).encode()))
            seat = state.to_act()
            assert seat is not None
            apply(state, seat, rng.choice(legal_actions(state, seat)))
        if state.status == MATCH_OVER:
            break
        continue_all(state, rng)
    assert 0 < largest <= 1536, largest
