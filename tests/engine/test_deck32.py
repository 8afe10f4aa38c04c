"""docs/rules.md §13 (option ``deck`` 32): every worked case of the 32-card game, through the
engine.

Unless stated, sixty-six with ``deck`` 32 and seat 0 dealing: seat 1 is forehand (F), seat 0
the dealer (D); trump is clubs (the face-up trump card JC).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import (
    PLAYING,
    Action,
    GameState,
    IllegalAction,
    InvalidOption,
    Rules,
    apply,
    legal_actions,
)
from engine.cards import (
    CARD_CODES,
    CARDS,
    POINTS,
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    card,
    cards_of,
    mask_of,
    parse_card,
)
from engine.cards import SEVEN as SEVEN_RANK
from tests.engine.helpers import act, play_out, run, start, two_hand_deck

F, D = 1, 0
DECK32 = {"deck": 32}
EXCHANGE = Action.from_text("exchange")
CLOSE = Action.from_text("close")


def deck32(forehand: list[str], dealer: list[str], trump: str = "JC") -> list[str]:
    return two_hand_deck(forehand, dealer, trump, deck_size=32)


def side(state: GameState, seat: int) -> dict[str, Any]:
    s = state.settlement
    assert s is not None
    return next(w for w in s["sides"] if w["seats"] == [seat])


def play_first(state: GameState) -> None:
    """The seat to act plays its first legal card."""
    seat = state.to_act()
    assert seat is not None
    apply(state, seat, next(a for a in legal_actions(state, seat) if a.kind == "play"))


def shuffled(seed: int, options: dict[str, object] | None = None) -> GameState:
    rules = Rules.make("sixty-six", {**DECK32, **(options or {})})
    deck = list(rules.variant.deck)
    random.Random(seed).shuffle(deck)
    return start([CARD_CODES[c] for c in deck], options={**DECK32, **(options or {})})


def test_case_1_deal_talon_20_and_16_tricks_of_120_points() -> None:
    state = shuffled(1)
    assert [h.bit_count() for h in state.hands] == [6, 6]
    assert len(state.talon) == 20 and state.talon[0] == state.trump_card
    for trick in range(10):
        assert len(state.talon) == 20 - 2 * trick
        while len(state.tricks) == trick:
            play_first(state)
    assert state.talon == []
    play_out(state)
    assert len(state.tricks) == 16
    assert sum(state.won_points) == 120
    assert sum(POINTS) == 120


def test_case_2_sevens_and_eights_count_nothing_but_a_trick_is_a_trick() -> None:
    assert [POINTS[parse_card(c)] for c in ("7H", "8H", "9H")] == [0, 0, 0]
    state = start(deck32(["AC", "TC", "KC", "QC", "7S", "AH"],
                         ["8S", "9H", "JH", "9D", "JD", "QD"]), options=DECK32)
    run(state, "1 play:7S; 0 play:8S")
    assert state.tricks[-1][2] == D and state.won_points[D] == 0
    run(state, "0 play:9H; 1 play:AH; 1 meld:C; 1 play:KC; 0 play:JH; 1 play:AC; 0 play:9D; "
               "1 declare")
    assert side(state, D)["tricks"] == 1 and side(state, D)["total"] == 0
    assert side(state, F)["total"] == 68
    s = state.settlement
    assert s is not None and (s["winners"], s["game_points"]) == ([F], 2)


def duel_winner(lead: str, reply: str, options: dict[str, object] | None = None) -> int:
    """The winner of a first trick led by F with ``lead`` and answered by D with ``reply``."""
    f = [lead, "AS", "TS", "KS", "QS", "JS"]
    d = [reply, "AD", "TD", "KD", "QD", "JD"]
    state = start(deck32(f, d), options={**DECK32, **(options or {})})
    run(state, f"1 play:{lead}; 0 play:{reply}")
    return state.tricks[-1][2]


@pytest.mark.parametrize(("low", "high"), [("8H", "9H"), ("7H", "8H")])
def test_case_3_rank_nine_eight_seven(low: str, high: str) -> None:
    assert duel_winner(low, high) == D
    assert duel_winner(high, low) == F


@pytest.mark.parametrize(("low", "high"), [("TH", "KH"), ("9H", "TH")])
def test_case_3_ten_rank_low(low: str, high: str) -> None:
    assert duel_winner(low, high, {"ten_rank": "low"}) == D
    assert duel_winner(high, low, {"ten_rank": "low"}) == F


def test_ten_rank_low_needs_32_cards() -> None:
    with pytest.raises(InvalidOption):
        Rules.make("sixty-six", {"ten_rank": "low"})
    with pytest.raises(InvalidOption):
        Rules.make("schnapsen", {"deck": 32})


def test_case_4_the_trump_seven_exchanges_the_nine_does_not() -> None:
    state = start(deck32(["7H", "AC", "TC", "KC", "QC", "AS"],
                         ["9S", "9C", "9D", "JD", "QD", "JS"], "JH"), options=DECK32)
    assert EXCHANGE in legal_actions(state, F)
    act(state, F, "exchange")
    assert state.hands[F] >> parse_card("JH") & 1 and state.talon[0] == parse_card("7H")
    nine = start(deck32(["9H", "AC", "TC", "KC", "QC", "AS"],
                        ["7S", "9C", "9D", "JD", "QD", "JS"], "JH"), options=DECK32)
    assert EXCHANGE not in legal_actions(nine, F)
    with pytest.raises(IllegalAction):
        act(nine, F, "exchange")


def test_case_5_talon_of_two_exchange_yes_close_no() -> None:
    found = 0
    for seed in range(200):
        state = shuffled(seed)
        while state.status == PLAYING and len(state.talon) > 2:
            play_first(state)
        seven = card(SEVEN_RANK, state.trump)
        if state.status != PLAYING or not state.hands[state.leader] >> seven & 1:
            continue
        legal = legal_actions(state, state.leader)
        assert EXCHANGE in legal and CLOSE not in legal
        with pytest.raises(IllegalAction):
            act(state, state.leader, "close")
        act(state, state.leader, "exchange")
        assert state.talon[0] == seven
        found += 1
    assert found >= 3
    assert CLOSE in legal_actions(shuffled(0), F)
    act(fresh := shuffled(0), F, "close")
    assert fresh.closed_by == F and len(fresh.talon) == 20


def strict_plays(state: GameState, seat: int) -> int:
    """The cards phase 2 allows ``seat`` against the led card (two-hand): a higher card of
    the suit led, else any of it, else a trump, else anything."""
    led = state.trick[0]
    hand = state.hands[seat]
    follow = hand & SUIT_MASKS[SUIT_OF[led]]
    if follow:
        higher = sum(1 << c for c in cards_of(follow) if c in cards_of(
            state.rules.plan.higher[led]))
        return higher or follow
    return hand & SUIT_MASKS[state.trump] or hand


def test_case_6_last_talon_card_to_the_loser_of_trick_10_then_strict() -> None:
    refused = 0
    for seed in range(40):
        state = shuffled(seed)
        while len(state.tricks) < 9:
            play_first(state)
        bottom = state.talon[0]
        while len(state.tricks) < 10:
            play_first(state)
        winner = state.tricks[-1][2]
        assert state.talon == [] and state.hands[1 - winner] >> bottom & 1
        while state.status == PLAYING:
            seat = state.to_act()
            assert seat is not None
            if state.trick:
                allowed = strict_plays(state, seat)
                plays = sum(1 << a.card for a in legal_actions(state, seat) if a.card is not None)
                assert plays == allowed
                for c in cards_of(state.hands[seat] & ~allowed):
                    with pytest.raises(IllegalAction):
                        act(state.copy(), seat, Action.play(c).text())
                    refused += 1
            play_first(state)
        assert len(state.tricks) == 16
    assert refused > 20


#: Found by a search over shuffled deals played out with first legal cards: 65 : 65.
TIE_DECK = ["JC", "JS", "7C", "QH", "8C", "8H", "7H", "AD", "TS", "QD", "QS", "JH", "8S", "9S",
            "AC", "TC", "KS", "KC", "9C", "7S", "8D", "7D", "QC", "9H", "AS", "9D", "TD", "JD",
            "TH", "KH", "AH", "KD"]


def test_case_7_last_trick_plus_10_and_65_65_scores_nobody() -> None:
    state = start(TIE_DECK, options=DECK32)
    play_out(state)
    assert len(state.tricks) == 16
    last = state.tricks[-1][2]
    assert side(state, last)["last_trick_bonus"] == 10
    assert side(state, 1 - last)["last_trick_bonus"] == 0
    assert side(state, 0)["total"] == side(state, 1)["total"] == 65
    s = state.settlement
    assert s is not None and (s["reason"], s["winners"], s["game_points"]) == ("tie", [], 0)


def test_case_8_closing_before_the_first_lead_and_reaching_66_scores_3() -> None:
    state = start(deck32(["AC", "TC", "KC", "QC", "TS", "7H"],
                         ["AH", "9H", "JH", "9D", "JD", "QD"]), options=DECK32)
    run(state, "1 close; 1 meld:C; 1 play:KC; 0 play:9D; 1 play:AC; 0 play:JD; 1 play:7H; "
               "0 play:AH; 0 play:9H; 1 play:TC; 1 declare")
    assert side(state, D)["tricks"] == 1
    s = state.settlement
    assert s is not None and (s["winners"], s["game_points"]) == ([F], 3)


@pytest.mark.parametrize(("forehand", "dealer", "script", "taken", "points"), [
    (["TH", "9S", "AC", "TC", "KC", "QC"], ["AH", "AS", "9D", "JD", "QD", "9H"],
     "1 play:TH; 0 play:AH; 0 play:AS; 1 play:9S", 32, 2),
    (["TH", "JS", "AC", "TC", "KC", "QC"], ["AH", "TS", "9D", "JD", "QD", "9H"],
     "1 play:TH; 0 play:AH; 0 play:TS; 1 play:JS", 33, 1),
])
def test_case_9_table_unchanged(forehand: list[str], dealer: list[str], script: str,
                                taken: int, points: int) -> None:
    """The dealer takes ``taken`` points in two tricks; forehand melds 40 and reaches 67."""
    state = start(deck32(forehand, dealer), options=DECK32)
    run(state, script + "; 0 play:9D; 1 play:AC; 1 meld:C; 1 play:KC; 0 play:JD; 1 play:TC; "
                        "0 play:9H; 1 declare")
    assert side(state, D)["total"] == taken and side(state, F)["total"] == 67
    s = state.settlement
    assert s is not None and (s["winners"], s["game_points"]) == ([F], points)


def test_case_10_four_hand_eight_each_dealer_keeps_the_shown_card() -> None:
    rules = Rules.make("four-hand", DECK32)
    deck = list(rules.variant.deck)
    random.Random(3).shuffle(deck)
    state = start([CARD_CODES[c] for c in deck], "four-hand", DECK32)
    assert [h.bit_count() for h in state.hands] == [8, 8, 8, 8] and state.talon == []
    assert state.trump_card == deck[-1] and state.hands[0] >> deck[-1] & 1
    assert state.trump == SUIT_OF[deck[-1]]
    play_out(state)
    assert len(state.tricks) == 8 and sum(state.won_points) == 120


def test_a_24_card_game_refuses_a_seven() -> None:
    state = start(two_hand_deck(["AC", "TC", "KC", "QC", "AS", "TS"],
                                ["9H", "JH", "9D", "JD", "QH", "QD"], "JC"))
    with pytest.raises(IllegalAction):
        act(state, F, "play:7S")


def test_cards_and_plays_are_listed_suit_by_suit_high_to_low() -> None:
    rng = random.Random(5)
    for _ in range(500):
        cards = rng.sample(range(CARDS), rng.randint(0, CARDS))
        expected = sorted(cards, key=lambda c: (SUIT_OF[c], RANK_OF[c]))
        assert cards_of(mask_of(cards)) == expected
    state = start(deck32(["7D", "AD", "8S", "9S", "7C", "KH"],
                         ["8D", "AC", "TS", "9D", "JD", "QD"]), options=DECK32)
    assert [a.text() for a in legal_actions(state, F) if a.card is not None] == [
        "play:7C", "play:9S", "play:8S", "play:KH", "play:AD", "play:7D"]
