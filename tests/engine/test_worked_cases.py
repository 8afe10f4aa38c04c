"""docs/rules.md §10: every worked case, played out from an explicit deck.

Unless stated, sixty-six with seat 0 dealing: seat 1 is forehand, seat 0 the dealer; trump is
clubs (the face-up trump card JC).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import HAND_OVER, MATCH_OVER, Action, Event, GameState, IllegalAction, legal_actions
from tests.engine.helpers import (
    act,
    continue_all,
    of_type,
    play_out,
    run,
    start,
    two_hand_deck,
)

F, D = 1, 0


def settlement(state: GameState) -> dict[str, Any]:
    assert state.status in (HAND_OVER, MATCH_OVER)
    assert state.settlement is not None
    return state.settlement


def side(s: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(w for w in s["sides"] if w["seats"] == [seat])


# Hands reused by several cases (forehand, dealer, script).
#: Forehand melds 40 and reaches 67 in three tricks; the dealer takes none → forehand 3.
SWEEP_F = (
    ["AC", "TC", "KC", "QC", "AS", "TS"],
    ["9H", "JH", "9D", "JD", "QH", "QD"],
    "F meld:C; F play:KC; D play:9H; F play:AC; D play:9D; F play:TC; D play:JH; F declare",
)
#: The dealer trumps the first lead, melds 40 and reaches 67; forehand takes none → dealer 3.
SWEEP_D = (
    ["9H", "JH", "9D", "JD", "QD", "9S"],
    ["AC", "TC", "KC", "QC", "AS", "TS"],
    "F play:9H; D play:AC; D meld:C; D play:KC; F play:JH; D play:TC; F play:9D; D declare",
)
#: The dealer takes 21 then 12 (33 points) before forehand reaches 67 → forehand 1.
ONE_F = (
    ["TH", "JS", "AC", "TC", "KC", "QC"],
    ["AH", "TS", "9D", "JD", "QD", "9H"],
    "F play:TH; D play:AH; D play:TS; F play:JS; D play:9D; F play:AC; F meld:C; F play:KC; "
    "D play:JD; F play:TC; D play:9H; F declare",
)
#: Forehand takes 13 and melds 20 (33 points); the dealer reaches 68 → dealer 1.
ONE_D = (
    ["AH", "KD", "QD", "9S", "9H", "JS"],
    ["JH", "AD", "AC", "TC", "KC", "QC"],
    "F play:AH; D play:JH; F meld:D; F play:QD; D play:AD; D meld:C; D play:KC; F play:9S; "
    "D play:TC; F play:9H; D declare",
)


def play_plan(
    plan: tuple[list[str], list[str], str], forehand: int, dealer: int, state: GameState
) -> list[Event]:
    """Run a plan's script with F/D standing for the given seats."""
    script = plan[2].replace("F ", f"{forehand} ").replace("D ", f"{dealer} ")
    return run(state, script)


def plan_deck(plan: tuple[list[str], list[str], str]) -> list[str]:
    return two_hand_deck(plan[0], plan[1], "JC")


def test_worked_case_01a_opponent_without_trick_gives_3() -> None:
    state = start(plan_deck(SWEEP_F))
    play_plan(SWEEP_F, F, D, state)
    s = settlement(state)
    assert (s["reason"], s["winners"], s["game_points"]) == ("declaration", [F], 3)
    assert side(s, F)["total"] == 67 and side(s, D)["tricks"] == 0
    assert state.score == [0, 3]


def test_worked_case_01b_opponent_with_one_trick_worth_0_gives_2() -> None:
    state = start(two_hand_deck(["9S", "AC", "TC", "KC", "QC", "AS"],
                                ["9C", "9H", "9D", "JH", "JD", "QH"], "JC"))
    events = run(state, "1 play:9S; 0 play:9C")
    assert of_type(events, "trick_won")[0].data == {
        "seat": D, "cards": ["9S", "9C"], "points": 0, "reason": "trump"}
    run(state, "0 play:JH; 1 play:AC; 1 meld:C; 1 play:KC; 0 play:JD; 1 play:TC; 0 play:9H; "
               "1 declare")
    s = settlement(state)
    assert side(s, D)["tricks"] == 1 and side(s, D)["total"] == 0
    assert side(s, F)["total"] == 69
    assert (s["winners"], s["game_points"]) == ([F], 2)


