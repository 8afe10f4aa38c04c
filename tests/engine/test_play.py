"""Legal actions and refusals: options, phases, following duty, reasons in a player's words."""

from __future__ import annotations

import pytest

from engine import Action, GameState, IllegalAction, legal_actions, view
from engine.cards import BEATERS, CLUBS, HEARTS, MARRIAGE_OF, MARRIAGES, SUIT_MASKS, mask_of
from engine.cards import parse_card as card_of
from tests.engine.helpers import act, four_hand_deck, play_out, run, start, two_hand_deck
from tests.engine.test_worked_cases import SWEEP_D, SWEEP_F, plan_deck, play_plan

F, D = 1, 0
#: Forehand holds the trump nine 9C and wins the first five tricks (trump KC face up).
FIVE_TRICKS_DECK = two_hand_deck(["9C", "AH", "TH", "AS", "TS", "AD"],
                                 ["JH", "9H", "JS", "9S", "JD", "QD"], "KC")
FIVE_TRICKS = ("1 play:AH; 0 play:9H; 1 play:TH; 0 play:JH; 1 play:AS; 0 play:9S; 1 play:TS; "
               "0 play:JS; 1 play:AD; 0 play:JD")


def refused(state: GameState, seat: int, text: str) -> str:
    """The reason ``seat``'s ``text`` action is refused; checks ``.legal`` and no change."""
    legal = legal_actions(state, seat)
    with pytest.raises(IllegalAction) as err:
        act(state, seat, text)
    assert err.value.legal == legal
    assert Action.from_text(text) not in legal
    return err.value.reason


def can(state: GameState, seat: int, text: str) -> bool:
    return Action.from_text(text) in legal_actions(state, seat)


def test_not_your_turn() -> None:
    state = start(FIVE_TRICKS_DECK)
    assert legal_actions(state, D) == []
    assert refused(state, D, "play:JH") == "not your turn: waiting for seat 1"
    assert refused(state, F, "play:JH") == "you do not hold JH"
    assert refused(state, F, "continue") == (
        "there is no settlement to acknowledge: the hand is still being played")


def test_phase_1_has_no_duty_to_follow() -> None:
    state = start(FIVE_TRICKS_DECK)
    act(state, F, "play:AH")
    assert {a.text() for a in legal_actions(state, D)} == {
        "play:JH", "play:9H", "play:JS", "play:9S", "play:JD", "play:QD"}
    assert refused(state, D, "meld:D") == "only the player on lead may meld; you must play a card"


@pytest.mark.parametrize(("minimum", "at_two"), [(2, True), (3, False), (4, False)])
def test_option_exchange_min_talon(minimum: int, at_two: bool) -> None:
    state = start(FIVE_TRICKS_DECK, options={"exchange_min_talon": minimum})
    assert can(state, F, "exchange"), "forehand may exchange before the first lead"
    run(state, FIVE_TRICKS)
    assert len(state.talon) == 2
    assert can(state, F, "exchange") is at_two
    if not at_two:
        assert refused(state, F, "exchange") == (
            f"the talon must hold at least {minimum} cards to exchange")


@pytest.mark.parametrize("required", [False, True])
def test_option_exchange_requires_trick(required: bool) -> None:
    state = start(FIVE_TRICKS_DECK, options={"exchange_requires_trick": required})
    assert can(state, F, "exchange") is not required
    if required:
        assert refused(state, F, "exchange") == "you must win a trick before you may exchange"
    run(state, "1 play:AH; 0 play:9H")
    assert can(state, F, "exchange")
    events = act(state, F, "exchange")
    assert events[0].data == {"seat": F, "took": "KC", "gave": "9C"}
    assert refused(state, F, "exchange") == "you do not hold the trump nine (9C)"


def test_schnapsen_exchanges_the_trump_jack() -> None:
    state = start(two_hand_deck(["JC", "AH", "TH", "AS", "TS"], ["KH", "QH", "JS", "KS", "JD"],
                                "QC", variant="schnapsen"), "schnapsen")
    assert act(state, F, "exchange")[0].data == {"seat": F, "took": "QC", "gave": "JC"}


