"""Dealing a Tausendeins deal (docs/rules.md, "Tausendeins"; RULES-1001 §2, §7.4).

Deck positions from the top (0-based here, 1-based in the rule text):

* ``stock`` (default): forehand 0-2, dealer 3-5, forehand 6-7, dealer 8-9, forehand 10-12,
  dealer 13-15; the stock is 16-23 with 16 on top.
* ``all``: packets of 3 alternately, forehand first: 12 cards each, no stock.
* ``musik`` (``contract_deal`` musik): packets of 5 alternately, forehand first (10 each), then
  musik 1 (20-21) and musik 2 (22-23) (project choice: no source fixes the order).

The first dealer is drawn by the secure shuffle unless given; the dealer alternates every deal.
Under a contract the auction opens with forehand's compulsory ``bid_min``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Final

from engine.cards import CARD_CODES, Card, codes
from engine.deal import parse_deck_of
from engine.errors import InvalidOption
from engine.events import Event
from engine.rules import SIXTY_SIX
from engine.tausendeins.options import NAME, T1001Rules
from engine.tausendeins.state import AUCTION, MUSIK, PLAY, PLAYING, Call, T1001State

_SECURE: Final = secrets.SystemRandom()
#: (seat: 0 forehand or 1 dealer, first position, count) packets of each deal.
_PACKETS: Final = {
    "stock": ((0, 0, 3), (1, 3, 3), (0, 6, 2), (1, 8, 2), (0, 10, 3), (1, 13, 3)),
    "all": tuple((k % 2, 3 * k, 3) for k in range(8)),
    "musik": tuple((k % 2, 5 * k, 5) for k in range(4)),
}


def deck_cards(deck: object) -> list[Card]:
    """An explicit deal order (24 card codes, each once); raises ``InvalidDeck``."""
    return parse_deck_of(SIXTY_SIX.deck, NAME, deck)


def _kind(rules: T1001Rules) -> str:
    return "musik" if rules.musik else rules.deal


def deal(state: T1001State, deck: Sequence[Card]) -> list[Event]:
    """Deal ``deck`` with ``state.dealer`` dealing: reset the deal and open it."""
    rules = state.rules
    seats = (state.forehand, state.dealer)
    hands = [0, 0]
    kind = _kind(rules)
    for who, start, count in _PACKETS[kind]:
        for c in deck[start:start + count]:
            hands[seats[who]] |= 1 << c
    state.hands = hands
    state.stock = list(reversed(deck[16:])) if kind == "stock" else []
    state.musiks = [list(deck[20:22]), list(deck[22:24])] if kind == "musik" else []
    state.musik_taken = None
    state.discards = 0
    state.calls = []
    state.contract = None
    state.declarer = None
    state.raised = False
    state.trump = None
    state.marriages = []
    state.melded_suit = None
    state.shown = 0
    state.leader = state.forehand
    state.trick = []
    state.tricks = []
    state.taken = [0, 0]
    state.settlement = None
    state.status = PLAYING
    state.acks = 0
    state.hand_no += 1
    state.stage = PLAY
    if rules.contract:
        state.stage = AUCTION
        state.calls = [Call(state.forehand, rules.bid_min)]
        state.contract = rules.bid_min
        state.declarer = state.forehand
    events = [Event("hand_dealt", {"hand_no": state.hand_no, "dealer": state.dealer,
                                   "forehand": state.forehand, "stock_size": len(state.stock),
                                   "musiks": len(state.musiks)},
                    None, {"deck": codes_in_order(deck)})]
    events += [Event("cards_dealt", {"seat": s, "count": hands[s].bit_count()}, s,
                     {"cards": codes(hands[s])}) for s in seats]
    if rules.contract:
        events.append(Event("bid", {"seat": state.forehand, "points": rules.bid_min,
                                    "compulsory": True}))
    return events


def after_auction(state: T1001State) -> None:
    """The auction is over: the musik stage, or play with the declarer on lead."""
    assert state.declarer is not None
    state.stage = MUSIK if state.rules.musik else PLAY
    state.leader = state.declarer


def codes_in_order(deck: Sequence[Card]) -> list[str]:
    return [CARD_CODES[c] for c in deck]


def next_deck(state: T1001State, rng: random.Random | None) -> list[Card]:
    """The next preset deck if one is left, else a fresh shuffle."""
    if state.preset_decks:
        return state.preset_decks.pop(0)
    deck = list(SIXTY_SIX.deck)
    (rng or _SECURE).shuffle(deck)
    return deck


def new_game(rules: T1001Rules | None = None, *, first_dealer: object = None,
             decks: Sequence[Sequence[str]] | None = None,
             rng: random.Random | None = None) -> tuple[T1001State, list[Event]]:
    """A new game with its first deal dealt. ``decks``: explicit deal orders for the first
    deals; ``first_dealer``: a seat (else drawn by lot); ``rng`` replaces the secure shuffle."""
    state = T1001State(rules or T1001Rules())
    state.preset_decks = [deck_cards(d) for d in (decks or ())]
    events: list[Event] = []
    if first_dealer is None:
        dealer = (rng or _SECURE).randrange(2)
        events.append(Event("dealer_chosen", {"dealer": dealer, "by": "lot"}))
    elif isinstance(first_dealer, int) and not isinstance(first_dealer, bool) \
            and first_dealer in (0, 1):
        dealer = first_dealer
    else:
        raise InvalidOption("first_dealer", "first_dealer must be a seat 0..1", [0, 1])
    state.dealer = dealer
    events += deal(state, next_deck(state, rng))
    return state, events