def test_worked_case_01c_opponent_at_32_gives_2() -> None:
    state = start(two_hand_deck(["TH", "9S", "AC", "TC", "KC", "QC"],
                                ["AH", "AS", "9D", "JD", "QD", "9H"], "JC"))
    run(state, "1 play:TH; 0 play:AH; 0 play:AS; 1 play:9S; 0 play:9D; 1 play:AC; 1 meld:C; "
               "1 play:KC; 0 play:JD; 1 play:TC; 0 play:9H; 1 declare")
    s = settlement(state)
    assert side(s, D)["total"] == 32 and side(s, F)["total"] == 67
    assert (s["winners"], s["game_points"]) == ([F], 2)


def test_worked_case_01d_opponent_at_33_gives_1() -> None:
    state = start(plan_deck(ONE_F))
    play_plan(ONE_F, F, D, state)
    s = settlement(state)
    assert side(s, D)["total"] == 33 and side(s, D)["trick_points"] == 33
    assert (s["winners"], s["game_points"]) == ([F], 1)


def test_worked_case_02a_credited_meld_counts_toward_33() -> None:
    """The dealer has 13 trick points and a credited 20 meld: 33, so forehand wins only 1."""
    state = start(two_hand_deck(["JH", "AD", "AC", "TC", "KC", "QC"],
                                ["AH", "KD", "QD", "9D", "JD", "9H"], "JC"))
    events = run(state, "1 play:JH; 0 play:AH; 0 meld:D")
    assert of_type(events, "meld")[0].data["credited"] is True
    run(state, "0 play:QD; 1 play:AD; 1 meld:C; 1 play:KC; 0 play:9D; 1 play:TC; 0 play:JD; "
               "1 declare")
    s = settlement(state)
    dealer = side(s, D)
    assert (dealer["trick_points"], dealer["melds"], dealer["total"]) == (
        13, [{"seat": D, "suit": "D", "points": 20}], 33)
    assert (s["winners"], s["game_points"]) == ([F], 1)


def test_worked_case_02b_pending_meld_does_not_count() -> None:
    """Forehand melds 20 but never takes a trick: his total stays 0, the meld is forfeited."""
    state = start(two_hand_deck(["KD", "QD", "9S", "9H", "JS", "JH"],
                                ["AD", "TD", "AC", "TC", "KC", "QC"], "JC"))
    events = run(state, "1 meld:D")
    assert of_type(events, "meld")[0].data["credited"] is False
    run(state, "1 play:KD; 0 play:AD; 0 meld:C; 0 play:KC; 1 play:9S; 0 play:AC; 1 play:9H; "
               "0 declare")
    s = settlement(state)
    fore = side(s, F)
    assert (fore["total"], fore["melds"]) == (0, [])
    assert fore["forfeited_melds"] == [{"seat": F, "suit": "D", "points": 20}]
    assert (s["winners"], s["game_points"]) == ([D], 3)


def test_worked_case_03_false_declaration_with_60_fixed_gives_opponent_2() -> None:
    state = start(FALSE_60_DECK)
    run(state, FALSE_60_SCRIPT)
    s = settlement(state)
    assert side(s, F)["total"] == 60 and side(s, D)["total"] == 40
    assert (s["reason"], s["winners"], s["game_points"], s["missing_points"]) == (
        "false_declaration", [D], 2, 6)


def test_worked_case_03_false_declaration_mirror_opponent_at_40_gives_1() -> None:
    state = start(FALSE_60_DECK, options={"false_declaration": "mirror"})
    run(state, FALSE_60_SCRIPT)
    s = settlement(state)
    assert side(s, D)["total"] == 40
    assert (s["reason"], s["winners"], s["game_points"], s["missing_points"]) == (
        "false_declaration", [D], 1, 6)


#: The dealer trumps TS with TC (20) and melds 20 in hearts (40); forehand reaches exactly 60.
FALSE_60_DECK = two_hand_deck(["TS", "AH", "AC", "KC", "QC", "9S"],
                              ["TC", "KH", "QH", "JD", "9D", "9H"], "JC")