@pytest.mark.parametrize(("minimum", "at_four"), [(2, True), (3, True), (4, True), (5, False)])
def test_option_close_min_talon(minimum: int, at_four: bool) -> None:
    state = start(FIVE_TRICKS_DECK, options={"close_min_talon": minimum})
    run(state, "1 play:AH; 0 play:9H; 1 play:TH; 0 play:JH; 1 play:AS; 0 play:9S; 1 play:TS; "
               "0 play:JS")
    assert len(state.talon) == 4
    assert can(state, F, "close") is at_four
    if not at_four:
        assert refused(state, F, "close") == "the talon must hold at least 5 cards to close"
    else:
        act(state, F, "close")
        assert refused(state, F, "close") == "the talon is already closed"
        assert refused(state, F, "exchange") == "the talon is closed"


@pytest.mark.parametrize("rule", ["pending", "forbidden"])
def test_option_meld_before_first_trick(rule: str) -> None:
    state = start(two_hand_deck(["KH", "QH", "AS", "9C", "JD", "9D"],
                                ["AH", "JH", "JS", "9S", "TD", "QD"], "KC"),
                  options={"meld_before_first_trick": rule})
    assert can(state, F, "meld:H") is (rule == "pending")
    if rule == "forbidden":
        assert refused(state, F, "meld:H") == "these rules allow no meld before your first trick"
        run(state, "1 play:AS; 0 play:9S")
        assert can(state, F, "meld:H")
        assert act(state, F, "meld:H")[0].data["credited"] is True
    else:
        assert act(state, F, "meld:H")[0].data["credited"] is False


def test_after_a_meld_lead_its_king_or_queen_or_declare() -> None:
    state = start(two_hand_deck(["KH", "QH", "AS", "9C", "KD", "QD"],
                                ["AH", "JH", "JS", "9S", "TD", "JD"], "KC"))
    run(state, "1 play:AS; 0 play:9S; 1 meld:H")
    assert {a.text() for a in legal_actions(state, F)} == {"play:KH", "play:QH", "declare"}
    assert refused(state, F, "play:9C") == (
        "after melding hearts you must lead QH or KH (or declare)")
    assert refused(state, F, "meld:D") == (
        "you have already melded on this lead: lead its King or Queen")
    assert refused(state, F, "exchange") == "after a meld you must lead its King or Queen"
    assert refused(state, F, "close") == "after a meld you must lead its King or Queen"
    run(state, "1 play:KH; 0 play:JH")
    assert refused(state, F, "meld:S") == "to meld spades you must hold both KS and QS"


def test_declare_needs_a_trick() -> None:
    state = start(FIVE_TRICKS_DECK)
    assert refused(state, F, "declare") == "you must win a trick before you may declare"
    run(state, "1 play:AH; 0 play:9H")
    assert can(state, F, "declare")
    assert refused(state, D, "declare") == "not your turn: waiting for seat 1"


def test_phase_2_follow_suit_lower_else_trump() -> None:
    state = start(two_hand_deck(["AH", "AS", "AD", "JC", "KS", "KD"],
                                ["TH", "9H", "JS", "9S", "QC", "9C"], "KC"))
    run(state, "1 close; 1 play:AH")
    assert refused(state, D, "play:QC") == "you must follow suit: 9H or TH"
    run(state, "0 play:9H; 1 play:AS")
    assert {a.text() for a in legal_actions(state, D)} == {"play:JS", "play:9S"}
    run(state, "0 play:9S; 1 play:AD")
    assert refused(state, D, "play:JS") == "you hold no diamonds, so you must trump: 9C or QC"
    events = act(state, D, "play:9C")
    assert events[-1].data["reason"] == "trump" and state.leader == D
    act(state, D, "play:TH")
    assert [a.text() for a in legal_actions(state, F)] == ["play:JC"]


