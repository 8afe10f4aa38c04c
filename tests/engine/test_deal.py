"""Dealing: explicit decks, deal order of each variant, the cut, dealer rotation."""

from __future__ import annotations

import random
import secrets

import pytest

from engine import InvalidCard, InvalidDeck, InvalidOption, Rules, new_game, parse_deck, view
from engine.cards import CARD_CODES, codes, mask_of, parse_cards
from engine.deal import _SECURE, cut_for_dealer
from engine.rules import VARIANTS
from tests.engine.helpers import act, continue_all, of_type, play_out, start

DECK24 = [CARD_CODES[c] for c in VARIANTS["sixty-six"].deck]
#: A fixed deal order, to see where each position goes.
ORDER24 = DECK24[5::6] + DECK24[0::6] + DECK24[1::6] + DECK24[2::6] + DECK24[3::6] + DECK24[4::6]
ORDER20 = [c for c in ORDER24 if not c.startswith("9")]


def hand(state_hand: int) -> set[str]:
    return set(codes(state_hand))


def test_two_hand_deal_order_3_3_then_trump_then_talon_top_first() -> None:
    d = ORDER24
    state, events = new_game(Rules.make(), first_dealer=0, decks=[d])
    assert state.active == (1, 0)
    assert hand(state.hands[1]) == set(d[0:3] + d[6:9])
    assert hand(state.hands[0]) == set(d[3:6] + d[9:12])
    assert CARD_CODES[state.trump_card] == d[12] and state.trump == state.trump_card // 6
    assert len(state.talon) == 12
    assert [CARD_CODES[c] for c in reversed(state.talon)] == [*d[13:], d[12]]
    assert events[0].data["trump_card"] == d[12] and events[0].data["forehand"] == 1
    # The first trick's winner draws d[13], the loser d[14].
    lead = codes(state.hands[1])[0]
    drawn = act(state, 1, f"play:{lead}") + act(state, 0, f"play:{codes(state.hands[0])[0]}")
    draws = of_type(drawn, "card_drawn")
    winner = state.tricks[0][2]
    assert [(e.owner, e.private) for e in draws] == [
        (winner, {"card": d[13]}), (1 - winner, {"card": d[14]})]


def test_schnapsen_deal_order_3_2() -> None:
    d = ORDER20
    state, _ = new_game(Rules.make("schnapsen"), first_dealer=1, decks=[d])
    assert state.active == (0, 1)
    assert hand(state.hands[0]) == set(d[0:3] + d[6:8])
    assert hand(state.hands[1]) == set(d[3:6] + d[8:10])
    assert CARD_CODES[state.trump_card] == d[10]
    assert len(state.talon) == 10


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_three_hand_deals_between_the_active_players_dealer_sits_out(dealer: int) -> None:
    d = ORDER24
    state, _ = new_game(Rules.make("three-hand"), first_dealer=dealer, decks=[d])
    fore, second = (dealer + 1) % 3, (dealer + 2) % 3
    assert state.active == (fore, second)
    assert hand(state.hands[fore]) == set(d[0:3] + d[6:9])
    assert hand(state.hands[second]) == set(d[3:6] + d[9:12])
    assert state.hands[dealer] == 0
    assert CARD_CODES[state.trump_card] == d[12] and len(state.talon) == 12
    assert view(state, dealer)["sitting_out"] == dealer
    assert view(state, dealer)["hand"] == [] and view(state, dealer)["legal_actions"] == []


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_hand_deals_3_3_from_left_of_dealer_last_card_fixes_trump(dealer: int) -> None:
    d = ORDER24
    state, events = new_game(Rules.make("four-hand"), first_dealer=dealer, decks=[d])
    order = [(dealer + i) % 4 for i in (1, 2, 3, 4)]
    assert list(state.active) == order
    for i, seat in enumerate(order):
        assert hand(state.hands[seat]) == set(d[3 * i : 3 * i + 3] + d[12 + 3 * i : 15 + 3 * i])
    assert CARD_CODES[state.trump_card] == d[23]
    assert state.hands[dealer] >> state.trump_card & 1, "the trump card goes into his hand"
    assert state.talon == [] and state.leader == order[0]
    assert events[0].data["trump_card"] == d[23]
    # Shown to all: every seat and a spectator see it, and it is known in the dealer's hand.
    for seat in (*range(4), None):
        assert view(state, seat)["turned_card"] == d[23]
        if seat != dealer:
            assert view(state, seat)["known_cards"][str(dealer)] == [d[23]]


@pytest.mark.parametrize(
    ("variant", "deck", "message"),
    [
        ("sixty-six", DECK24[:23], "a sixty-six deck has 24 distinct cards; got 23; missing 9D"),
        ("sixty-six", [*DECK24[:23], "AC"], "got 24; missing 9D; repeated AC"),
        ("schnapsen", ["9H", *ORDER20[1:]], "not in this deck 9H"),
        ("schnapsen", ORDER24, "a schnapsen deck has 20 distinct cards; got 24"),
    ],
)
def test_explicit_deck_must_be_a_permutation(variant: str, deck: list[str], message: str) -> None:
    with pytest.raises(InvalidDeck) as err:
        new_game(Rules.make(variant), first_dealer=0, decks=[deck])
    assert message in str(err.value)