FALSE_60_SCRIPT = ("1 play:TS; 0 play:TC; 0 meld:H; 0 play:QH; 1 play:AH; 1 meld:C; 1 play:KC; "
                   "0 play:JD; 1 declare")


def test_worked_case_04_forehand_meld_40_never_wins_a_trick_is_forfeited() -> None:
    state = start(two_hand_deck(["KC", "QC", "9S", "9H", "JS", "JH"],
                                ["AC", "TC", "AD", "TD", "KD", "QD"], "JC"))
    events = run(state, "1 meld:C")
    assert of_type(events, "meld")[0].for_seat(D) == {
        "type": "meld", "seat": F, "suit": "C", "points": 40, "cards": ["KC", "QC"],
        "credited": False}
    run(state, "1 play:KC; 0 play:AC; 0 meld:D; 0 play:KD; 1 play:9S; 0 play:TC; 1 play:9H; "
               "0 play:AD; 1 play:JS; 0 play:TD; 1 play:JH; 0 declare")
    s = settlement(state)
    fore = side(s, F)
    assert fore["tricks"] == 0 and fore["total"] == 0 and fore["melds"] == []
    assert fore["forfeited_melds"] == [{"seat": F, "suit": "C", "points": 40}]
    assert (s["winners"], s["game_points"]) == ([D], 3)


def test_worked_case_05_closing_against_no_trick_then_reaching_66_gives_3() -> None:
    """Forehand closes before the first lead; the dealer takes a trick later, still 3."""
    state = start(two_hand_deck(["AC", "TC", "KC", "QC", "AS", "9S"],
                                ["9H", "TS", "JH", "9D", "JD", "QD"], "JC"))
    events = run(state, "1 close")
    assert of_type(events, "close")[0].data == {"seat": F, "talon_size": 12}
    run(state, "1 meld:C; 1 play:KC; 0 play:9H; 1 play:9S; 0 play:TS; 0 play:JH; 1 play:TC; "
               "1 play:AC; 0 play:9D; 1 declare")
    s = settlement(state)
    assert side(s, D)["tricks"] == 1
    assert s["at_close"] == {"side": D, "points": 0, "tricks": 0}
    assert (s["reason"], s["winners"], s["game_points"]) == ("closed_declaration", [F], 3)


def test_worked_case_06a_failed_closing_opponent_at_20_gives_2() -> None:
    state = start(two_hand_deck(["TS", "AH", "9D", "JD", "9S", "JS"],
                                ["TC", "9H", "AC", "KC", "AD", "TD"], "JC"))
    run(state, "1 play:TS; 0 play:TC; 0 play:9H; 1 play:AH; 1 close")
    assert state.closed_snapshot == (20, 1)
    play_out(state)
    s = settlement(state)
    assert side(s, F)["total"] < 66
    assert s["at_close"] == {"side": D, "points": 20, "tricks": 1}
    assert side(s, F)["last_trick_bonus"] == 0 and side(s, D)["last_trick_bonus"] == 0
    assert (s["reason"], s["winners"], s["game_points"]) == ("closing_failed", [D], 2)


def test_worked_case_06b_failed_closing_opponent_without_trick_when_closed_gives_3() -> None:
    """Forehand closes at once and declares falsely after his first trick."""
    state = start(two_hand_deck(["AS", "9S", "JS", "9H", "JH", "QS"],
                                ["AC", "TC", "KC", "QC", "9D", "TS"], "JC"))
    run(state, "1 close; 1 play:AS; 0 play:TS; 1 declare")
    s = settlement(state)
    assert s["missing_points"] == 66 - 21
    assert (s["reason"], s["winners"], s["game_points"]) == ("closing_failed", [D], 3)