def test_phase_2_after_the_talon_runs_out_last_card_to_the_loser() -> None:
    state = start(FIVE_TRICKS_DECK)
    run(state, FIVE_TRICKS)
    events = run(state, "1 play:9C; 0 play:QD")
    draws = [e for e in events if e.type == "card_drawn"]
    assert [e.for_seat(D) for e in draws] == [
        {"type": "card_drawn", "seat": F, "card": None, "talon_size": 1},
        {"type": "card_drawn", "seat": D, "card": "KC", "talon_size": 0},
    ]
    assert draws[0].for_seat(F)["card"] == "9D"
    assert events[-1].type == "talon_exhausted"
    assert state.talon == [] and state.closed_by is None
    assert view(state, F)["known_cards"] == {"0": ["KC"]} and view(state, F)["phase"] == 2
    act(state, F, "play:KS")
    assert refused(state, D, "play:TC") == "you must follow suit: QS"


def test_hand_over_and_game_over_reasons() -> None:
    state = start(plan_deck(SWEEP_F), options={"match_points": 3, "set_bummerl": 3},
                  more=[plan_deck(SWEEP_D)])
    play_plan(SWEEP_F, F, D, state)
    assert refused(state, F, "play:AS") == (
        "the hand is over: acknowledge the settlement with continue")
    act(state, F, "continue")
    assert refused(state, F, "continue") == "you have already acknowledged this settlement"
    assert legal_actions(state, F) == []
    assert legal_actions(state, D) == [Action.from_text("continue")]
    act(state, D, "continue")
    assert state.status == "playing" and state.hand_no == 2 and state.match_no == 2
    play_plan(SWEEP_D, 0, 1, state)
    assert state.status == "match_over" and state.bummerl == [4, 0] and state.set_winner == 1
    for seat in (0, 1):
        assert legal_actions(state, seat) == []
        assert refused(state, seat, "continue") == "the game is over"


def test_three_hand_sitter_has_no_actions() -> None:
    state = start(FIVE_TRICKS_DECK, "three-hand", dealer=2)
    assert state.active == (0, 1)
    assert legal_actions(state, 2) == []
    assert refused(state, 2, "play:AH") == "you sit out this hand"
    play_out(state)
    assert legal_actions(state, 2) == [Action.from_text("continue")]


#: Four-hand, seat 0 deals, seat 1 leads AH. Trump clubs (the dealer's last card 9C).
OVER_TRUMP = four_hand_deck({
    1: ["AH", "TH", "KH", "QH", "JH", "9H"],
    2: ["QC", "AC", "TC", "AS", "TS", "KS"],
    3: ["KC", "JC", "AD", "TD", "KD", "QD"],
    0: ["QS", "JS", "9S", "JD", "9D", "9C"],
}, dealer=0)


def test_four_hand_must_trump_then_over_trump_else_any_trump() -> None:
    state = start(OVER_TRUMP, "four-hand")
    assert state.trump == 0 and state.active == (1, 2, 3, 0)
    act(state, 1, "play:AH")
    assert {a.text() for a in legal_actions(state, 2)} == {"play:AC", "play:TC", "play:QC"}
    assert refused(state, 2, "play:AS") == "you hold no hearts, so you must trump: QC, TC or AC"
    act(state, 2, "play:QC")
    assert refused(state, 3, "play:JC") == "you must over-trump: KC"
    assert refused(state, 3, "play:AD") == "you must over-trump: KC"
    act(state, 3, "play:KC")
    assert [a.text() for a in legal_actions(state, 0)] == ["play:9C"]
    events = act(state, 0, "play:9C")
    assert events[-1].data == {"seat": 3, "cards": ["AH", "QC", "KC", "9C"], "points": 11 + 3 + 4,
                               "reason": "trump"}
    assert state.won_points == [0, 18] and state.won_tricks == [0, 1]


#: Four-hand, seat 0 deals, seat 1 leads KH; trump diamonds (9D).
BEAT_PARTNER = four_hand_deck({
    1: ["KH", "9S", "JS", "QS", "KS", "TS"],
    2: ["9H", "AS", "AC", "TC", "KC", "QC"],
    3: ["AH", "JH", "AD", "TD", "KD", "QD"],
    0: ["TH", "QH", "JC", "9C", "JD", "9D"],
}, dealer=0)


