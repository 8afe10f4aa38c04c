"""Scoring at its edges (docs/rules.md §4, §5): each test tells a rule from its wrong twin.

Exactly 66 is enough (not more than 66 needed); a closed hand is scored by the opponent's state
**when the talon was closed**, credited melds included (not by his state at the end); the
closer's opponent declaring falsely is a false declaration (not a failed closing); a hand
played out is scored by the table on the loser's points with his last-trick bonus (not
without it); a tie in Bummerl for the set goes to the winner of the deciding match (not the
lower seat).

Sixty-six with seat 0 dealing: seat 1 is forehand. Decks with a talon list only the cards drawn
before the closing; the rest of the talon does not matter. Hands marked "found by a random
search" were kept as fixed deals, like those of worked case 8.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import MATCH_OVER, GameState
from tests.engine.helpers import continue_all, of_type, run, start, two_hand_deck
from tests.engine.test_worked_cases import SWEEP_F, plan_deck, play_plan, settlement, side

F, D = 1, 0


def outcome(s: dict[str, Any]) -> tuple[str, list[int], int]:
    return s["reason"], s["winners"], s["game_points"]


def played(deck: list[str], script: str, options: dict[str, object] | None = None
           ) -> tuple[GameState, dict[str, Any]]:
    state = start(deck, options=options)
    run(state, script)
    return state, settlement(state)


# --------------------------------------------------------------------------- exactly 66


def test_declaring_with_exactly_66_wins() -> None:
    """40 in trumps credited with QC+9H (3), then AC+JH (13) and TC+9D (10): 66, not 65 or 67."""
    _, s = played(two_hand_deck(["AC", "TC", "KC", "QC", "AS", "TS"],
                                ["9H", "JH", "9D", "JD", "QH", "QD"], "JC"),
                  "1 meld:C; 1 play:QC; 0 play:9H; 1 play:AC; 0 play:JH; 1 play:TC; 0 play:9D; "
                  "1 declare")
    assert side(s, F)["total"] == 66 and s["missing_points"] is None
    assert outcome(s) == ("declaration", [F], 3)


def test_closed_hand_played_out_to_exactly_66_is_a_successful_closing() -> None:
    """Forehand closes at once and takes 66 in five tricks without declaring (found by a
    random search); the dealer took a trick only after the closing, so it is still 3."""
    _, s = played(two_hand_deck(["TD", "KS", "QC", "9S", "AC", "AH"],
                                ["JH", "9C", "TS", "TC", "KH", "AS"], "9D"),
                  "1 close; 1 play:AC; 0 play:TC; 1 play:AH; 0 play:JH; 1 play:9S; 0 play:TS; "
                  "0 play:9C; 1 play:QC; 1 play:TD; 0 play:AS; 1 play:KS; 0 play:KH")
    assert (side(s, F)["total"], side(s, F)["last_trick_bonus"]) == (66, 0)
    assert s["at_close"] == {"side": D, "points": 0, "tricks": 0}
    assert (side(s, D)["tricks"], side(s, D)["total"]) == (1, 10)
    assert outcome(s) == ("closed_played_out", [F], 3)


# --------------------------------------------------------------------------- state at closing


def test_closer_declaring_is_scored_by_the_opponents_points_at_closing() -> None:
    """The dealer closes against 21 points (→ 2); forehand ends with 36, which would give 1
    (found by a random search)."""
    _, s = played(two_hand_deck(["AD", "JH", "AH", "9D", "9S", "JS"],
                                ["KS", "AC", "TC", "QH", "KH", "TS"], "TH",
                                ["JC", "TD", "AS", "QS"]),
                  "1 play:AD; 0 play:TC; 1 play:9D; 0 play:TD; 0 close; 0 meld:H; 0 play:KH; "
                  "1 play:AH; 1 play:JC; 0 play:AC; 0 play:AS; 1 play:QS; 0 declare")
    assert s["at_close"] == {"side": F, "points": 21, "tricks": 1}
    assert side(s, F)["total"] == 36 and side(s, D)["total"] >= 66
    assert outcome(s) == ("closed_declaration", [D], 2)


def test_closed_hand_played_out_is_scored_by_the_opponents_points_at_closing() -> None:
    """The dealer closes against 14 points (→ 2) and plays out to exactly 66; forehand ends
    with 41, which would give 1 (found by a random search)."""
    _, s = played(two_hand_deck(["JC", "TH", "QC", "JS", "TC", "AC"],
                                ["AH", "TS", "KD", "QD", "TD", "JD"], "9S",
                                ["AS", "QS", "AD", "KH"]),
                  "1 play:AC; 0 play:QD; 1 play:QC; 0 play:QS; 0 close; 0 play:TD; 1 play:JS; "
                  "1 play:TH; 0 play:AH; 0 play:KD; 1 play:AS; 1 play:TC; 0 play:TS; "
                  "0 play:JD; 1 play:KH; 0 play:AD; 1 play:JC")
    assert s["at_close"] == {"side": F, "points": 14, "tricks": 1}
    assert (side(s, F)["total"], side(s, D)["total"]) == (41, 66)
    assert outcome(s) == ("closed_played_out", [D], 2)


#: Forehand closes at once; the dealer takes no trick before it and three after (found by a
#: random search). Forehand then declares with 7, or plays the hand out with 20.
CLOSED_BEFORE_THE_DEALERS_FIRST_TRICK = two_hand_deck(
    ["KD", "9S", "9D", "9C", "JS", "QS"], ["9H", "QD", "TH", "AS", "AC", "TS"], "TC")
CLOSED_OPENING = ("1 close; 1 play:JS; 0 play:AS; 0 play:AC; 1 play:9C; 0 play:TS; 1 play:9S; "
                  "0 play:QD; 1 play:KD")


def test_closer_declaring_falsely_gives_3_when_the_opponent_had_no_trick_at_closing() -> None:
    _, s = played(CLOSED_BEFORE_THE_DEALERS_FIRST_TRICK, CLOSED_OPENING + "; 1 declare")
    assert s["at_close"] == {"side": D, "points": 0, "tricks": 0}
    assert side(s, D)["tricks"] == 3 and side(s, F)["total"] == 7
    assert s["missing_points"] == 59
    assert outcome(s) == ("closing_failed", [D], 3)


def test_closing_failed_when_played_out_gives_3_when_the_opponent_had_no_trick_at_closing(
) -> None:
    _, s = played(CLOSED_BEFORE_THE_DEALERS_FIRST_TRICK,
                  CLOSED_OPENING + "; 1 play:9D; 0 play:TH; 1 play:QS; 0 play:9H")
    assert s["at_close"] == {"side": D, "points": 0, "tricks": 0}
    assert side(s, D)["tricks"] == 3 and side(s, F)["total"] == 20
    assert s["declared_by"] is None
    assert outcome(s) == ("closing_failed", [D], 3)


def test_closers_opponent_declaring_gets_3_when_he_had_no_trick_at_closing() -> None:
    """The dealer closes before forehand's first trick; forehand declares against a closer at
    33 (the table would give 1, "at least 2" 2): it is 3 (found by a random search)."""
    _, s = played(two_hand_deck(["QD", "KC", "QC", "TH", "KD", "JH"],
                                ["JD", "QH", "TC", "KH", "TS", "TD"], "9H", ["9S", "JC"]),
                  "1 meld:C; 1 play:KC; 0 play:KH; 0 close; 0 play:QH; 1 play:TH; 1 play:JC; "
                  "0 play:TC; 0 play:TS; 1 play:JH; 1 meld:D; 1 play:QD; 0 play:TD; 0 play:JD; "
                  "1 play:KD; 1 declare")
    assert s["at_close"] == {"side": F, "points": 0, "tricks": 0}
    assert side(s, D)["tricks"] > 0 and side(s, D)["total"] == 33
    assert outcome(s) == ("declaration_against_closer", [F], 3)


def test_closing_snapshot_counts_the_opponents_credited_melds() -> None:
    """When forehand closes the dealer has 15 trick points and a credited 20 meld: 35 → 1
    (15 alone would give 2; found by a random search)."""
    state, s = played(two_hand_deck(["KS", "AC", "TC", "QS", "9S", "9H"],
                                    ["QC", "AS", "9C", "JC", "TD", "9D"], "JS",
                                    ["KC", "KH", "TH"]),
                      "1 meld:S; 1 play:KS; 0 play:AS; 0 meld:C; 0 play:KC; 1 play:QS; 1 close; "
                      "1 play:TC; 0 play:9C; 1 play:9S; 0 play:TS; 0 play:QC; 1 play:AC; 1 declare")
    assert state.closed_snapshot == (35, 1)
    assert side(s, D)["melds"] == [{"seat": D, "suit": "C", "points": 20}]
    assert outcome(s) == ("closed_declaration", [F], 1)


# --------------------------------------------------------------------------- false declaration


#: Forehand closes after one trick; the dealer, without a trick then, takes AD+9D and declares
#: 11 against forehand's 62 in three tricks (found by a random search).
FALSE_AGAINST_CLOSER = two_hand_deck(["KC", "TC", "9D", "TD", "JC", "9H"],
                                     ["JD", "AD", "QS", "9S", "JS", "KD"], "9C", ["QC", "KS"])
FALSE_AGAINST_CLOSER_SCRIPT = ("1 play:TC; 0 play:JD; 1 close; 1 meld:C; 1 play:KC; 0 play:JS; "
                               "1 play:9H; 0 play:KD; 1 play:9D; 0 play:AD; 0 declare")


@pytest.mark.parametrize(("rule", "points"), [("fixed", 2), ("mirror", 1)])
def test_closers_opponent_declaring_falsely_is_a_false_declaration(rule: str, points: int) -> None:
    """Not a failed closing (which would give 3, the declarer having had no trick at closing):
    ``fixed`` gives the closer 2, ``mirror`` the table on the closer's 62 points, 1."""
    _, s = played(FALSE_AGAINST_CLOSER, FALSE_AGAINST_CLOSER_SCRIPT, {"false_declaration": rule})
    assert s["at_close"] == {"side": D, "points": 0, "tricks": 0}
    assert (side(s, D)["total"], side(s, F)["total"], side(s, F)["tricks"]) == (11, 62, 3)
    assert s["missing_points"] == 55
    assert outcome(s) == ("false_declaration", [F], points)