def test_worked_case_07_talon_of_two_allows_exchange_refuses_close() -> None:
    state = start(two_hand_deck(["9C", "AH", "TH", "AS", "TS", "AD"],
                                ["JH", "9H", "JS", "9S", "JD", "QD"], "KC"))
    run(state, "1 play:AH; 0 play:9H; 1 play:TH; 0 play:JH; 1 play:AS; 0 play:9S; 1 play:TS; "
               "0 play:JS; 1 play:AD; 0 play:JD")
    assert len(state.talon) == 2 and state.leader == F
    legal = legal_actions(state, F)
    assert Action.from_text("exchange") in legal and Action.from_text("close") not in legal
    with pytest.raises(IllegalAction) as err:
        act(state, F, "close")
    assert err.value.reason == "the talon must hold at least 3 cards to close"
    events = act(state, F, "exchange")
    assert events[0].data == {"seat": F, "took": "KC", "gave": "9C"}
    assert state.talon[0] == Action.from_text("play:9C").card


def test_worked_case_07_talon_of_two_allows_close_with_close_min_talon_2() -> None:
    """The position of case 7 under the option ``close_min_talon: 2``: the close is offered."""
    state = start(two_hand_deck(["9C", "AH", "TH", "AS", "TS", "AD"],
                                ["JH", "9H", "JS", "9S", "JD", "QD"], "KC"),
                  options={"close_min_talon": 2})
    run(state, "1 play:AH; 0 play:9H; 1 play:TH; 0 play:JH; 1 play:AS; 0 play:9S; 1 play:TS; "
               "0 play:JS; 1 play:AD; 0 play:JD")
    assert len(state.talon) == 2
    assert Action.from_text("close") in legal_actions(state, F)


def test_worked_case_10_phase_2_must_win_with_a_higher_card_of_the_suit() -> None:
    state = start(two_hand_deck(["JH", "9S", "JS", "QS", "KS", "TS"],
                                ["AH", "TH", "9H", "AC", "9D", "JD"], "JC"))
    run(state, "1 close; 1 play:JH")
    for wrong in ("play:9H", "play:AC", "play:9D"):
        with pytest.raises(IllegalAction) as err:
            act(state, D, wrong)
        reason = err.value.reason
        assert reason.startswith("you must follow suit and win the trick: ")
        assert set(reason.split(": ")[1].replace(" or ", ", ").split(", ")) == {"AH", "TH"}
        assert set(err.value.legal) == {Action.from_text("play:AH"), Action.from_text("play:TH")}
    act(state, D, "play:TH")
    assert state.won_tricks[D] == 1


def test_worked_case_11_match_7_0_is_schneider_two_bummerl() -> None:
    state = start(plan_deck(SWEEP_F), more=[plan_deck(SWEEP_D), plan_deck(ONE_F)])
    play_plan(SWEEP_F, F, D, state)  # dealer 0: forehand 1
    continue_all(state)
    play_plan(SWEEP_D, 0, 1, state)  # dealer 1: forehand 0, seat 1 wins as dealer
    continue_all(state)
    events = play_plan(ONE_F, 1, 0, state)
    assert state.score == [0, 7]
    assert state.bummerl == [2, 0]
    assert state.status == MATCH_OVER and state.set_winner == 1
    assert of_type(events, "match_won")[0].data["bummerl_given"] == {"0": 2}
    assert of_type(events, "set_won")[0].data["winners"] == [1]


def test_worked_case_11_match_7_3_is_one_bummerl() -> None:
    decks = [plan_deck(p) for p in (SWEEP_D, SWEEP_D, SWEEP_F, ONE_D)]
    state = start(decks[0], more=decks[1:])
    play_plan(SWEEP_D, 1, 0, state)  # seat 0 wins 3 as dealer
    continue_all(state)
    play_plan(SWEEP_D, 0, 1, state)  # seat 1 wins 3 as dealer
    continue_all(state)
    play_plan(SWEEP_F, 1, 0, state)  # seat 1 wins 3 as forehand
    continue_all(state)
    assert state.score == [3, 6]
    play_plan(ONE_D, 0, 1, state)  # seat 1 wins 1 as dealer
    assert state.score == [3, 7]
    assert state.bummerl == [1, 0]
    assert settlement(state)["match"]["bummerl_given"] == {"0": 1}
    assert state.status == MATCH_OVER and state.set_winner == 1


#: Found by a random search over played-out hands (plays only), kept as fixed deals.
#: Seat 0 takes the last trick: 58 trick points + 10 against 62 (trump hearts).
BONUS_DECK = ["TD", "JD", "KC", "TC", "AH", "JS", "TS", "AD", "9D", "JC", "KD", "AS", "QH", "AC",
              "KH", "QC", "KS", "9H", "9C", "QD", "9S", "QS", "TH", "JH"]
