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
from tests.engine.helpers import act, of_type, play_out, run, start, two_hand_deck
from tests.engine.test_properties import check_cards, check_legality, check_sizes

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


def test_automatic_66_a_pending_marriage_counts_with_the_trick_that_reaches_66() -> None:
    """Forehand melds 40 before his first trick (pending); the third trick brings him to 67:
    the hand ends with that trick (once both have drawn)."""
    deck = two_hand_deck(["AC", "TC", "KC", "QC", "AS", "TS"],
                         ["9H", "JH", "9D", "JD", "QH", "QD"], "JC")
    state = start(deck, options={"automatic_66": True})
    run(state, "1 meld:C; 1 play:KC; 0 play:9H; 1 play:AC; 0 play:9D")
    assert state.credited_points(F) == 55 and state.status == PLAYING
    events = run(state, "1 play:TC; 0 play:JH")
    assert [e.type for e in events] == ["card_played", "card_played", "trick_won",
                                        "card_drawn", "card_drawn", "reached_66",
                                        "hand_settled"]
    s = settlement(state)
    assert (s["reason"], s["winners"], s["game_points"]) == ("reached_66", [F], 3)


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
