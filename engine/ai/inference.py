"""Inference from the opponent's play: how likely his observed phase-1 plays were in a deal.

Plain determinized search samples the unseen cards uniformly among the deals consistent with
the rules (:mod:`engine.ai.sampling`). But a player's choices tell more than the rules do: he
would not have thrown his trump Ace on a trick he let go while holding a low side card, nor
led without melding a marriage he held. :func:`likelihood` scores a sampled deal by the
probability of the opponent's last ``depth`` phase-1 decisions (talon open, so no duty to
follow) under a soft model of sensible play, and :func:`draw` picks one of a few uniform
deals in proportion to it (sampling-importance-resampling: the more candidates, the closer
to the posterior). Two-hand only; other deals keep the uniform sampling.

**Model** (each factor at most 1; ``beta`` sets how sure it is):

* a card led, or thrown on a trick he did not win, costs ``exp(-beta)`` for every other card
  of his hand that was cheaper to give away (side cards before trumps, cards outside a
  marriage before marriage cards, fewer points first: the order of the rollout policy);
  a trump that took a side card, ``exp(-beta)`` for every trump of fewer points he held;
* letting our Ten go while holding the Ace of its suit: ``MISSED_FACTOR``;
* leading without melding a marriage, or without exchanging, when the rules allowed it:
  ``MISSED_FACTOR`` each.

**Hands.** His hand at the current trick (he led, we follow) is exact: his hand in the deal
plus the card he led. At an earlier phase-1 trick it is taken as his hand now plus the cards
he played since, a superset (he drew cards in between, which we cannot place); so melds and
exchanges are judged only at the current trick, and ``depth`` is kept small.
"""

from __future__ import annotations

import math
import random
from typing import Final

from engine.actions import EXCHANGE, MELD
from engine.ai.knowledge import Knowledge
from engine.ai.sampling import Deal, Sampler, to_state
from engine.cards import (
    ACE,
    BEATERS,
    CARDS,
    KING,
    MARRIAGES,
    POINTS,
    QUEEN,
    RANK_OF,
    SUIT_OF,
    Card,
    Mask,
    card,
)
from engine.play import legal_actions

#: Probability factor of a clear chance missed (a marriage not melded, our Ten let go...).
MISSED_FACTOR: Final = 0.25


def _cheaper(c: Card, hand: Mask, trump: int) -> int:
    """Cards of ``hand`` other than ``c`` that are cheaper to give away than ``c``."""

    def key(x: Card) -> tuple[bool, bool, int]:
        pair = MARRIAGES[SUIT_OF[x]]
        return (SUIT_OF[x] == trump, hand & pair == pair and RANK_OF[x] in (KING, QUEEN), POINTS[x])

    mine = key(c)
    return sum(1 for x in range(CARDS) if hand >> x & 1 and x != c and key(x) < mine)


def _play_factor(before: tuple[Card, ...], c: Card, hand: Mask, trump: int,
                 beta: float) -> float:
    """Probability factor of playing ``c`` from ``hand`` on the cards ``before`` (phase 1)."""
    if before and BEATERS[trump][before[0]] >> c & 1:
        if SUIT_OF[c] != trump or SUIT_OF[before[0]] == trump:
            return 1.0  # won in suit: no inference
        lower = sum(1 for x in range(CARDS) if hand >> x & 1 and SUIT_OF[x] == trump
                    and POINTS[x] < POINTS[c])
        return math.exp(-beta * lower)  # trumped: with the cheapest trump
    factor = math.exp(-beta * _cheaper(c, hand, trump))
    if before:
        led = before[0]
        ace = card(ACE, SUIT_OF[led])
        if POINTS[led] == 10 and hand >> ace & 1:
            factor *= MISSED_FACTOR
    return factor


def _lead_options_factor(k: Knowledge, deal: Deal, opp: int, led: Card) -> float:
    """Factor for melds and exchanges he could have made before leading ``led`` now."""
    state = to_state(k, deal)
    state.trick = []
    state.hands[opp] |= 1 << led
    state.leader = opp
    state.melded_suit = None
    factor = 1.0
    for a in legal_actions(state, opp):
        if a.kind == EXCHANGE or (a.kind == MELD and a.suit is not None
                                  and not MARRIAGES[a.suit] >> led & 1):
            factor *= MISSED_FACTOR
    return factor


def likelihood(k: Knowledge, deal: Deal, depth: int, beta: float) -> float:
    """Probability, up to a constant, of the opponent's last ``depth`` phase-1 plays in
    ``deal`` under the model of the module doc (1.0 if there is nothing to judge)."""
    if depth <= 0 or len(k.active) != 2:
        return 1.0
    opp = k.others[0]
    hand = deal.hands[opp]
    factor = 1.0
    if k.trick and k.leader == opp and k.talon_open:
        led = k.trick[0]
        hand |= 1 << led
        melded = any(s == opp and MARRIAGES[suit] >> led & 1 for s, suit, _ in k.melds)
        if not melded:
            factor *= _play_factor((), led, hand, k.trump, beta)
            factor *= _lead_options_factor(k, deal, opp, led)
        depth -= 1
    phase1 = min(len(k.tricks), k.strict_from)
    for leader, cards, _ in reversed(k.tricks[:phase1]):
        if depth <= 0:
            break
        i = 0 if leader == opp else 1
        c = cards[i]
        hand |= 1 << c
        forced = i == 0 and any(s == opp and MARRIAGES[suit] >> c & 1 for s, suit, _ in k.melds)
        if not forced:
            factor *= _play_factor(cards[:i], c, hand, k.trump, beta)
        depth -= 1
    return factor


def draw(sampler: Sampler, rng: random.Random, depth: int, beta: float,
         candidates: int) -> Deal:
    """A deal of the unseen cards: one of ``candidates`` uniform deals picked with probability
    proportional to its :func:`likelihood` (a uniform deal when ``depth`` is 0)."""
    k = sampler.knowledge
    if depth <= 0 or candidates <= 1 or len(k.active) != 2:
        return sampler.sample(rng)
    deals = [sampler.sample(rng) for _ in range(candidates)]
    weights = [likelihood(k, d, depth, beta) for d in deals]
    return rng.choices(deals, weights)[0]