BONUS_SCRIPT = ("1 play:TS; 0 play:JC; 1 play:KC; 0 play:KD; 1 play:JD; 0 play:AH; 0 play:9H; "
                "1 play:QC; 0 play:KS; 1 play:TD; 0 play:TC; 1 play:9D; 0 play:QD; 1 play:AD; "
                "1 play:9S; 0 play:QS; 0 play:AS; 1 play:QH; 1 play:TH; 0 play:KH; 1 play:9C; "
                "0 play:JH; 0 play:JS; 1 play:AC")
#: Seat 1 takes the last trick: 55 + 10 against 65 (trump diamonds).
TIE_DECK = ["AC", "QH", "AS", "9D", "AH", "TS", "KS", "JH", "JC", "QD", "9C", "9H", "TD", "JS",
            "QS", "TC", "AD", "KH", "9S", "KC", "QC", "JD", "TH", "KD"]
TIE_SCRIPT = ("1 play:JC; 0 play:QD; 0 play:9C; 1 play:QH; 0 play:AH; 1 play:AS; 0 play:KH; "
              "1 play:JH; 0 play:KC; 1 play:AC; 1 play:9S; 0 play:JS; 0 play:9D; 1 play:JD; "
              "1 play:TD; 0 play:KD; 1 play:KS; 0 play:TS; 0 play:TC; 1 play:QC; 0 play:TH; "
              "1 play:AD; 1 play:QS; 0 play:9H")


def test_worked_case_08a_last_trick_of_exhausted_talon_gets_10() -> None:
    state = start(BONUS_DECK)
    events = run(state, BONUS_SCRIPT)
    assert len(of_type(events, "talon_exhausted")) == 1
    s = settlement(state)
    assert s["last_trick_by"] == 0
    assert (side(s, 0)["trick_points"], side(s, 0)["last_trick_bonus"], side(s, 0)["total"]) == (
        58, 10, 68)
    assert (side(s, 1)["last_trick_bonus"], side(s, 1)["total"]) == (0, 62)
    assert (s["reason"], s["winners"], s["game_points"]) == ("played_out", [0], 1)


def test_worked_case_08b_65_65_nobody_scores() -> None:
    state = start(TIE_DECK)
    run(state, TIE_SCRIPT)
    s = settlement(state)
    assert (side(s, 1)["trick_points"], side(s, 1)["last_trick_bonus"]) == (55, 10)
    assert side(s, 1)["total"] == side(s, 0)["total"] == 65
    assert (s["reason"], s["winner_side"], s["winners"], s["game_points"]) == ("tie", None, [], 0)
    assert state.score == [0, 0]


#: Schnapsen, seat 1 takes the last trick with 19 points against 101.
SCHNAPSEN_DECK = ["KD", "JD", "AH", "JH", "AS", "QD", "TD", "TH", "JC", "QS", "TS", "AC", "QH",
                  "TC", "KC", "AD", "KH", "QC", "JS", "KS"]
SCHNAPSEN_SCRIPT = ("1 play:AH; 0 play:QS; 0 play:JC; 1 play:TH; 0 play:AS; 1 play:TD; "
                    "0 play:TC; 1 play:KH; 0 play:JH; 1 play:QH; 1 play:JS; 0 play:TS; "
                    "0 play:AD; 1 play:JD; 0 play:QD; 1 play:KD; 1 play:KC; 0 play:AC; "
                    "0 play:QC; 1 play:KS")


def test_worked_case_09_schnapsen_played_out_last_trick_wins_without_bonus() -> None:
    state = start(SCHNAPSEN_DECK, "schnapsen")
    run(state, SCHNAPSEN_SCRIPT)
    s = settlement(state)
    assert s["last_trick_by"] == 1
    assert side(s, 1)["last_trick_bonus"] == side(s, 0)["last_trick_bonus"] == 0
    assert (side(s, 1)["total"], side(s, 0)["total"]) == (19, 101)
    assert (s["reason"], s["winners"], s["game_points"]) == ("last_trick", [1], 1)
