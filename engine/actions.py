"""Actions and their text form (``play:QH``, ``meld:H``, ``exchange``, ``close``, ``declare``,
``continue``, ``resign``, ``abort``, and the clock's ``timeout`` and ``forfeit``).

``resign`` and ``abort`` end the game (:func:`engine.play.apply`); they are never listed in
``legal_actions``, so a bot choosing among those never resigns or aborts by accident.
``timeout`` (the seat to act loses the hand, its think time having run out) and ``forfeit``
(the seat loses the match on time, as by a resignation) are the clock's transitions, applied
by the server's clock (never accepted from a client) and replayed from records like any
other action.

Actions are interned: ``Action.play(c)`` always returns the same object, so legal-action lists
are built without allocating.
"""

from __future__ import annotations

from typing import ClassVar, Final

from engine.cards import CARD_CODES, CARDS, SUIT_CODES, Card, Suit, parse_card, parse_suit
from engine.errors import InvalidAction, InvalidCard

PLAY: Final = "play"
MELD: Final = "meld"
EXCHANGE: Final = "exchange"
CLOSE: Final = "close"
DECLARE: Final = "declare"
CONTINUE: Final = "continue"
RESIGN: Final = "resign"
ABORT: Final = "abort"
TIMEOUT: Final = "timeout"
FORFEIT: Final = "forfeit"
#: What a player (or a client) may send.
KINDS: Final = (PLAY, MELD, EXCHANGE, CLOSE, DECLARE, CONTINUE, RESIGN, ABORT)
#: The clock's transitions: applied by the server when a think time runs out, never sent.
CLOCK_KINDS: Final = (TIMEOUT, FORFEIT)
#: Actions that end the game at any time instead of playing it (not in ``legal_actions``).
ENDING: Final = (RESIGN, ABORT)
#: The member of its JSON form each kind takes besides ``type`` (the others take none).
MEMBERS: Final = {PLAY: "card", MELD: "suit"}


class Action:
    """One action of a seat. ``card`` is set for ``play``, ``suit`` for ``meld``."""

    __slots__ = ("card", "kind", "suit")
    _plays: ClassVar[tuple[Action, ...]]
    _melds: ClassVar[tuple[Action, ...]]
    _simple: ClassVar[dict[str, Action]]

    kind: str
    card: Card | None
    suit: Suit | None

    def __init__(self, kind: str, card: Card | None = None, suit: Suit | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "suit", suit)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    @classmethod
    def play(cls, card: Card) -> Action:
        return cls._plays[card]

    @classmethod
    def meld(cls, suit: Suit) -> Action:
        return cls._melds[suit]

    @classmethod
    def simple(cls, kind: str) -> Action:
        return cls._simple[kind]

    @classmethod
    def from_text(cls, text: str) -> Action:
        """Parse ``play:QH``, ``meld:H`` or a bare kind; raises :class:`InvalidAction`."""
        kind, _, arg = text.strip().partition(":")
        kind = kind.lower()
        try:
            if kind == PLAY:
                return cls.play(parse_card(arg))
            if kind == MELD:
                return cls.meld(parse_suit(arg))
        except InvalidCard as exc:
            raise InvalidAction(f"{text!r}: {exc}") from None
        if kind in cls._simple and not arg:
            return cls._simple[kind]
        raise InvalidAction(
            f"{text!r} is not an action: expected play:<card>, meld:<suit>, exchange, close, "
            "declare, continue, resign, abort, timeout or forfeit"
        )

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Action:
        """Parse ``{"type": "play", "card": "QH"}`` and the like: the code exactly as written
        (:func:`~engine.cards.parse_card`); members of other kinds are not looked at (see
        :func:`engine.hosted.parse_action`). ``InvalidAction.member`` names the one at fault."""
        kind = data.get("type")
        try:
            if kind == PLAY:
                return cls.play(parse_card(data.get("card")))
            if kind == MELD:
                return cls.meld(parse_suit(data.get("suit")))
        except InvalidCard as exc:
            raise InvalidAction(f"{kind}: {exc}", MEMBERS[str(kind)]) from None
        if isinstance(kind, str) and kind in cls._simple:
            return cls._simple[kind]
        raise InvalidAction(f"unknown action type {kind!r}; expected one of "
                            f"{', '.join(KINDS + CLOCK_KINDS)}", "type")

    def text(self) -> str:
        if self.card is not None:
            return f"{self.kind}:{CARD_CODES[self.card]}"
        if self.suit is not None:
            return f"{self.kind}:{SUIT_CODES[self.suit]}"
        return self.kind

    def as_dict(self) -> dict[str, str]:
        if self.card is not None:
            return {"type": self.kind, "card": CARD_CODES[self.card]}
        if self.suit is not None:
            return {"type": self.kind, "suit": SUIT_CODES[self.suit]}
        return {"type": self.kind}

    def __repr__(self) -> str:
        return f"Action.from_text({self.text()!r})"

    def __str__(self) -> str:
        return self.text()

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Action)
            and self.kind == other.kind
            and self.card == other.card
            and self.suit == other.suit
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.card, self.suit))

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.from_text, (self.text(),))


Action._plays = tuple(Action(PLAY, card=c) for c in range(CARDS))
Action._melds = tuple(Action(MELD, suit=s) for s in range(4))
Action._simple = {k: Action(k) for k in (EXCHANGE, CLOSE, DECLARE, CONTINUE, RESIGN, ABORT,
                                         TIMEOUT, FORFEIT)}

EXCHANGE_ACTION: Final = Action.simple(EXCHANGE)
CLOSE_ACTION: Final = Action.simple(CLOSE)
DECLARE_ACTION: Final = Action.simple(DECLARE)
CONTINUE_ACTION: Final = Action.simple(CONTINUE)
RESIGN_ACTION: Final = Action.simple(RESIGN)
ABORT_ACTION: Final = Action.simple(ABORT)
TIMEOUT_ACTION: Final = Action.simple(TIMEOUT)
FORFEIT_ACTION: Final = Action.simple(FORFEIT)
