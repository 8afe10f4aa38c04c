"""Tausendeins actions and their text and JSON forms.

``play:QH``, ``meld:H``, ``bid:110``, ``pass``, ``take_musik:2``, ``discard:9H,JS``,
``raise:130``, ``continue``, ``resign``, ``abort``; as JSON ``{"type": "bid", "points": 110}``,
``{"type": "take_musik", "musik": 2}``, ``{"type": "discard", "cards": ["9H", "JS"]}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.cards import CARD_CODES, SUIT_CODES, Card, Suit, parse_card, parse_suit
from engine.errors import InvalidAction, InvalidCard
from engine.numerals import parse_natural

PLAY: Final = "play"
MELD: Final = "meld"
BID: Final = "bid"
PASS: Final = "pass"
TAKE_MUSIK: Final = "take_musik"
DISCARD: Final = "discard"
RAISE: Final = "raise"
CONTINUE: Final = "continue"
RESIGN: Final = "resign"
ABORT: Final = "abort"
SIMPLE: Final = (PASS, CONTINUE, RESIGN, ABORT)
NUMBERED: Final = {BID: "points", RAISE: "points", TAKE_MUSIK: "musik"}
#: The member of its JSON form each kind takes besides ``type`` (the others take none).
MEMBERS: Final = {PLAY: "card", MELD: "suit", DISCARD: "cards", **NUMBERED}
KINDS: Final = (PLAY, MELD, BID, PASS, TAKE_MUSIK, DISCARD, RAISE, CONTINUE, RESIGN, ABORT)


@dataclass(frozen=True, slots=True)
class T1001Action:
    """One action: ``card`` for play, ``suit`` for meld, ``number`` for bid, raise and
    take_musik, ``cards`` (two, sorted) for discard."""

    kind: str
    card: Card | None = None
    suit: Suit | None = None
    number: int | None = None
    cards: tuple[Card, ...] = ()

    @classmethod
    def play(cls, c: Card) -> T1001Action:
        return cls(PLAY, card=c)

    @classmethod
    def meld(cls, suit: Suit) -> T1001Action:
        return cls(MELD, suit=suit)

    @classmethod
    def bid(cls, points: int) -> T1001Action:
        return cls(BID, number=points)

    @classmethod
    def raise_to(cls, points: int) -> T1001Action:
        return cls(RAISE, number=points)

    @classmethod
    def take_musik(cls, musik: int) -> T1001Action:
        return cls(TAKE_MUSIK, number=musik)

    @classmethod
    def discard(cls, a: Card, b: Card) -> T1001Action:
        return cls(DISCARD, cards=tuple(sorted((a, b))))

    @classmethod
    def simple(cls, kind: str) -> T1001Action:
        return cls(kind)

    @classmethod
    def from_text(cls, text: str) -> T1001Action:
        """Parse the text form; raises :class:`InvalidAction`."""
        kind, _, arg = text.strip().partition(":")
        kind = kind.lower()
        try:
            if kind == PLAY:
                return cls.play(parse_card(arg))
            if kind == MELD:
                return cls.meld(parse_suit(arg))
            if kind == DISCARD:
                parts = arg.split(",")
                if len(parts) != 2:
                    raise InvalidAction(f"{text!r}: discard names two cards, e.g. discard:9H,JS")
                return cls.discard(parse_card(parts[0]), parse_card(parts[1]))
        except InvalidCard as exc:
            raise InvalidAction(f"{text!r}: {exc}") from None
        if kind in NUMBERED:
            number = parse_natural(arg)
            if number is None:
                raise InvalidAction(f"{text!r}: {kind} takes a number, e.g. {kind}:2")
            return cls(kind, number=number)
        if kind in SIMPLE and not arg:
            return cls(kind)
        raise InvalidAction(f"{text!r} is not a {'/'.join(KINDS)} action")

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> T1001Action:
        """Parse the JSON form: codes exactly as written (:func:`~engine.cards.parse_card`),
        ``cards`` a list of two; members of other kinds are not looked at (see
        :func:`engine.hosted.parse_action`). Raises :class:`InvalidAction` naming the member
        at fault."""
        kind = data.get("type")
        try:
            if kind == PLAY:
                return cls.play(parse_card(data.get("card")))
            if kind == MELD:
                return cls.meld(parse_suit(data.get("suit")))
            if kind == DISCARD:
                cards = data.get("cards")
                if not isinstance(cards, list) or len(cards) != 2:
                    raise InvalidAction('discard needs cards: a list of two card codes, e.g. '
                                        '["9H", "JS"]', "cards")
                return cls.discard(parse_card(cards[0]), parse_card(cards[1]))
        except InvalidCard as exc:
            raise InvalidAction(f"{kind}: {exc}", MEMBERS[str(kind)]) from None
        if isinstance(kind, str) and kind in NUMBERED:
            number = data.get(NUMBERED[kind])
            if not isinstance(number, int) or isinstance(number, bool) or number < 0:
                raise InvalidAction(f"{kind} needs {NUMBERED[kind]}: a whole number",
                                    NUMBERED[kind])
            return cls(kind, number=number)
        if isinstance(kind, str) and kind in SIMPLE:
            return cls(kind)
        raise InvalidAction(f"unknown action type {kind!r}; expected one of {', '.join(KINDS)}",
                            "type")

    def text(self) -> str:
        if self.card is not None:
            return f"{self.kind}:{CARD_CODES[self.card]}"
        if self.suit is not None:
            return f"{self.kind}:{SUIT_CODES[self.suit]}"
        if self.number is not None:
            return f"{self.kind}:{self.number}"
        if self.cards:
            return f"{self.kind}:" + ",".join(CARD_CODES[c] for c in self.cards)
        return self.kind

    def as_dict(self) -> dict[str, object]:
        if self.card is not None:
            return {"type": self.kind, "card": CARD_CODES[self.card]}
        if self.suit is not None:
            return {"type": self.kind, "suit": SUIT_CODES[self.suit]}
        if self.number is not None:
            return {"type": self.kind, NUMBERED[self.kind]: self.number}
        if self.cards:
            return {"type": self.kind, "cards": [CARD_CODES[c] for c in self.cards]}
        return {"type": self.kind}

    def __str__(self) -> str:
        return self.text()