def test_four_hand_must_beat_even_the_partner() -> None:
    """The duty to beat holds against one's partner (engine decision: no exception)."""
    state = start(BEAT_PARTNER, "four-hand")
    assert state.trump == 3
    assert "close" not in {a.kind for a in legal_actions(state, 1)}
    assert refused(state, 1, "close") == "there is no talon to close in this variant"
    assert refused(state, 1, "exchange") == "there is no trump card to exchange in this variant"
    act(state, 1, "play:KH")
    assert [a.text() for a in legal_actions(state, 2)] == ["play:9H"]
    act(state, 2, "play:9H")
    assert refused(state, 3, "play:JH") == "you must follow suit and win the trick: AH"
    act(state, 3, "play:AH")
    assert {a.text() for a in legal_actions(state, 0)} == {"play:TH", "play:QH"}
    events = act(state, 0, "play:QH")
    assert events[-1].data["seat"] == 3 and events[-1].data["reason"] == "higher_card"
    assert state.won_tricks == [0, 1]


def test_four_hand_melds_and_declarations_count_for_the_pair() -> None:
    state = start(BEAT_PARTNER, "four-hand")
    run(state, "1 play:KH; 2 play:9H; 3 play:AH; 0 play:QH")
    # Seat 3 leads for pair 1+3 and melds 40 in trumps, credited at once: 18 + 40 = 58.
    events = act(state, 3, "meld:D")
    assert events[0].data == {"seat": 3, "suit": "D", "points": 40, "cards": ["KD", "QD"],
                              "credited": True}
    assert state.credited_points(1) == 58
    events = run(state, "3 play:QD; 0 play:JD; 1 play:9S; 2 play:AS")
    assert events[-1].data == {"seat": 3, "cards": ["QD", "JD", "9S", "AS"], "points": 16,
                               "reason": "higher_card"}
    assert state.leader == 3 and state.credited_points(1) == 74
    act(state, 3, "declare")
    s = state.settlement
    assert s is not None
    assert (s["reason"], s["winners"], s["game_points"]) == ("declaration", [1, 3], 3)
    assert [w["seats"] for w in s["sides"]] == [[1, 3], [0, 2]]
    assert state.score == [0, 3]
    assert view(state, 2)["match"]["points"] == [0, 3, 0, 3]


def test_beaters_state_the_trick_winner_rule() -> None:
    # A higher card of the best card's suit wins, and a trump wins over a side card; a card
    # of another side suit, a lower card or a trump under a higher trump never does.
    assert BEATERS[HEARTS][card_of("KS")] == mask_of([card_of("AS"), card_of("TS")]) | (
        SUIT_MASKS[HEARTS])
    assert BEATERS[HEARTS][card_of("KH")] == mask_of([card_of("AH"), card_of("TH")])
    assert BEATERS[HEARTS][card_of("AC")] == SUIT_MASKS[HEARTS]
    assert BEATERS[CLUBS][card_of("9C")] == mask_of(
        [card_of(c) for c in ("AC", "TC", "KC", "QC", "JC")])
    # the 8s and 7s of deck 32 rank below the 9: the 7 is beaten by every other card of its suit
    assert BEATERS[CLUBS][card_of("8C")] == BEATERS[CLUBS][card_of("9C")] | 1 << card_of("9C")
    assert BEATERS[CLUBS][card_of("7C")] == SUIT_MASKS[CLUBS] & ~(1 << card_of("7C"))


def test_marriage_masks_hold_the_king_and_queen_of_a_suit() -> None:
    marriage = mask_of([card_of("KH"), card_of("QH")])
    assert MARRIAGES[HEARTS] == marriage
    assert MARRIAGE_OF[card_of("KH")] == MARRIAGE_OF[card_of("QH")] == marriage
    assert MARRIAGE_OF[card_of("AH")] == MARRIAGE_OF[card_of("JH")] == 0
    assert MARRIAGES[CLUBS] & marriage == 0
