"""Shuffling, choosing the first dealer, and dealing a hand (docs/rules.md §2, §6).

Deal order of a deck (explicit or shuffled), card 0 first:

* **Two-hand** (``sixty-six``): 3 to forehand (the non-dealer), 3 to the dealer, 3 to forehand,
  3 to the dealer; Schnapsen 3, 3, then 2, 2. The next card is the face-up trump card; the
  rest is the talon, the first of them on top (drawn first).
* **Three-hand**: the same between the two active players: forehand (left of the dealer,
  ``dealer + 1``) and then ``dealer + 2``; the dealer sits out.
* **Four-hand**: 3 to each seat starting left of the dealer, then 3 more each (with 32 cards
  then 2 more each); the dealer's last card (the deck's last) is shown to all and fixes trump.

Shuffles come from :class:`secrets.SystemRandom` unless a caller passes its own ``rng``
(benchmarks and the arena do); no seed is kept in the state, so none can leak into a view.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Final

from engine.cards import RANK_OF, SUIT_OF, Card, card_code, parse_card
from engine.errors import InvalidDeck, InvalidOption
from engine.events import Event
from engine.play_events import CardsDealt, HandDealt
from engine.rules import VARIANTS, Rules, Settings, Variant
from engine.state import PLAYING, GameState

_SECURE = secrets.SystemRandom()


def shuffled_deck(variant: Variant, rng: random.Random | None = None) -> list[Card]:
    deck = list(variant.deck)
    (rng or _SECURE).shuffle(deck)
    return deck


def parse_deck(variant: Variant, codes: object) -> list[Card]:
    """An explicit deal order: a sequence of card codes, a permutation of the variant's deck
    (anything else raises :class:`InvalidDeck` or :class:`InvalidCard`)."""
    return parse_deck_of(variant.deck, variant.name, codes)


def parse_deck_of(deck: Sequence[Card], game: str, codes: object) -> list[Card]:
    """:func:`parse_deck` for the cards ``deck`` of the game named ``game`` (its errors name
    it)."""
    if isinstance(codes, str) or not isinstance(codes, Sequence):
        raise InvalidDeck("a deck is a list of card codes")
    cards = [parse_card(c) for c in codes]
    expected = set(deck)
    if len(cards) != len(expected) or set(cards) != expected:
        missing = sorted(expected - set(cards))
        extra = sorted(set(cards) - expected)
        dup = sorted({c for c in cards if cards.count(c) > 1})
        parts = [f"a {game} deck has {len(expected)} distinct cards; got {len(cards)}"]
        if missing:
            parts.append("missing " + " ".join(card_code(c) for c in missing))
        if dup:
            parts.append("repeated " + " ".join(card_code(c) for c in dup))
        if extra:
            parts.append("not in this deck " + " ".join(card_code(c) for c in extra))
        raise InvalidDeck("; ".join(parts))
    return cards


def cut_for_dealer(
    variant: Variant, rng: random.Random | None = None
) -> tuple[int, list[list[Card]]]:
    """Each player draws a card of ``variant``'s deck; the highest rank deals; ties draw again.

    Suits do not count (docs/rules.md §2: "higher card deals; equal → draw again"). Returns the
    dealer and the rounds of cards drawn, each in seat order of the players still in the draw.
    A Schnapsen cut draws from its 20 cards, so never a nine.
    """
    r = rng or _SECURE
    deck = variant.deck
    contenders = list(range(variant.players))
    rounds: list[list[Card]] = []
    while True:
        drawn = r.sample(deck, len(contenders))
        rounds.append(drawn)
        best = min(RANK_OF[c] for c in drawn)
        contenders = [s for s, c in zip(contenders, drawn, strict=True) if RANK_OF[c] == best]
        if len(contenders) == 1:
            return contenders[0], rounds


def deal_order(variant: Variant, dealer: int) -> tuple[int, ...]:
    """Seats receiving cards, in deal order; the first is forehand (leads the first trick)."""
    if variant.players == 2:
        return (1 - dealer, dealer)
    if variant.players == 3:
        return ((dealer + 1) % 3, (dealer + 2) % 3)
    return tuple((dealer + i) % 4 for i in (1, 2, 3, 4))


#: A deal by one dealer: the deal order, each seat's places in the deck (fixed by the
#: variant's packets), the number of seats and the deck index of the trump card (-1: the
#: deck's last, four-hand).
Plan = tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...], int, int]


def _plans(variant: Variant) -> tuple[Plan, ...]:
    """``variant``'s deal by each dealer."""
    seats = len(deal_order(variant, 0))
    places: list[list[int]] = [[] for _ in range(seats)]
    i = 0
    for size in variant.packets:
        for k in range(seats):
            places[k] += range(i, i + size)
            i += size
    at = i if variant.has_talon else -1
    plans: list[Plan] = []
    for dealer in range(variant.players):
        order = deal_order(variant, dealer)
        plans.append((order, tuple(zip(order, map(tuple, places), strict=True)),
                      variant.players, at))
    return tuple(plans)


