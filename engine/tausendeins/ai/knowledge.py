"""What one seat knows of a Tausendeins deal, read from its view alone, and deals of the
unseen cards consistent with it (determinizations).

The unseen cards are the 24 less the seat's hand, the cards played (taken tricks and the
table), the other seat's shown cards (a meld's partner card, a shown musik) and the seat's own
discards. They lie in the other hand, the stock, the untaken musik and (for the non-declarer)
the discards. A shown musik card the declarer has not played is in his hand or among his face
down discards: the defender does not know which. Strict play (phase 2: no stock left, ``deal``
all or the musik deal from trick 1) reveals what the other seat cannot hold: not following the
suit led shows a void in it, and, with a trump set at that trick, not trumping shows a void in
trumps; under ``phase2_head`` following with a lower card shows no higher card of the suit.
Phase-1 plays reveal nothing lasting (a card drawn later may fill the void). Each sample gives
the other hand a uniform draw of the unseen (and shown musik) cards he may hold, the rest
shuffled to the other places, a draw kept in proportion to the ways of placing the rest:
uniform over the deals consistent with these facts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb
from typing import Any

from engine.cards import (
    HIGHER_IN_SUIT,
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    Mask,
    cards_of,
    mask_of,
    parse_card,
    parse_suit,
)
from engine.errors import EngineError
from engine.tausendeins.options import T1001Rules
from engine.tausendeins.state import Call, Marriage, T1001State

FULL: Mask = (1 << 24) - 1


class InvalidView(EngineError):
    """A view that no deal fits (not a Tausendeins seat view, or inconsistent)."""


def _cards(codes: list[str]) -> list[int]:
    return [parse_card(c) for c in codes]


@dataclass(slots=True)
class Knowledge:
    """The seat's view as a state skeleton (hidden places empty) and what is unseen."""

    seat: int
    base: T1001State
    #: Cards the seat has not seen and that are in play somewhere hidden.
    unseen: Mask
    #: Cards the other seat cannot hold (strict-play inferences).
    excluded: Mask
    #: How many unseen cards the other hand, the stock, the untaken musik and the hidden
    #: discards hold.
    other_unknown: int
    stock_size: int
    musik_unknown: int
    discards_unknown: int
    #: Shown musik cards the declarer kept or discarded (seen, so not in ``unseen``).
    either: Mask = 0

    @property
    def determined(self) -> bool:
        """Whether exactly one deal fits: every unseen card is in the other hand."""
        return (self.unseen | self.either).bit_count() == self.other_unknown

    def sample(self, rng: random.Random) -> T1001State:
        """A full state consistent with the view, drawn uniformly (see the module text)."""
        state = clone(self.base)
        other = 1 - self.seat
        allowed = cards_of((self.unseen | self.either) & ~self.excluded)
        if len(allowed) < self.other_unknown:
            raise InvalidView("no deal fits this view: the other hand cannot be filled")
        theirs = self._draw(allowed, rng)
        state.hands[other] |= theirs
        laid_away = self.either & ~theirs
        state.discards |= laid_away
        rest = cards_of(self.unseen & ~theirs)
        rng.shuffle(rest)
        state.stock = rest[:self.stock_size]
        rest = rest[self.stock_size:]
        if self.musik_unknown:
            untaken = rest[:2]
            rest = rest[2:]
            taken = state.musik_taken
            if taken is None:
                state.musiks = [untaken, rest[:2]]
                rest = rest[2:]
            else:
                known = state.musiks[taken - 1] if state.musiks else []
                state.musiks = [known, untaken] if taken == 1 else [untaken, known]
        if self.discards_unknown:
            state.discards |= mask_of(rest[:self.discards_unknown - laid_away.bit_count()])
        if state.musiks and state.musik_taken is not None and not state.musiks[
                state.musik_taken - 1]:
            # The taken musik unshown: its cards only matter as "not leftover".
            state.musiks[state.musik_taken - 1] = cards_of(state.discards)[:2]
        return state

    def _draw(self, allowed: list[int], rng: random.Random) -> Mask:
        """The other hand's unknown cards: a uniform draw of ``allowed``, kept with the
        probability that the ways of placing the rest bear to the most ways (each shown musik
        card not drawn fills a discard, leaving fewer ways for the unseen cards)."""
        free = self.stock_size + self.musik_unknown
        most = comb(free + self.discards_unknown, self.discards_unknown)
        while True:
            theirs = mask_of(rng.sample(allowed, self.other_unknown))
            slots = self.discards_unknown - (self.either & ~theirs).bit_count()
            if not self.either or rng.random() * most < comb(free + slots, slots):
                return theirs


def clone(state: T1001State) -> T1001State:
    """A deep copy of ``state``, fast (its lists and marriages copied)."""
    s = T1001State(state.rules)
    s.dealer, s.hand_no, s.totals = state.dealer, state.hand_no, list(state.totals)
    s.status, s.winner, s.ended, s.moved, s.acks = (state.status, state.winner, state.ended,
                                                     state.moved, state.acks)
    s.preset_decks = []
    s.stage, s.hands, s.stock = state.stage, list(state.hands), list(state.stock)
    s.musiks = [list(m) for m in state.musiks]
    s.musik_taken, s.discards = state.musik_taken, state.discards
    s.calls = list(state.calls)
    s.contract, s.declarer, s.raised = state.contract, state.declarer, state.raised
    s.trump = state.trump
    s.marriages = [Marriage(m.seat, m.suit, m.value, m.trick_no, m.state, m.credited_at)
                   for m in state.marriages]
    s.melded_suit, s.shown, s.leader = state.melded_suit, state.shown, state.leader
    s.trick, s.tricks, s.taken = list(state.trick), list(state.tricks), list(state.taken)
    s.settlement = state.settlement
    return s


