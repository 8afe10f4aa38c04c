"""The options of other rule sets (issue 19), in worked positions and in random games.

Unless stated, sixty-six with seat 0 dealing: seat 1 is forehand, seat 0 the dealer; trump is
clubs (the face-up trump card JC).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    HAND_OVER,
    MATCH_OVER,
    PLAYING,
    Action,
    Event,
    GameState,
    IllegalAction,
    InvalidOption,
    Rules,
    apply,
    legal_actions,
    new_game,
)
from engine.actions import CLOSE, DECLARE
from engine.rules import VARIANTS
from tests.engine.helpers import (
    act,
    four_hand_deck,
    of_type,
    play_out,
    run,
    start,
    two_hand_deck,
)
from tests.engine.test_properties import check_cards, check_legality, check_sizes
from tests.engine.test_worked_cases import TIE_DECK, TIE_SCRIPT

F, D = 1, 0
#: Forehand takes 14 and 13 points with his spades, then holds the marriage of trumps (40).
STRONG_F = two_hand_deck(["AS", "TS", "AC", "TC", "KC", "QC"],
                         ["9H", "JH", "9D", "JD", "QH", "QD"], "JC")
#: Forehand takes a trick worth nothing, melds hearts and loses every trick after.
WEAK_F = two_hand_deck(["KH", "QH", "9S", "JS", "9D", "JD"],
                       ["AH", "TH", "AC", "TC", "AS", "9H"], "JC")
#: A deck that played out by first legal cards gives forehand 2 by the table (the dealer
#: keeps fewer than 33 points after forehand passes 66 without declaring).
PLAYED_OUT = ["QC", "KC", "QS", "JC", "TD", "JS", "TH", "TS", "KH", "JH", "KD", "AS", "QD",
              "AD", "9H", "AH", "9S", "AC", "KS", "TC", "9D", "JD", "QH", "9C"]
#: The same for Schnapsen: the last trick's winner (the dealer) gets 2 by the table.
PLAYED_OUT_SCHNAPSEN = ["AS", "QS", "QC", "JH", "KD", "TH", "JS", "JD", "AH", "TC", "AD", "TD",
                        "KH", "KC", "JC", "QH", "TS", "AC", "KS", "QD"]


def settlement(state: GameState) -> dict[str, Any]:
    assert state.status in (HAND_OVER, MATCH_OVER)
    assert state.settlement is not None
    return state.settlement


def kinds(state: GameState, seat: int) -> set[str]:
    return {a.kind for a in legal_actions(state, seat)}


# --------------------------------------------------------------------------- closing


def test_closing_off_offers_and_accepts_no_close() -> None:
    state = start(STRONG_F, options={"closing": False})
    assert CLOSE in kinds(start(STRONG_F), F)
    assert CLOSE not in kinds(state, F)
    with pytest.raises(IllegalAction) as err:
        act(state, F, "close")
    assert err.value.reason == "these rules do not allow closing the talon"
    run(state, "1 play:AS; 0 play:QH")
    assert CLOSE not in kinds(state, F) and state.closed_by is None


def test_closing_off_refuses_a_closing_threshold_and_four_hand() -> None:
    with pytest.raises(InvalidOption) as err:
        Rules.make("sixty-six", {"closing": False, "close_min_talon": 4})
    assert err.value.option == "close_min_talon"
    assert "closing is switched off" in str(err.value)
    assert err.value.allowed == [3]
    assert Rules.make("sixty-six", {"closing": False, "close_min_talon": 3}).closing is False
    assert Rules.make("sixty-six", {"closing": True, "close_min_talon": 4}).close_min_talon == 4
    with pytest.raises(InvalidOption) as four:
        Rules.make("four-hand", {"closing": False})
    assert four.value.option == "closing"


# --------------------------------------------------------------------------- automatic 66


def test_automatic_66_a_meld_reaching_66_ends_the_hand_at_once() -> None:
    state = start(STRONG_F, options={"automatic_66": True})
    run(state, "1 play:AS; 0 play:QH; 1 play:TS; 0 play:QD")
    assert state.credited_points(F) == 27
    assert DECLARE not in kinds(state, F)
    events = act(state, F, "meld:C")
    assert [e.type for e in events] == ["meld", "reached_66", "hand_settled"]
    assert events[0].data["credited"] is True
    assert events[1].data == {"seat": F, "points": 67}
    s = settlement(state)
    assert (s["reason"], s["winners"], s["game_points"], s["declared_by"]) == (
        "reached_66", [F], 3, F)
    assert s["explanation"] == "reached 66 with 67 points: the loser took no trick"


#: Forehand holds the marriage of trumps (clubs) and the spade Ace and Ten; the dealer
#: throws AD on them. A meld after 25 or 26 trick points, or a trick of 21 (TS+AD) or 22
#: (AS+AD) after 44 (40 and KC+9H), makes 65 or 66.
EDGE_66 = two_hand_deck(["AS", "TS", "AH", "KC", "QC", "AC"],
                        ["KS", "9S", "9H", "AD", "JD", "9D"], "JC")


@pytest.mark.parametrize(("script", "points", "ends"), [
    ("1 play:AS; 0 play:KS; 1 play:TS; 0 play:9S; 1 meld:C", 65, False),
    ("1 play:AS; 0 play:KS; 1 play:AH; 0 play:9H; 1 meld:C", 66, True),
], ids=["meld-65", "meld-66"])
def test_automatic_66_a_meld_ends_the_hand_at_66_not_65(script: str, points: int,
                                                         ends: bool) -> None:
    state = start(EDGE_66, options={"automatic_66": True})
    events = run(state, script)
    assert state.credited_points(F) == points
    assert of_type(events, "meld")[-1].data["credited"] is True
    if not ends:
        assert state.status == PLAYING and not of_type(events, "reached_66")
        return
    assert [e.type for e in events[-3:]] == ["meld", "reached_66", "hand_settled"]
    assert events[-2].data == {"seat": F, "points": 66}
    s = settlement(state)
    assert (s["reason"], s["winners"], s["game_points"]) == ("reached_66", [F], 3)


@pytest.mark.parametrize(("last", "points", "ends"), [("TS", 65, False), ("AS", 66, True)],
                         ids=["trick-65", "trick-66"])
def test_automatic_66_a_trick_ends_the_hand_at_66_not_65(last: str, points: int,
                                                          ends: bool) -> None:
    """The hand ends with the trick, once both have drawn."""
    state = start(EDGE_66, options={"automatic_66": True})
    run(state, "1 meld:C; 1 play:KC; 0 play:9H")
    assert state.credited_points(F) == 44
    events = run(state, f"1 play:{last}; 0 play:AD")
    assert state.credited_points(F) == points
    if not ends:
        assert state.status == PLAYING and not of_type(events, "reached_66")
        return
    assert [e.type for e in events] == ["card_played", "card_played", "trick_won",
                                        "card_drawn", "card_drawn", "reached_66",
                                        "hand_settled"]
    assert events[-2].data == {"seat": F, "points": 66}
    s = settlement(state)
    assert (s["reason"], s["winners"], s["game_points"]) == ("reached_66", [F], 3)


#: Four-hand, seat 0 deals and seat 1 leads; trump clubs (the dealer's last card JC). Seat 1
#: holds the marriage of trumps; every other seat must beat the best club so far.
PENDING_FOUR_HAND = four_hand_deck({
    1: ["KC", "QC", "9C", "AH", "KH", "QH"],
    2: ["TC", "AS", "TS", "KS", "QS", "JS"],
    3: ["AC", "9S", "TH", "JH", "9H", "AD"],
    0: ["TD", "KD", "QD", "JD", "9D", "JC"],
}, dealer=0)


def test_automatic_66_a_pending_marriage_counts_with_the_trick_that_reaches_66() -> None:
    """Seat 1 melds 40 before his pair's first trick (pending) and leads KC; TC, AC and JC
    follow: the pair's first trick (27) credits the meld, and with it 67 ends the hand. (In
    two-hand no such trick exists: 40 and one trick make at most 61.)"""
    state = start(PENDING_FOUR_HAND, "four-hand", {"automatic_66": True})
    events = act(state, 1, "meld:C")
    assert events[0].data["credited"] is False and state.credited_points(1) == 0
    events = run(state, "1 play:KC; 2 play:TC; 3 play:AC; 0 play:JC")
    assert [e.type for e in events[-5:]] == ["card_played", "trick_won", "meld_credited",
                                             "reached_66", "hand_settled"]
    assert events[-4].data["points"] == 27
    assert events[-2].data == {"seat": 3, "points": 67}
    s = settlement(state)
    assert (s["reason"], s["winners"], s["game_points"], s["declared_by"]) == (
        "reached_66", [1, 3], 3, 3)


def test_automatic_66_a_meld_held_for_the_next_trick_counts_with_the_trick_that_reaches_66(
) -> None:
    """``meld_credit`` next_trick: forehand has 32, melds 40 (held) and leads KC; the trick
    (4) credits the meld, and with it 76 ends the hand, once both have drawn."""
    deck = two_hand_deck(["AS", "AH", "KC", "QC", "AC", "TC"],
                         ["TS", "9H", "9S", "JD", "9D", "QD"], "JC")
    state = start(deck, options={"automatic_66": True, "meld_credit": "next_trick"})
    run(state, "1 play:AS; 0 play:TS; 1 play:AH; 0 play:9H; 1 meld:C")
    assert state.credited_points(F) == 32 and state.status == PLAYING
    events = run(state, "1 play:KC; 0 play:9S")
    assert [e.type for e in events] == ["card_played", "card_played", "trick_won",
                                        "meld_credited", "card_drawn", "card_drawn",
                                        "reached_66", "hand_settled"]
    assert events[-2].data == {"seat": F, "points": 76}
    s = settlement(state)
    assert (s["reason"], s["winners"], s["game_points"]) == ("reached_66", [F], 3)


#: Plays only under ``automatic_66`` (found by a random search; trump diamonds): forehand has
#: 53 before the last trick and takes it (KD+TH, 14) to 67.
LAST_TRICK_TO_66 = ["AH", "9C", "KS", "JS", "TD", "QC", "TS", "JD", "KH", "9H", "QS", "AS", "QD",
                    "QH", "KC", "JH", "JC", "9S", "TC", "9D", "AD", "TH", "KD", "AC"]
LAST_TRICK_TO_66_SCRIPT = (
    "1 play:KH; 0 play:TD; 0 play:JS; 1 play:JD; 1 play:JH; 0 play:9H; 1 play:9C; 0 play:QC; "
    "0 play:AS; 1 play:9S; 0 play:9D; 1 play:AH; 0 play:TC; 1 play:KC; 0 play:QS; 1 play:KS; "
    "1 play:AD; 0 play:AC; 1 play:TS; 0 play:QH; 1 play:QD; 0 play:JC")


def test_automatic_66_reached_with_the_last_trick_is_scored_as_reaching_66() -> None:
    """Not as played out: no last-trick bonus, reason ``reached_66``, by the table."""
    state = start(LAST_TRICK_TO_66, options={"automatic_66": True})
    run(state, LAST_TRICK_TO_66_SCRIPT)
    assert state.credited_points(F) == 53 and not state.talon and state.status == PLAYING
    events = run(state, "1 play:KD; 0 play:TH")
    assert not state.hands[F] and not state.hands[D]
    assert of_type(events, "reached_66")[0].data == {"seat": F, "points": 67}
    s = settlement(state)
    assert [(w["total"], w["last_trick_bonus"]) for w in s["sides"]] == [(67, 0), (53, 0)]
    assert (s["reason"], s["winners"], s["game_points"], s["declared_by"]) == (
        "reached_66", [F], 1, F)
    assert s["explanation"] == "reached 66 with 67 points: the loser has 53 points (33 or more)"


def test_automatic_66_against_a_closer() -> None:
    """Forehand closes at once; the dealer trumps, melds 40 and reaches 68: he wins 3 (no
    trick when the talon was closed), as by a declaration against the closer."""
    deck = two_hand_deck(["9H", "JH", "9D", "JD", "QD", "9S"],
                         ["AC", "TC", "KC", "QC", "AS", "TS"], "JC")
    state = start(deck, options={"automatic_66": True})
    run(state, "1 close; 1 play:9H; 0 play:AC; 0 meld:C; 0 play:KC; 1 play:9S")
    assert state.credited_points(D) == 55 and state.status == PLAYING
    events = run(state, "0 play:AS; 1 play:JD")
    assert of_type(events, "reached_66")[0].data == {"seat": D, "points": 68}
    s = settlement(state)
    assert (s["reason"], s["winners"], s["game_points"]) == ("reached_66_against_closer", [D], 3)


def test_automatic_66_has_no_declaration() -> None:
    state = start(STRONG_F, options={"automatic_66": True})
    run(state, "1 play:AS; 0 play:QH")
    with pytest.raises(IllegalAction) as err:
        act(state, F, "declare")
    assert err.value.reason == ("these rules have no declaration: the hand ends by itself "
                                "when a side reaches 66")
    default = start(STRONG_F)
    run(default, "1 play:AS; 0 play:QH")
    assert DECLARE in kinds(default, F)


# --------------------------------------------------------------------------- meld credit


def test_next_trick_a_meld_counts_when_its_side_wins_the_next_trick() -> None:
    state = start(STRONG_F, options={"meld_credit": "next_trick"})
    run(state, "1 play:AS; 0 play:QH; 1 play:TS; 0 play:QD")
    events = act(state, F, "meld:C")
    assert events[0].data["credited"] is False
    assert state.credited_points(F) == 27  # a declaration now would be false
    events = run(state, "1 play:KC; 0 play:9H")
    assert of_type(events, "meld_credited")[0].data == {"seat": F, "suit": "C", "points": 40}
    assert state.credited_points(F) == 71
    act(state, F, "declare")
    s = settlement(state)
    assert (s["reason"], s["winners"], s["game_points"]) == ("declaration", [F], 3)


def test_next_trick_a_meld_lapses_when_its_side_wins_no_other_trick() -> None:
    """Forehand takes a trick worth nothing, melds hearts and leads the Queen; the dealer
    takes it, closes and takes every trick: the 20 are forfeited (by default they count)."""
    for credit, melds, forfeited in (("next_trick", [], [20]), ("immediate", [20], [])):
        state = start(WEAK_F, options={"meld_credit": credit})
        run(state, "1 play:9S; 0 play:9H; 1 meld:H; 1 play:QH; 0 play:AH; 0 close")
        play_out(state)
        s = settlement(state)
        forehand = next(w for w in s["sides"] if w["seats"] == [F])
        assert [m["points"] for m in forehand["melds"]] == melds
        assert [m["points"] for m in forehand["forfeited_melds"]] == forfeited
        assert forehand["total"] == sum(melds)
        assert (s["reason"], s["winners"]) == ("closed_played_out", [D])


# --------------------------------------------------------------------------- played out


@pytest.mark.parametrize(("variant", "deck", "reason", "winner"), [
    ("sixty-six", PLAYED_OUT, "played_out", F),
    ("schnapsen", PLAYED_OUT_SCHNAPSEN, "last_trick", D),
])
def test_played_out_hands_are_worth_one(variant: str, deck: list[str], reason: str,
                                        winner: int) -> None:
    table = start(deck, variant)
    play_out(table)
    one = start(deck, variant, {"played_out_points": "one"})
    play_out(one)
    by_table, by_one = settlement(table), settlement(one)
    assert (by_table["reason"], by_table["winners"], by_table["game_points"]) == (
        reason, [winner], 2)
    assert (by_one["reason"], by_one["winners"], by_one["game_points"]) == (reason, [winner], 1)
    assert by_one["explanation"] == "a played-out hand is worth 1 whatever the loser's points"


def test_played_out_points_one_a_tie_still_scores_nothing() -> None:
    """Worked case 8b's 65:65 under ``played_out_points`` one."""
    state = start(TIE_DECK, options={"played_out_points": "one"})
    run(state, TIE_SCRIPT)
    s = settlement(state)
    assert [w["total"] for w in s["sides"]] == [65, 65]
    assert (s["reason"], s["winner_side"], s["winners"], s["game_points"]) == ("tie", None, [], 0)
    assert state.score == [0, 0]