#: The deals of each variant by (name, pack size).
_PLANS: Final = {(v.name, size): _plans(v.with_deck(size))
                 for v in VARIANTS.values() for size in v.decks}


def deal(state: GameState, deck: Sequence[Card]) -> list[Event]:
    """Deal ``deck`` for a new hand with ``state.dealer`` dealing; resets the hand's state."""
    order, places, players, at = _PLANS[state.rules.variant.name, state.rules.deck][state.dealer]
    hands = [0] * players
    for seat, at_places in places:
        hand = 0
        for i in at_places:
            hand |= 1 << deck[i]
        hands[seat] = hand
    trump_card = deck[at]
    talon: list[Card] = []
    if at >= 0:  # the trump card under the talon, the deck's next card on top
        talon.append(trump_card)
        talon += deck[:at:-1]
    state.clear_hand()
    state.active = order
    state.hands = hands
    state.trump = SUIT_OF[trump_card]
    state.trump_card = trump_card
    state.talon = talon
    state.leader = order[0]
    state.public = 1 << trump_card
    state.status = PLAYING
    state.acks = 0
    state.hand_no += 1
    dealt = HandDealt()
    dealt.args = (state.hand_no, state.dealer, order, trump_card, len(talon), tuple(deck))
    events: list[Event] = [dealt]
    for seat in order:
        cards = CardsDealt()
        cards.args = (seat, hands[seat])
        cards.owner = seat
        events.append(cards)
    return events


def next_deck(state: GameState, rng: random.Random | None) -> list[Card]:
    """The preset deck for the next hand if one is left, else a fresh shuffle."""
    if state.preset_decks:
        return state.preset_decks.pop(0)
    return shuffled_deck(state.rules.variant, rng)


def new_game(
    rules: Rules | None = None,
    settings: Settings | None = None,
    *,
    first_dealer: object = None,
    decks: Sequence[Sequence[str]] | None = None,
    rng: random.Random | None = None,
) -> tuple[GameState, list[Event]]:
    """A new game with its first hand dealt.

    ``decks`` are explicit deal orders for the first hands (then shuffles follow);
    ``first_dealer`` (a seat; anything else raises :class:`InvalidOption`) skips the cut for
    the deal; ``rng`` replaces the secure shuffle.
    """
    rules = rules or Rules()
    state = GameState(rules, settings or Settings())
    variant = rules.variant
    state.preset_decks = [parse_deck(variant, d) for d in (decks or ())]
    events: list[Event] = []
    if first_dealer is None:
        dealer, rounds = cut_for_dealer(variant, rng)
        events.append(Event("dealer_chosen", {
            "dealer": dealer, "draws": [[card_code(c) for c in r] for r in rounds]}))
    else:
        if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not (
            0 <= first_dealer < variant.players
        ):
            raise InvalidOption(
                "first_dealer", f"first_dealer must be a seat 0..{variant.players - 1}",
                list(range(variant.players)),
            )
        dealer = first_dealer
    state.dealer = dealer
    events += deal(state, next_deck(state, rng))
    return state, events
