"""Scoring rows of docs/rules.md §4 beyond the worked cases, matches (Bummerl) and sets."""

from __future__ import annotations

import random

import pytest

from engine import MATCH_OVER, PLAYING
from engine.cards import MELD_VALUES, SUITS, meld_value
from tests.engine.helpers import act, continue_all, of_type, play_out, run, start, two_hand_deck
from tests.engine.test_worked_cases import (
    BONUS_DECK,
    BONUS_SCRIPT,
    ONE_D,
    SWEEP_D,
    SWEEP_F,
    plan_deck,
    play_plan,
    side,
)


def test_closers_opponent_declares_without_trick_at_closing_gets_3() -> None:
    state = start(two_hand_deck(["9H", "JH", "9D", "JD", "QD", "9S"],
                                ["AC", "TC", "KC", "QC", "AS", "TS"], "JC"))
    run(state, "1 close; 1 play:9H; 0 play:AC; 0 meld:C; 0 play:KC; 1 play:JH; 0 play:TC; "
               "1 play:9D; 0 declare")
    s = state.settlement
    assert s is not None
    assert (s["reason"], s["winners"], s["game_points"]) == ("declaration_against_closer", [0], 3)


def test_closers_opponent_declares_correctly_gets_at_least_2() -> None:
    """The closer has 41 points (the table would give 1); against a closer it is 2."""
    state = start(two_hand_deck(["AH", "TH", "9S", "AD", "9D", "JS"],
                                ["KH", "QH", "AS", "JD", "9H", "JH"], "JC",
                                ["KS", "KC", "QS", "QC", "TC", "KD", "QD", "AC"]))
    run(state, "1 play:AH; 0 play:KH; 1 play:TH; 0 play:QH; 1 play:9S; 0 play:AS; 0 play:JD; "
               "1 play:AD; 1 close; 1 play:9D; 0 play:AC; 0 meld:C; 0 play:KC; 1 play:JS; "
               "0 declare")
    s = state.settlement
    assert s is not None
    assert s["at_close"] == {"side": 0, "points": 11, "tricks": 1}
    assert side(s, 1)["total"] == 41 and side(s, 0)["total"] == 68
    assert (s["reason"], s["winners"], s["game_points"]) == ("declaration_against_closer", [0], 2)


def test_closed_and_played_out_with_66_is_a_successful_closing_without_bonus() -> None:
    state = start(two_hand_deck(["AC", "TC", "KC", "QC", "AH", "TH"],
                                ["9S", "JS", "QS", "KS", "9D", "JD"], "JC"))
    run(state, "1 close; 1 meld:C; 1 play:KC; 0 play:9S")
    play_out(state)
    s = state.settlement
    assert s is not None
    assert side(s, 1)["total"] == 100 and side(s, 1)["last_trick_bonus"] == 0
    assert (s["reason"], s["winners"], s["game_points"]) == ("closed_played_out", [1], 3)


@pytest.mark.parametrize("rule", ["fixed", "mirror"])
def test_false_declaration_against_no_trick_gives_3(rule: str) -> None:
    state = start(plan_deck(SWEEP_F), options={"false_declaration": rule})
    run(state, "1 play:AC; 0 play:9H; 1 declare")
    s = state.settlement
    assert s is not None
    assert (s["reason"], s["winners"], s["game_points"], s["missing_points"]) == (
        "false_declaration", [0], 3, 55)


@pytest.mark.parametrize(("schneider", "bummerl"), [(True, 2), (False, 1)])
def test_option_schneider_bummerl(schneider: bool, bummerl: int) -> None:
    state = start(plan_deck(SWEEP_F), options={"match_points": 3, "schneider_bummerl": schneider})
    events = play_plan(SWEEP_F, 1, 0, state)
    assert state.bummerl == [bummerl, 0]
    assert of_type(events, "match_won")[0].data["bummerl_given"] == {"0": bummerl}