def test_played_out_points_leave_closings_and_declarations_alone() -> None:
    state = start(WEAK_F, options={"played_out_points": "one"})
    run(state, "1 play:9S; 0 play:9H; 1 meld:H; 1 play:QH; 0 play:AH; 0 close")
    play_out(state)
    s = settlement(state)
    assert (s["reason"], s["game_points"]) == ("closed_played_out", 2)
    state = start(STRONG_F, options={"played_out_points": "one"})
    run(state, "1 play:AS; 0 play:QH; 1 play:TS; 0 play:QD; 1 meld:C; 1 declare")
    assert (settlement(state)["reason"], settlement(state)["game_points"]) == ("declaration", 3)


# --------------------------------------------------------------------------- random games

#: Every option of issue 19 on, alone and together, per variant it applies to.
ON: list[dict[str, object]] = [
    {"closing": False}, {"automatic_66": True}, {"meld_credit": "next_trick"},
    {"played_out_points": "one"},
    {"closing": False, "automatic_66": True, "meld_credit": "next_trick",
     "played_out_points": "one"},
]


def cases() -> list[tuple[str, dict[str, object]]]:
    out = []
    for variant in VARIANTS:
        for options in ON:
            if "closing" in options and variant == "four-hand":
                options = {k: v for k, v in options.items() if k != "closing"}
            if options:
                out.append((variant, options))
    return out


