"""A quick rule-of-thumb player ("by feel"): the rollout policy and the easy level's instinct.

It looks only at the seat's own hand and the public facts of the state (trick, trump, talon,
points of its own side), so it is fair to use on a sampled deal and on the real position.
Rules of thumb: declare at 66; exchange; meld (trumps first) and lead the Queen; in phase 1
lead a low side card and keep trumps and marriage cards; in phase 2 lead Aces and Tens; win a
trick cheaply in suit, trump only for an Ace or Ten, else throw the cheapest card; in
four-hand give points to a partner who is winning.
"""

from __future__ import annotations

import random

from engine.actions import DECLARE, DECLARE_ACTION, EXCHANGE, EXCHANGE_ACTION, MELD, PLAY, Action
from engine.cards import BEATERS, KING, MARRIAGES, POINTS, QUEEN, RANK_OF, SUIT_OF, Card
from engine.play import legal_actions
from engine.scoring import DECLARE_TARGET
from engine.state import GameState


def _keep_score(c: Card, hand: int, trump: int) -> tuple[int, int, int]:
    """Sort key: cheapest to give away first (side cards, not marriage cards, low points);
    ``hand``: the cards whose marriages count (0 where there are none to meld)."""
    pair = MARRIAGES[SUIT_OF[c]]
    in_marriage = hand & pair == pair and RANK_OF[c] in (KING, QUEEN)
    return (SUIT_OF[c] == trump, in_marriage, POINTS[c])


def heuristic_action(state: GameState, seat: int, rng: random.Random | None = None) -> Action:
    """The rule-of-thumb action of ``seat``; ``rng`` breaks ties among equal cards."""
    acts = legal_actions(state, seat)
    if len(acts) == 1:
        return acts[0]
    kinds = {a.kind: a for a in acts}
    if DECLARE in kinds and state.credited_points(state.side_of(seat)) >= DECLARE_TARGET:
        return DECLARE_ACTION
    # under four_hand_scoring hoyle no marriage is worth keeping: none may be melded
    hand = state.hands[seat] if state.rules.plan.melds else 0
    trump = state.trump
    cards = [a.card for a in acts if a.kind == PLAY and a.card is not None]
    if rng is not None:
        rng.shuffle(cards)
    if not state.trick:
        if EXCHANGE in kinds:
            return EXCHANGE_ACTION
        melds = [a for a in acts if a.kind == MELD and a.suit is not None]
        if melds:
            return max(melds, key=lambda a: a.suit == trump)
        if state.melded_suit is not None:
            return Action.play(min(cards, key=lambda c: RANK_OF[c] != QUEEN))
        if state.talon_open:
            return Action.play(min(cards, key=lambda c: _keep_score(c, hand, trump)))
        return Action.play(max(cards, key=lambda c: (POINTS[c] >= 10, SUIT_OF[c] != trump,
                                                     -_keep_score(c, hand, trump)[2])))
    trick = state.trick
    best_i = state.trick_winner_index()
    best = trick[best_i]
    beaters = BEATERS[trump][best]
    n = len(state.active)
    lead_i = state.active.index(state.leader)
    best_seat = state.active[(lead_i + best_i) % n]
    if n == 4 and state.side_of(best_seat) == state.side_of(seat):
        losers = [c for c in cards if not beaters >> c & 1]
        pool = losers or cards
        return Action.play(max(pool, key=lambda c: (SUIT_OF[c] != trump, POINTS[c])))
    at_stake = sum(POINTS[c] for c in trick)
    winners = [c for c in cards if beaters >> c & 1]
    in_suit = [c for c in winners if SUIT_OF[c] == SUIT_OF[best]]
    if in_suit:
        return Action.play(max(in_suit, key=lambda c: (POINTS[c], -(RANK_OF[c]))))
    if winners and (at_stake >= 10 or not state.talon_open):
        return Action.play(min(winners, key=lambda c: (POINTS[c], -(RANK_OF[c]))))
    pool = [c for c in cards if not beaters >> c & 1] or cards
    return Action.play(min(pool, key=lambda c: _keep_score(c, hand, trump)))