def test_explicit_deck_rejects_codes_and_non_lists() -> None:
    with pytest.raises(InvalidCard):
        parse_deck(VARIANTS["sixty-six"], ["XX", *DECK24[1:]])
    with pytest.raises(InvalidDeck):
        parse_deck(VARIANTS["sixty-six"], "AC TC")


@pytest.mark.parametrize("deck", [[5, *DECK24[1:]], [None, *DECK24[1:]], 24, {"AC": 1}])
def test_a_deck_of_other_values_is_refused_as_a_deck_on_both_paths(deck: object) -> None:
    """As a request's JSON may have it: the compiled engine (engine.native) checks its
    arguments' types, so the parsers take any value and refuse it in the engine's words."""
    with pytest.raises((InvalidDeck, InvalidCard)):
        parse_deck(VARIANTS["sixty-six"], deck)
    with pytest.raises((InvalidDeck, InvalidCard)):
        new_game(Rules.make(), first_dealer=0, decks=[deck])  # type: ignore[list-item]


@pytest.mark.parametrize("seat", [-1, 2, True, "0"])
def test_first_dealer_must_be_a_seat(seat: object) -> None:
    with pytest.raises(InvalidOption) as err:
        new_game(Rules.make(), first_dealer=seat, decks=[DECK24])
    assert err.value.option == "first_dealer"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_cut_for_dealer_draws_the_variants_cards_highest_deals_ties_draw_again(
    name: str,
) -> None:
    """Over 200 seeds: every card cut is of the variant's deck (Schnapsen: no nine), each
    round draws distinct cards, one per player still in the draw, the only highest rank deals."""
    variant = VARIANTS[name]
    tied = 0
    for seed in range(200):
        dealer, rounds = cut_for_dealer(variant, random.Random(seed))
        drawers = list(range(variant.players))
        for i, drawn in enumerate(rounds):
            assert set(drawn) <= set(variant.deck), [CARD_CODES[c] for c in drawn]
            assert len(set(drawn)) == len(drawn) == len(drawers)
            best = min(c % 6 for c in drawn)
            drawers = [s for s, c in zip(drawers, drawn, strict=True) if c % 6 == best]
            assert (len(drawers) == 1) == (i == len(rounds) - 1), "only a tie draws again"
        assert drawers == [dealer], "the single highest card deals"
        tied += len(rounds) > 1
    assert tied > 0


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_cut_of_a_new_game_is_reproducible_and_of_the_variants_deck(name: str) -> None:
    """The ``dealer_chosen`` event names the cards cut; one seed gives one cut."""
    for seed in range(200):
        cuts = [new_game(Rules.make(name), rng=random.Random(seed))[1][0].data
                for _ in range(2)]
        assert cuts[0] == cuts[1]
        deck = {CARD_CODES[c] for c in VARIANTS[name].deck}
        assert {c for r in cuts[0]["draws"] for c in r} <= deck


def test_without_a_first_dealer_the_cut_is_an_event() -> None:
    state, events = new_game(Rules.make(), rng=random.Random(7))
    assert events[0].type == "dealer_chosen"
    assert events[0].data["dealer"] == state.dealer
    assert events[1].type == "hand_dealt"


def test_default_shuffle_is_secure() -> None:
    assert isinstance(_SECURE, secrets.SystemRandom)
    decks = {tuple(new_game(Rules.make())[0].talon) for _ in range(5)}
    assert len(decks) == 5
    assert "seed" not in str(view(new_game(Rules.make())[0], None))


def test_dealer_alternates_and_forehand_with_him() -> None:
    state = start(DECK24, options={"match_points": 11, "set_bummerl": 3})
    rng = random.Random(3)
    seen = []
    for _ in range(4):
        seen.append((state.dealer, state.active))
        play_out(state)
        continue_all(state, rng)
    assert seen == [(0, (1, 0)), (1, (0, 1)), (0, (1, 0)), (1, (0, 1))]


def test_three_hand_sit_out_rotates_each_hand() -> None:
    state = start(DECK24, "three-hand", {"match_points": 11, "set_bummerl": 3}, dealer=2)
    rng = random.Random(5)
    seen = []
    for _ in range(6):
        seen.append((state.dealer, view(state, None)["sitting_out"], state.active))
        assert state.hands[state.dealer] == 0
        play_out(state)
        continue_all(state, rng)
    assert seen == [(2, 2, (0, 1)), (0, 0, (1, 2)), (1, 1, (2, 0))] * 2


def test_preset_decks_are_used_in_turn_then_shuffles() -> None:
    second = list(reversed(DECK24))
    state = start(DECK24, more=[second])
    assert state.hands[1] == mask_of(parse_cards(DECK24[0:3] + DECK24[6:9]))
    play_out(state)
    continue_all(state)
    assert state.dealer == 1
    assert state.hands[0] == mask_of(parse_cards(second[0:3] + second[6:9]))
    assert state.preset_decks == []
    play_out(state)
    continue_all(state, random.Random(1))
    assert state.hand_no == 3 and len(state.talon) == 12