def check_option_invariants(state: GameState, events: list[Any]) -> None:
    """What each option promises, after every action."""
    rules = state.rules
    if not rules.closing:
        assert state.closed_by is None
    if rules.automatic_66:
        if state.status == PLAYING:
            assert all(state.credited_points(s) < 66 for s in state.hand_sides)
            assert all(DECLARE not in kinds(state, seat) for seat in state.active)
        for e in of_type(events, "hand_settled"):
            assert e.data["settlement"]["reason"] != "false_declaration"
    won_sides = [state.side_of(e.data["seat"]) for e in of_type(events, "trick_won")]
    for e in events:
        if rules.meld_credit == "next_trick":
            assert e.type != "meld" or e.data["credited"] is False
            if e.type == "meld_credited":
                assert state.side_of(e.data["seat"]) in won_sides
    if rules.played_out_points == "one":
        for e in of_type(events, "hand_settled"):
            s = e.data["settlement"]
            if s["reason"] in ("played_out", "last_trick"):
                assert s["game_points"] == 1


def random_hands(rules: Rules, rng: random.Random,
                 hands: int) -> Iterator[tuple[GameState, list[Event]]]:
    """Random play (never a false declaration) of ``hands`` hands: after every action the
    state and its events, with cards, sizes and exact legality checked."""
    state, events = new_game(rules, first_dealer=rng.randrange(rules.variant.players), rng=rng)
    played = 0
    while True:
        check_cards(state)
        check_sizes(state)
        check_legality(state, rng)
        check_option_invariants(state, events)
        yield state, events
        if state.status == MATCH_OVER:
            state, events = new_game(rules, first_dealer=0, rng=rng)
            continue
        if state.status == HAND_OVER:
            played += 1
            if played == hands:
                return
            events = []
            for seat in range(state.players):
                events += apply(state, seat, Action.from_text("continue"), rng=rng)
            continue
        seat = state.to_act()
        assert seat is not None
        honest = [a for a in legal_actions(state, seat) if a.kind != DECLARE
                  or state.credited_points(state.side_of(seat)) >= 66]
        events = apply(state, seat, rng.choice(honest), rng=rng)