# --------------------------------------------------------------------------- played out


#: Played out by plays only (found by a random search; trump clubs): the dealer ends with 91,
#: forehand with 29 trick points and the last trick (9D+9H, worth nothing).
LOSER_TAKES_THE_LAST_TRICK = ["AS", "KH", "AD", "KC", "TC", "JC", "9C", "JS", "QH", "JH", "KD",
                              "JD", "AC", "QD", "9S", "AH", "TS", "KS", "QS", "QC", "9D", "9H",
                              "TD", "TH"]
LOSER_TAKES_THE_LAST_TRICK_SCRIPT = (
    "1 play:JS; 0 play:KC; 0 play:QD; 1 play:AS; 0 play:AH; 1 play:9S; 0 play:KD; 1 play:QS; "
    "0 play:JD; 1 play:QH; 0 play:QC; 1 play:TD; 0 play:KS; 1 play:TS; 1 play:AD; 0 play:TC; "
    "0 play:TH; 1 play:KH; 0 play:JC; 1 play:AC; 1 play:9C; 0 play:JH; 1 play:9D; 0 play:9H")


def test_played_out_table_counts_the_losers_last_trick_bonus() -> None:
    """The loser took the last trick: 29 + 10 = 39 points, so the winner gets 1 (29 alone
    would give 2)."""
    _, s = played(LOSER_TAKES_THE_LAST_TRICK, LOSER_TAKES_THE_LAST_TRICK_SCRIPT)
    assert s["last_trick_by"] == F
    loser = side(s, F)
    assert (loser["trick_points"], loser["last_trick_bonus"], loser["total"]) == (29, 10, 39)
    assert side(s, D)["total"] == 91
    assert outcome(s) == ("played_out", [D], 1)
    assert s["explanation"] == "the loser has 39 points (33 or more)"


# --------------------------------------------------------------------------- set


def test_three_hand_set_tie_in_bummerl_goes_to_the_winner_of_the_deciding_match() -> None:
    """Two matches to 3, two Bummerl decide: seat 1 wins the first (seats 0, 2 get one), seat 2
    the second (seats 0, 1 get one). Seats 1 and 2 tie at one Bummerl; seat 2 won the
    deciding match and so the set (the lower seat, 1, does not)."""
    state = start(plan_deck(SWEEP_F), "three-hand",
                  {"match_points": 3, "schneider_bummerl": False, "set_bummerl": 2},
                  dealer=0, more=[plan_deck(SWEEP_F)])
    play_plan(SWEEP_F, 1, 2, state)
    assert state.bummerl == [1, 0, 1]
    continue_all(state)
    assert state.active == (2, 0)
    events = play_plan(SWEEP_F, 2, 0, state)
    assert state.bummerl == [2, 1, 1] and state.matches_won == [0, 1, 1]
    assert state.status == MATCH_OVER and state.set_winner == 2
    assert of_type(events, "set_won")[0].data["winners"] == [2]