def strict_exclusions(rules: T1001Rules, seat: int, tricks: list[dict[str, Any]],
                      melds: list[dict[str, Any]]) -> Mask:
    """The cards the seat other than ``seat`` cannot hold, from his phase-2 follows."""
    first_strict = 1 if rules.stock_size == 0 else rules.stock_size // 2 + 1
    excluded = 0
    for t in tricks:
        if t["leader"] != seat or t["trick_no"] < first_strict:
            continue
        lead, follow = _cards(t["cards"])
        trump = None
        for m in melds:
            if m["trick_no"] <= t["trick_no"]:
                trump = parse_suit(m["suit"])
        suit = SUIT_OF[lead]
        if SUIT_OF[follow] == suit:
            if rules.phase2_head and RANK_OF[follow] > RANK_OF[lead]:
                excluded |= HIGHER_IN_SUIT[lead]
            continue
        excluded |= SUIT_MASKS[suit]
        if trump is not None and SUIT_OF[follow] != trump:
            excluded |= SUIT_MASKS[trump]
    return excluded & FULL


def knowledge(view: dict[str, Any]) -> Knowledge:
    """The knowledge of the view's seat; raises :class:`InvalidView`."""
    try:
        return _knowledge(view)
    except InvalidView:
        raise
    except (KeyError, TypeError, ValueError, IndexError, EngineError) as exc:
        raise InvalidView(f"not a Tausendeins seat view: {exc!r}") from exc


def _knowledge(view: dict[str, Any]) -> Knowledge:
    seat = view["seat"]
    if seat not in (0, 1):
        raise InvalidView("a computer decides for a seat, not a spectator")
    other = 1 - seat
    rules = T1001Rules.from_dict(view["rules"])
    s = T1001State(rules)
    s.dealer, s.hand_no, s.totals = view["dealer"], view["hand_no"], list(view["totals"])
    s.status, s.stage = view["status"], view["stage"]
    hand = mask_of(_cards(view["hand"]))
    known = mask_of(_cards(view["known_cards"].get(str(other), [])))
    s.hands = [0, 0]
    s.hands[seat] = hand
    s.shown = known
    s.trump = parse_suit(view["trump_suit"]) if view["trump_suit"] else None
    s.melded_suit = parse_suit(view["melded_suit"]) if view["melded_suit"] else None
    s.leader = view["leader"]
    s.trick = [parse_card(t["card"]) for t in view["trick"]]
    played = mask_of(s.trick)
    s.taken = [0, 0]
    for t in view["tricks"]:
        a, b = _cards(t["cards"])
        s.tricks.append((t["leader"], (a, b), t["winner"]))
        s.taken[t["winner"]] |= (1 << a) | (1 << b)
        played |= (1 << a) | (1 << b)
    s.marriages = [Marriage(m["seat"], parse_suit(m["suit"]), m["value"], m["trick_no"],
                            m["state"], m["credited_at"]) for m in view["melds"]]
    auction = view["auction"]
    if auction is not None:
        s.calls = [Call(c["seat"], c["bid"]) for c in auction["calls"]]
        s.contract, s.declarer, s.raised = (auction["contract"], auction["declarer"],
                                            auction["raised"])
    seen = hand | known | played
    musik_unknown = discards_unknown = either = 0
    musik = view["musik"]
    if musik is not None:
        s.musik_taken = musik["taken"]
        shown = _cards(musik["cards"]) if musik["cards"] else []
        if s.musik_taken is not None:
            s.musiks = [[], []]
            s.musiks[s.musik_taken - 1] = shown
        musik_unknown = 2 if s.musik_taken is not None else 4
        if musik["own_discards"]:
            s.discards = mask_of(_cards(musik["own_discards"]))
            seen |= s.discards
        elif musik["discarded"]:
            discards_unknown = 2
        if seat != s.declarer and musik["discarded"]:
            # A shown card still known is kept or discarded; one neither known nor played was
            # discarded (a view of an earlier version, which dropped it from known_cards).
            either = mask_of(shown) & known
            forced = mask_of(shown) & ~known & ~played
            s.discards = forced
            seen |= forced
            discards_unknown = 2 - forced.bit_count()
    s.hands[other] = known & ~either
    other_unknown = view["hand_sizes"][other] - s.hands[other].bit_count()
    stock_size = view["stock_size"]
    unseen = FULL & ~seen
    need = other_unknown + stock_size + musik_unknown + discards_unknown
    if (unseen | either).bit_count() != need:
        raise InvalidView(f"the view leaves {(unseen | either).bit_count()} cards unplaced "
                          f"for {need} hidden places")
    excluded = strict_exclusions(rules, seat, view["tricks"], view["melds"])
    return Knowledge(seat, s, unseen, excluded, other_unknown, stock_size, musik_unknown,
                     discards_unknown, either)
