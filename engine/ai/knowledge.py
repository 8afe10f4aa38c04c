"""What one seat knows, derived from its view only (docs/rules.md §8).

:func:`Knowledge.from_view` reads the dict of :func:`engine.views.view` (or a pasted one) and
remembers what an attentive player remembers: the cards played, the cards of the other hands
that were shown (melds, the trump card taken by an exchange or drawn as the last card of the
talon: ``known_cards``), the card lying under a closed talon, and the cards a player has shown
not to hold by strict play (phase 2 in two-hand, every trick in four-hand). The rest is
``unseen``: the unknown part of the other hands and of the talon.

A computer seat therefore never sees hidden cards: everything downstream starts from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.actions import Action
from engine.cards import (
    BEATERS,
    HIGHER_IN_SUIT,
    KING,
    POINTS,
    QUEEN,
    SUIT_MASKS,
    SUIT_OF,
    Card,
    Mask,
    card,
    mask_of,
    meld_value,
    parse_card,
    parse_suit,
)
from engine.deal import deal_order
from engine.errors import EngineError
from engine.rules import Plan, Rules, find_variant

#: A completed trick as in :class:`engine.state.GameState`: (leader, cards, winner).
Trick = tuple[int, tuple[Card, ...], int]
#: A meld: (seat, suit, credited).
Meld = tuple[int, int, bool]


class InvalidView(EngineError, ValueError):
    """A view that is not a consistent position of a hand in play."""


def excluded_by_play(before: Sequence[Card], played: Card, trump: int,
                     plan: Plan | None = None) -> Mask:
    """Cards a player cannot hold after playing ``played`` under strict play (ranked by the
    trick tables of ``plan``, by default those of the Ten ranking high).

    ``before`` are the cards already in the trick (leader first). The duty of
    :func:`engine.play.playable`: follow suit and beat the best card if it is of the led suit,
    else follow suit; else trump, over-trumping a trump already in the trick; else any card.
    """
    led = SUIT_OF[before[0]]
    beaters, higher_of = (BEATERS, HIGHER_IN_SUIT) if plan is None else (plan.beaters,
                                                                         plan.higher)
    best = before[0]
    for c in before[1:]:
        if beaters[trump][best] >> c & 1:
            best = c
    higher = higher_of[best]
    if SUIT_OF[played] == led:
        if SUIT_OF[best] == led and not higher >> played & 1:
            return higher
        return 0
    out = SUIT_MASKS[led]
    if SUIT_OF[played] != trump:
        return out | SUIT_MASKS[trump]
    if SUIT_OF[best] == trump and not higher >> played & 1:
        out |= higher
    return out


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's knowledge of the hand in play; cards are ints, sets of cards bitmasks."""

    seat: int
    rules: Rules
    #: Seats playing this hand, forehand first.
    active: tuple[int, ...]
    dealer: int
    trump: int
    turned_card: Card
    hand: Mask
    #: Cards in completed tricks and on the table.
    played: Mask
    #: Per other active seat: cards known to be in its hand.
    known: Mapping[int, Mask]
    #: Per other active seat: cards it has shown not to hold (strict play).
    excluded: Mapping[int, Mask]
    hand_sizes: Mapping[int, int]
    talon_size: int
    #: The bottom card of the talon (face up, or remembered under a closed talon).
    talon_bottom: Card | None
    #: Cards whose place is unknown: the unknown part of other hands and of the talon.
    unseen: Mask
    closed_by: int | None
    closed_at: int | None
    #: The closer's opponent's (credited points, tricks) when the talon was closed.
    closed_snapshot: tuple[int, int] | None
    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    melds: tuple[Meld, ...]
    #: Suit just melded by the player on lead (he must lead its King or Queen).
    melded_suit: int | None
    to_act: int | None
    legal: tuple[Action, ...]

    # ------------------------------------------------------------------ derived

    def side_of(self, seat: int) -> int:
        return self.rules.variant.side_of(seat)

    @property
    def others(self) -> tuple[int, ...]:
        return tuple(s for s in self.active if s != self.seat)

    @property
    def talon_open(self) -> bool:
        return self.closed_by is None and self.talon_size > 0

    @property
    def strict_from(self) -> int:
        """Index of the first trick played under strict play (phase 2)."""
        variant = self.rules.variant
        if not variant.has_talon:
            return 0
        if self.closed_at is not None:
            return self.closed_at
        return (len(variant.deck) - 2 * variant.hand_size) // 2

    def voids(self, seat: int) -> int:
        """Suits (bit ``s``) that ``seat`` has shown to hold no card of."""
        ex = self.excluded.get(seat, 0)
        return sum(1 << s for s in range(4) if ex & SUIT_MASKS[s] == SUIT_MASKS[s])

    def hidden_slots(self, seat: int) -> int:
        """Cards of ``seat``'s hand that are not known."""
        return self.hand_sizes[seat] - self.known[seat].bit_count()

    @property
    def talon_hidden(self) -> int:
        return self.talon_size - 1 if self.talon_size else 0

    def won(self) -> tuple[dict[int, int], dict[int, int], dict[int, Mask]]:
        """Per side: trick points, tricks won, cards taken."""
        points: dict[int, int] = {}
        count: dict[int, int] = {}
        taken: dict[int, Mask] = {}
        for _, cards, winner in self.tricks:
            side = self.side_of(winner)
            points[side] = points.get(side, 0) + sum(POINTS[c] for c in cards)
            count[side] = count.get(side, 0) + 1
            taken[side] = taken.get(side, 0) | mask_of(cards)
        return points, count, taken

    # ------------------------------------------------------------------ parsing

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Knowledge:
        """Build from a seat's view; raises :class:`InvalidView` if it is inconsistent."""
        try:
            return cls._from_view(view)
        except InvalidView:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidView(f"not a seat's view of a hand in play: {exc!r}") from exc

    @classmethod
    def _from_view(cls, view: Mapping[str, Any]) -> Knowledge:
        seat = view["seat"]
        if not isinstance(seat, int):
            raise InvalidView("the view must be a seat's view (seat is null)")
        defaults = Rules(variant=find_variant(view["variant"])).options()
        options = {k: v for k, v in view["rules"].items() if k != "variant" and defaults[k] != v}
        rules = Rules.make(view["variant"], options)
        variant = rules.variant
        dealer = int(view["dealer"])
        active = deal_order(variant, dealer)
        if seat not in active:
            raise InvalidView(f"seat {seat} does not play this hand")
        trump = parse_suit(view["trump_suit"])
        turned = parse_card(view["turned_card"])
        hand = mask_of(parse_card(c) for c in view["hand"])
        tricks: list[Trick] = []
        for t in view["tricks"]:
            cards = tuple(parse_card(x["card"]) for x in t["cards"])
            tricks.append((int(t["leader"]), cards, int(t["winner"])))
        trick = tuple(parse_card(x["card"]) for x in view["trick"])
        played = mask_of(trick)
        for _, cards, _ in tricks:
            played |= mask_of(cards)
        others = [s for s in active if s != seat]
        known_view = view.get("known_cards") or {}
        known = {s: mask_of(parse_card(c) for c in known_view.get(str(s), ())) for s in others}
        sizes = {s: int(view["hand_sizes"][s]) for s in active}
        talon_size = int(view["talon_size"])
        closed_by = view["closed_by"]
        closed_at = view["closed_after_tricks"]
        seen = hand | played
        for m in known.values():
            seen |= m
        face = view.get("trump_card")
        bottom: Card | None
        if face is not None:
            bottom = parse_card(face)
        elif talon_size:
            # Closed: the card that lay face up is remembered. If the turned card is
            # seen elsewhere it was exchanged, and the exchange card lies there instead.
            rank = variant.exchange_rank
            bottom = card(rank, trump) if seen >> turned & 1 and rank is not None else turned
        else:
            bottom = None
        if bottom is not None:
            seen |= 1 << bottom
        unseen = variant.deck_mask & ~seen
        melds = tuple(
            (int(m["seat"]), parse_suit(m["suit"]), bool(m["credited"])) for m in view["melds"]
        )
        leader = int(view["leader"])
        melded_suit = None
        if not trick:
            for m_seat, suit, _ in melds:
                pair = (1 << card(KING, suit)) | (1 << card(QUEEN, suit))
                if m_seat == leader and not played & pair:
                    melded_suit = suit
        legal = tuple(Action.from_dict(a) for a in view["legal_actions"])
        k = cls(
            seat=seat, rules=rules, active=active, dealer=dealer, trump=trump, turned_card=turned,
            hand=hand, played=played, known=known, excluded={s: 0 for s in others},
            hand_sizes=sizes, talon_size=talon_size, talon_bottom=bottom, unseen=unseen,
            closed_by=closed_by, closed_at=closed_at, closed_snapshot=None, leader=leader,
            trick=trick, tricks=tuple(tricks), melds=melds, melded_suit=melded_suit,
            to_act=view["to_act"], legal=legal,
        )
        slots = sum(k.hidden_slots(s) for s in others) + k.talon_hidden
        if slots != unseen.bit_count() or any(known[s] & (hand | played) for s in others):
            raise InvalidView(
                f"{unseen.bit_count()} unseen cards for {slots} unknown places: the view is "
                "not consistent")
        return replace(k, excluded=k._exclusions(), closed_snapshot=k._snapshot())

    def _exclusions(self) -> dict[int, Mask]:
        out = {s: 0 for s in self.others}
        sequences = [(leader, cards) for leader, cards, _ in self.tricks[self.strict_from:]]
        if self.trick and not self.talon_open:
            sequences.append((self.leader, self.trick))
        n = len(self.active)
        for leader, cards in sequences:
            start = self.active.index(leader)
            for i in range(1, len(cards)):
                player = self.active[(start + i) % n]
                if player in out:
                    out[player] |= excluded_by_play(cards[:i], cards[i], self.trump,
                                                       self.rules.plan)
        return out

    def _meld_trick_index(self, seat: int, suit: int) -> int:
        """Index of the trick led right after this meld (``len(tricks)`` if not yet led)."""
        pair = (1 << card(KING, suit)) | (1 << card(QUEEN, suit))
        for i, (leader, cards, _) in enumerate(self.tricks):
            if leader == seat and mask_of(cards[:1]) & pair:
                return i
        return len(self.tricks)

    def _snapshot(self) -> tuple[int, int] | None:
        if self.closed_by is None or self.closed_at is None:
            return None
        side = next(self.side_of(s) for s in self.active
                    if self.side_of(s) != self.side_of(self.closed_by))
        before = self.tricks[: self.closed_at]
        tricks = sum(1 for _, _, w in before if self.side_of(w) == side)
        points = sum(sum(POINTS[c] for c in cards) for _, cards, w in before
                     if self.side_of(w) == side)
        if tricks:
            for m_seat, suit, _ in self.melds:
                if self.side_of(m_seat) == side and \
                        self._meld_trick_index(m_seat, suit) < self.closed_at:
                    points += meld_value(suit, self.trump)
        return points, tricks
