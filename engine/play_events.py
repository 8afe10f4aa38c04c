"""The events of the hot path, :func:`engine.deal.deal` and :func:`engine.play.apply`, as
:class:`~engine.events.LazyEvent` subclasses: their data is built on first access.

Kept apart from :mod:`engine.deal` and :mod:`engine.play` because they may be compiled
(:mod:`engine.native`) and a ``LazyEvent`` must stay a plain Python class (it is made
without running ``__init__``).
"""

from __future__ import annotations

from typing import Any

from engine.cards import CARD_CODES, SUIT_OF, Card, Mask, codes
from engine.events import LazyEvent
from engine.state import PendingSettlement


class HandDealt(LazyEvent):
    """``args``: hand number, dealer, deal order, trump card, talon size, deck."""

    __slots__ = ()
    type = "hand_dealt"
    owner = None

    @staticmethod
    def build(hand_no: int, dealer: int, order: tuple[int, ...], trump_card: Card,
              talon_size: int, deck: tuple[Card, ...],
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        return {
            "hand_no": hand_no,
            "dealer": dealer,
            "forehand": order[0],
            "active": list(order),
            "trump_suit": "CSHD"[SUIT_OF[trump_card]],
            "trump_card": CARD_CODES[trump_card],
            "talon_size": talon_size,
        }, {"deck": [*map(CARD_CODES.__getitem__, deck)]}


class CardsDealt(LazyEvent):
    """``args``: the seat (the owner) and its hand."""

    __slots__ = ()
    type = "cards_dealt"

    @staticmethod
    def build(seat: int, hand: Mask) -> tuple[dict[str, Any], dict[str, Any]]:
        return {"seat": seat}, {"cards": codes(hand)}


class HandSettled(LazyEvent):
    """``args``: the pending settlement (the state's, the same dict once made)."""

    __slots__ = ()
    type = "hand_settled"
    owner = None

    @staticmethod
    def build(pending: PendingSettlement) -> tuple[dict[str, Any], None]:
        return {"settlement": pending.get()}, None


class Declared(LazyEvent):
    """``args``: seat, its side's credited points."""

    __slots__ = ()
    type = "declare"
    owner = None

    @staticmethod
    def build(seat: int, points: int) -> tuple[dict[str, Any], None]:
        return {"seat": seat, "points": points}, None


class CardPlayed(LazyEvent):
    """``args``: seat, card."""

    __slots__ = ()
    type = "card_played"
    owner = None

    @staticmethod
    def build(seat: int, c: Card) -> tuple[dict[str, Any], None]:
        return {"seat": seat, "card": CARD_CODES[c]}, None


class TrickWon(LazyEvent):
    """``args``: winner seat, cards in play order, points, reason."""

    __slots__ = ()
    type = "trick_won"
    owner = None

    @staticmethod
    def build(winner: int, cards: tuple[Card, ...], points: int, reason: str,
              ) -> tuple[dict[str, Any], None]:
        return {"seat": winner, "cards": [*map(CARD_CODES.__getitem__, cards)],
                "points": points, "reason": reason}, None


class CardDrawn(LazyEvent):
    """``args``: drawer (the owner), card, whether it was public, talon size after. A drawn
    card is shown to all only if it was seen before (the exchanged trump card)."""

    __slots__ = ()
    type = "card_drawn"

    @staticmethod
    def build(drawer: int, drawn: Card, public: int, talon_size: int,
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        code = CARD_CODES[drawn]
        return {"seat": drawer, "card": code if public else None,
                "talon_size": talon_size}, {"card": code}
