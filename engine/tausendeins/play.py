"""Trick play in Tausendeins (RULES-1001 §3, §4): who wins a trick, what the follower may
play, and which marriages the leader may meld.

A trick holding a card of the current trump suit goes to the higher trump; else to the higher
card of the suit led (a card of another suit never wins). Without a trump suit (no marriage
melded yet) only the suit led counts.

While the stock holds cards (phase 1) the follower plays any card (``phase1_follow`` free) or
must follow suit (follow). Once it is empty, and from trick 1 without a stock (phase 2), he
must follow suit and win if he can (``phase2_head`` true; false: any card of the suit led),
else follow suit, else play a trump if a trump suit is set and he holds one, else any card.
"""

from __future__ import annotations

from engine.cards import HIGHER_IN_SUIT, MARRIAGES, RANK_OF, SUIT_MASKS, SUIT_OF, Card, Mask, Suit
from engine.tausendeins.state import T1001State


def follower_wins(trump: Suit | None, lead: Card, follow: Card) -> bool:
    """Whether the follower's card wins the two-card trick."""
    if SUIT_OF[follow] == SUIT_OF[lead]:
        return RANK_OF[follow] < RANK_OF[lead]
    return trump is not None and SUIT_OF[follow] == trump


def win_reason(trump: Suit | None, lead: Card, follow: Card) -> str:
    """``higher_card``, ``trump`` or ``off_suit`` (the winning card's claim)."""
    if SUIT_OF[follow] == SUIT_OF[lead]:
        return "higher_card"
    if trump is not None and trump in (SUIT_OF[follow], SUIT_OF[lead]):
        return "trump"
    return "off_suit"


def playable(state: T1001State, seat: int) -> Mask:
    """The cards ``seat`` may play now, when it is his turn in play (leader or follower)."""
    hand = state.hands[seat]
    if not state.trick:
        suit = state.melded_suit
        return hand if suit is None else hand & MARRIAGES[suit]
    lead = state.trick[0]
    rules = state.rules
    same = hand & SUIT_MASKS[SUIT_OF[lead]]
    if state.stock:
        return same or hand if rules.phase1_follow == "follow" else hand
    if same:
        return (same & HIGHER_IN_SUIT[lead]) or same if rules.phase2_head else same
    trump = state.trump
    if trump is not None and hand & SUIT_MASKS[trump]:
        return hand & SUIT_MASKS[trump]
    return hand


def held_marriages(hand: Mask) -> list[Suit]:
    """The suits whose King and Queen are both in ``hand``."""
    return [s for s in range(4) if hand & MARRIAGES[s] == MARRIAGES[s]]


def meld_refusal(state: T1001State, seat: int, suit: Suit) -> str | None:
    """Why the leader ``seat`` may not meld ``suit`` now (``None``: he may)."""
    rules = state.rules
    if state.melded_suit is not None:
        return "you have already melded on this lead: lead its King or Queen"
    if state.hands[seat] & MARRIAGES[suit] != MARRIAGES[suit]:
        return "you must hold both the King and the Queen of a suit to meld it"
    if not state.tricks and rules.meld_first_lead == "forbidden":
        return "these rules allow no meld on the first lead of a deal"
    trump = state.trump
    if rules.marriage_order == "ascending" and trump is not None \
            and rules.suit_rank(suit) <= rules.suit_rank(trump):
        return "marriages must be melded in ascending order: this suit is worth no more " \
            "than the current trump suit"
    return None
