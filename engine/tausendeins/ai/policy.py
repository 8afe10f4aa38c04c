"""The rule-of-thumb player (level ``easy``, and the playout policy of the searching levels).

It reads only what the seat to move may know: its own hand, the table, the trump and the
auction (never the other hand or the stock), so it can act on a sampled state as well as on
the real one. The rules, in order:

* auction: bid the next amount only with a marriage in hand and an estimate
  (:func:`hand_estimate`) at least that amount; else pass (forehand's opening is automatic);
* musik: take musik 1; discard the two cheapest cards outside a held marriage;
* on lead: meld the dearest marriage allowed (then lead its Queen); else, with a trump set,
  lead an Ace or Ten of a plain suit; otherwise the cheapest card outside a marriage;
* following: win with the cheapest winning card when the trick holds 10 points or more, or
  when the winner costs no more than the card led; else throw the cheapest card.

Never raises a musik contract.
"""

from __future__ import annotations

from itertools import combinations

from engine.cards import (
    KING,
    MARRIAGES,
    POINTS,
    QUEEN,
    RANK_OF,
    SUIT_OF,
    Card,
    Mask,
    cards_of,
    points_of,
)
from engine.tausendeins.actions import BID, DISCARD, MELD, PASS, PLAY, TAKE_MUSIK, T1001Action
from engine.tausendeins.game import legal_actions
from engine.tausendeins.options import CARD_POINTS
from engine.tausendeins.play import follower_wins, held_marriages
from engine.tausendeins.state import T1001State


def hand_estimate(state: T1001State, seat: int) -> int:
    """A rough deal score for ``seat`` as declarer: the card points in hand scaled to the
    share of the deck it holds, plus the marriages held."""
    hand = state.hands[seat]
    share = hand.bit_count() / 24
    rules = state.rules
    held = held_marriages(hand)
    return int(points_of(hand) + share * (CARD_POINTS - points_of(hand)) * 0.5) \
        + rules.held_marriages_value(held)


def _marriage_cards(hand: Mask) -> Mask:
    return sum(MARRIAGES[s] for s in held_marriages(hand))


def _cost(c: Card, hand: Mask) -> tuple[int, int, int]:
    """Lower is cheaper to give away: outside a marriage first, then by points and rank."""
    return (1 if (1 << c) & _marriage_cards(hand) else 0, POINTS[c], -RANK_OF[c])


def discard_order(hand: Mask) -> list[T1001Action]:
    """Every discard of two cards of ``hand``, the cheapest pair (by :func:`_cost`) first."""
    pairs = combinations(sorted(cards_of(hand), key=lambda c: _cost(c, hand)), 2)
    return [T1001Action.discard(a, b) for a, b in pairs]


def policy_action(state: T1001State, seat: int) -> T1001Action:
    """The rule-of-thumb action of ``seat`` (see the module text); it must be his turn."""
    legal = legal_actions(state, seat)
    kinds = {a.kind for a in legal}
    if len(legal) == 1:
        return legal[0]
    if BID in kinds or PASS in kinds:
        bids = sorted(a.number for a in legal if a.kind == BID and a.number is not None)
        if bids and held_marriages(state.hands[seat]) and hand_estimate(state, seat) >= bids[0]:
            return T1001Action.bid(bids[0])
        return T1001Action.simple(PASS)
    if TAKE_MUSIK in kinds:
        return T1001Action.take_musik(1)
    hand = state.hands[seat]
    if DISCARD in kinds:
        return discard_order(hand)[0]
    melds = [a for a in legal if a.kind == MELD and a.suit is not None]
    if melds:
        rules = state.rules
        return max(melds, key=lambda a: rules.marriage_value(a.suit or 0, len(state.marriages)))
    cards = [a.card for a in legal if a.kind == PLAY and a.card is not None]
    if state.melded_suit is not None:
        queen = [c for c in cards if RANK_OF[c] == QUEEN]
        return T1001Action.play(queen[0] if queen else cards[0])
    if not state.trick:
        return T1001Action.play(_lead(state, cards, hand))
    lead = state.trick[0]
    winners = [c for c in cards if follower_wins(state.trump, lead, c)]
    if winners:
        best = min(winners, key=lambda c: _cost(c, hand))
        if POINTS[lead] >= 10 or POINTS[best] <= POINTS[lead]:
            return T1001Action.play(best)
    return T1001Action.play(min(cards, key=lambda c: _cost(c, hand)))


def _lead(state: T1001State, cards: list[Card], hand: Mask) -> Card:
    trump = state.trump
    if trump is not None:
        high = [c for c in cards if RANK_OF[c] < KING and SUIT_OF[c] != trump]
        if high:
            return min(high, key=lambda c: RANK_OF[c])
    return min(cards, key=lambda c: _cost(c, hand))