@pytest.mark.parametrize(("variant", "options"), cases(),
                         ids=lambda x: x if isinstance(x, str) else ",".join(map(str, x)))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_random_games_under_the_options(variant: str, options: dict[str, object],
                                        seed: int) -> None:
    """Four hands of random play: cards and points conserved, exactly the legal actions
    accepted, and each option's promise kept (:func:`check_option_invariants`)."""
    rules = Rules.make(variant, {**options, "match_points": 3})
    for _ in random_hands(rules, random.Random(seed), 4):
        pass


def test_random_games_meet_what_the_options_change() -> None:
    """The random games above do reach what each option changes: hands ended by reaching
    66, melds after a trick held pending, played-out hands worth 1 that the table would
    score higher."""
    seen: dict[str, int] = {"reached_66": 0, "meld_after_a_trick": 0, "played_out_one": 0}
    together = random_hands(Rules.make("sixty-six", ON[-1]), random.Random(4), 40)
    played_out = random_hands(Rules.make("sixty-six", ON[3]), random.Random(4), 40)
    for state, events in itertools.chain(together, played_out):  # states change: lazily
        seen["meld_after_a_trick"] += any(
            not e.data["credited"] and state.won_tricks[state.side_of(e.data["seat"])]
            for e in of_type(events, "meld"))
        for e in of_type(events, "hand_settled"):
            s = e.data["settlement"]
            seen["reached_66"] += s["reason"].startswith("reached_66")
            loser = next((w for w in s["sides"] if w["seats"] != s["winners"]), None)
            seen["played_out_one"] += (s["reason"] == "played_out" and loser is not None
                                       and loser["tricks"] > 0 and loser["total"] <= 32)
    assert all(seen.values()), seen