@pytest.mark.parametrize("points", [3, 7, 11])
def test_option_match_points(points: int) -> None:
    """Seat 1 wins 3 game points a hand; the match ends at the first hand reaching the target."""
    plans = [SWEEP_F, SWEEP_D] * 2
    state = start(plan_deck(plans[0]), options={"match_points": points},
                  more=[plan_deck(p) for p in plans[1:]])
    hands = 0
    while state.status != MATCH_OVER:
        fore, dealer = state.active
        play_plan(plans[hands], fore, dealer, state)
        hands += 1
        assert state.score[1] == 3 * hands
        if state.status != MATCH_OVER:
            assert state.score[1] < points
            continue_all(state)
    assert hands == -(-points // 3)
    assert state.set_winner == 1


@pytest.mark.parametrize("needed", [1, 2, 3])
def test_option_set_bummerl(needed: int) -> None:
    """Seat 0 loses 3:7 matches (one Bummerl each) until the set is decided."""
    rng = random.Random(0)
    plans = [SWEEP_D, SWEEP_D, SWEEP_F, ONE_D] * 3
    state = start(plan_deck(plans[0]), options={"set_bummerl": needed},
                  more=[plan_deck(p) for p in plans[1:]])
    matches = 0
    for i, plan in enumerate(plans):
        fore, dealer = state.active
        play_plan(plan, fore, dealer, state)
        if i % 4 == 3:
            matches += 1
            assert state.score == [3, 7] and state.bummerl == [matches, 0]
        if state.status == MATCH_OVER:
            break
        continue_all(state, rng)
        assert state.match_no == matches + 1
    assert matches == needed and state.set_winner == 1
    assert state.matches_won == [0, needed]


@pytest.mark.parametrize(("schneider", "bummerl"), [(True, 2), (False, 1)])
def test_three_hand_match_gives_every_other_player_a_bummerl(
    schneider: bool, bummerl: int
) -> None:
    state = start(plan_deck(SWEEP_F), "three-hand",
                  {"match_points": 3, "schneider_bummerl": schneider}, dealer=0)
    assert state.active == (1, 2)
    events = play_plan(SWEEP_F, 1, 2, state)
    assert state.score == [0, 3, 0]
    assert state.bummerl == [bummerl, 0, bummerl]
    assert of_type(events, "match_won")[0].data["bummerl_given"] == {"0": bummerl, "2": bummerl}
    assert state.status == MATCH_OVER and state.set_winner == 1


def test_three_hand_scores_stay_per_player_over_hands() -> None:
    state = start(plan_deck(SWEEP_F), "three-hand", more=[plan_deck(SWEEP_F)], dealer=0)
    play_plan(SWEEP_F, 1, 2, state)
    continue_all(state)
    assert state.dealer == 1 and state.active == (2, 0) and state.status == PLAYING
    play_plan(SWEEP_F, 2, 0, state)
    assert state.score == [0, 3, 3]
    act(state, 1, "continue")
    assert state.status != PLAYING


@pytest.mark.parametrize(("bonus", "winner", "totals"), [(10, 0, (68, 62)), (0, 1, (58, 62))])
def test_option_last_trick_bonus(bonus: int, winner: int, totals: tuple[int, int]) -> None:
    """The played-out hand of worked case 8a: the bonus alone decides it."""
    state = start(BONUS_DECK, options={"last_trick_bonus": bonus})
    run(state, BONUS_SCRIPT)
    s = state.settlement
    assert s is not None
    assert (side(s, 0)["total"], side(s, 1)["total"]) == totals
    assert side(s, 0)["last_trick_bonus"] == bonus
    assert (s["reason"], s["winners"]) == ("played_out", [winner])


def test_declare_event_carries_the_points() -> None:
    state = start(plan_deck(SWEEP_F))
    events = play_plan(SWEEP_F, 1, 0, state)
    assert of_type(events, "declare")[0].data == {"seat": 1, "points": 67}
    assert of_type(events, "hand_settled")[0].data["settlement"] == state.settlement


def test_meld_value_is_40_in_trumps_and_20_in_a_side_suit() -> None:
    for trump in SUITS:
        assert [meld_value(s, trump) for s in SUITS] == [40 if s == trump else 20 for s in SUITS]
        assert MELD_VALUES[trump] == tuple(meld_value(s, trump) for s in SUITS)
