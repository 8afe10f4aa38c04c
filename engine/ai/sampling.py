"""Uniform sampling of the unseen cards consistent with a :class:`Knowledge` (docs/rules.md §8).

The unseen cards go to *places*: the unknown part of each other hand and of the talon. A card
may go to a hand only if that seat has not shown it cannot hold it (``Knowledge.excluded``).
:class:`Sampler` counts, by dynamic programming over the cards, the assignments of cards to
places that respect the sizes and exclusions, and draws one card at a time with probability
proportional to the number of completions: every consistent assignment is equally likely.
The talon order is then a uniform shuffle, so every consistent deal (hands and talon order) is
equally likely. :func:`to_state` turns a deal into a full :class:`engine.GameState`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from engine.ai.knowledge import InvalidView, Knowledge
from engine.cards import KING, QUEEN, Card, Mask, card, cards_of
from engine.rules import Settings
from engine.state import PLAYING, GameState


@dataclass(frozen=True, slots=True)
class Deal:
    """One completion of the unseen cards: full hands of the other seats, talon bottom first."""

    hands: dict[int, Mask]
    talon: list[Card]


class Sampler:
    """Draws deals uniformly among those consistent with ``knowledge``."""

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        self.cards = cards_of(knowledge.unseen)
        self.seats = knowledge.others
        # Places: one per other seat, then the talon (which accepts every card).
        unseen = knowledge.unseen
        self.allowed = (*(unseen & ~knowledge.excluded[s] for s in self.seats), unseen)
        self.capacity = (*(knowledge.hidden_slots(s) for s in self.seats),
                         knowledge.talon_hidden)
        self._count = lru_cache(maxsize=None)(self._completions)
        if self.count() == 0:
            raise InvalidView("no deal of the unseen cards is consistent with the view")

    def _completions(self, i: int, caps: tuple[int, ...]) -> int:
        """Assignments of ``cards[i:]`` to the places with free room ``caps``."""
        if i == len(self.cards):
            return 1
        bit = 1 << self.cards[i]
        total = 0
        for p, room in enumerate(caps):
            if room and self.allowed[p] & bit:
                total += self._count(i + 1, (*caps[:p], room - 1, *caps[p + 1:]))
        return total

    def count(self) -> int:
        """Number of consistent assignments of the unseen cards to places (talon unordered)."""
        return int(self._count(0, self.capacity))

    def sample(self, rng: random.Random) -> Deal:
        caps = self.capacity
        hands = dict(self.knowledge.known)
        talon: list[Card] = []
        for i, c in enumerate(self.cards):
            bit = 1 << c
            weights = []
            for p, room in enumerate(caps):
                ok = room and self.allowed[p] & bit
                weights.append(self._count(i + 1, (*caps[:p], room - 1, *caps[p + 1:]))
                               if ok else 0)
            pick = rng.randrange(sum(weights))
            p = 0
            while pick >= weights[p]:
                pick -= weights[p]
                p += 1
            caps = (*caps[:p], caps[p] - 1, *caps[p + 1:])
            if p < len(self.seats):
                hands[self.seats[p]] |= bit
            else:
                talon.append(c)
        rng.shuffle(talon)
        bottom = self.knowledge.talon_bottom
        return Deal(hands, ([bottom] if bottom is not None else []) + talon)


def to_state(k: Knowledge, deal: Deal) -> GameState:
    """A full :class:`GameState` of the hand in play with ``deal`` filling the unseen cards.

    Match scores are zero: the state is for simulating the current hand only.
    """
    rules = k.rules
    state = GameState(rules, Settings())
    state.dealer = k.dealer
    state.active = k.active
    hands = [0] * rules.variant.players
    hands[k.seat] = k.hand
    for s, m in deal.hands.items():
        hands[s] = m
    state.hands = hands
    state.trump = k.trump
    state.trump_card = k.turned_card
    state.talon = list(deal.talon)
    state.closed_by = k.closed_by
    state.closed_at = k.closed_at
    state.closed_snapshot = k.closed_snapshot
    state.leader = k.leader
    state.trick = list(k.trick)
    state.tricks = list(k.tricks)
    points, count, taken = k.won()
    for side in range(rules.variant.sides):
        state.won_points[side] = points.get(side, 0)
        state.won_tricks[side] = count.get(side, 0)
        state.taken[side] = taken.get(side, 0)
    state.melds = list(k.melds)
    state.melded_suit = k.melded_suit
    public = 1 << k.turned_card
    for _, suit, _ in k.melds:
        public |= (1 << card(KING, suit)) | (1 << card(QUEEN, suit))
    for m in k.known.values():
        public |= m
    state.public = public
    state.status = PLAYING
    return state
