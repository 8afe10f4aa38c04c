"""Cards as small integers and hands as bitmasks.

A card is an ``int`` in ``0..23``: ``suit * 6 + rank``. Ranks run high to low
(``A T K Q J 9`` → ``0..5``), so within a suit a *lower* rank index is a *higher*
card. A set of cards is an ``int`` bitmask with bit ``card`` set; the six bits of
suit ``s`` are ``(mask >> 6*s) & 0b111111``.

Codes are rank then suit, e.g. ``AH`` (ace of hearts), ``TD``, ``9S``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.errors import InvalidCard

Card = int
Suit = int
Rank = int
Mask = int

CLUBS: Final = 0
SPADES: Final = 1
HEARTS: Final = 2
DIAMONDS: Final = 3
SUITS: Final = (CLUBS, SPADES, HEARTS, DIAMONDS)
SUIT_CODES: Final = "CSHD"
SUIT_NAMES: Final = ("clubs", "spades", "hearts", "diamonds")

ACE: Final = 0
TEN: Final = 1
KING: Final = 2
QUEEN: Final = 3
JACK: Final = 4
NINE: Final = 5
RANKS: Final = (ACE, TEN, KING, QUEEN, JACK, NINE)
RANK_CODES: Final = "ATKQJ9"
RANK_NAMES: Final = ("ace", "ten", "king", "queen", "jack", "nine")
RANK_POINTS: Final = (11, 10, 4, 3, 2, 0)

#: Card points of each card index.
POINTS: Final = tuple(RANK_POINTS[c % 6] for c in range(24))
CARD_CODES: Final = tuple(RANK_CODES[c % 6] + SUIT_CODES[c // 6] for c in range(24))
_CODE_TO_CARD: Final = {code: i for i, code in enumerate(CARD_CODES)}

SUIT_MASKS: Final = tuple(0b111111 << (6 * s) for s in SUITS)
#: For each card, the mask of the cards of its suit that beat it.
HIGHER_IN_SUIT: Final = tuple(((1 << (c % 6)) - 1) << (6 * (c // 6)) for c in range(24))
#: ``BEATERS[trump][best]``: the cards that win a trick against ``best`` (the card winning it
#: so far) when ``trump`` is trumps: a higher card of its suit, or any trump if it is none.
#: The one statement of the trick-winner rule; a card of another side suit never wins.
BEATERS: Final = tuple(
    tuple(HIGHER_IN_SUIT[c] | (0 if c // 6 == trump else SUIT_MASKS[trump]) for c in range(24))
    for trump in SUITS)
#: Points of a marriage (meld) in trumps and in a side suit (docs/rules.md §2).
TRUMP_MELD_POINTS: Final = 40
MELD_POINTS: Final = 20
#: ``MELD_VALUES[trump][suit]``: the points of a meld in ``suit`` when ``trump`` is trumps.
MELD_VALUES: Final = tuple(
    tuple(TRUMP_MELD_POINTS if s == trump else MELD_POINTS for s in SUITS) for trump in SUITS)
#: The King and Queen of each suit (its marriage), as a mask per suit.
MARRIAGES: Final = tuple((1 << (6 * s + KING)) | (1 << (6 * s + QUEEN)) for s in SUITS)
#: For each card, the marriage it belongs to (0 unless it is a King or Queen).
MARRIAGE_OF: Final = tuple(MARRIAGES[c // 6] if c % 6 in (KING, QUEEN) else 0 for c in range(24))
#: Cards listed by each possible 6-bit pattern of one suit, per suit (hot path helper).
_SUIT_PATTERN_CARDS: Final = tuple(
    tuple(tuple(6 * s + r for r in range(6) if pattern >> r & 1) for pattern in range(64))
    for s in SUITS
)
_SUIT_PATTERN_CODES: Final = tuple(
    tuple(tuple(CARD_CODES[c] for c in cards) for cards in per_suit)
    for per_suit in _SUIT_PATTERN_CARDS
)


def card(rank: Rank, suit: Suit) -> Card:
    """The card of ``rank`` and ``suit``."""
    return suit * 6 + rank


def meld_value(suit: Suit, trump: Suit) -> int:
    """Points of a marriage in ``suit``: 40 in trumps, else 20."""
    return MELD_VALUES[trump][suit]



def parse_card(code: object) -> Card:
    """``"QH"`` → the queen of hearts; raises :class:`InvalidCard` otherwise (anything but a
    card code, a string or not: the parsers take input as it comes, even compiled)."""
    card = _CODE_TO_CARD.get(code.upper()) if isinstance(code, str) else None
    if card is None:
        raise InvalidCard(code)
    return card


def card_code(c: Card) -> str:
    return CARD_CODES[c]


def parse_suit(code: object) -> Suit:
    """``"H"`` → hearts; raises :class:`InvalidCard` for anything else."""
    if isinstance(code, str) and len(code) == 1 and code.upper() in SUIT_CODES:
        return SUIT_CODES.index(code.upper())
    raise InvalidCard(code, what="suit")



def mask_of(cards: Iterable[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: Mask) -> list[Card]:
    """The cards of ``mask`` in index order (suit by suit, high to low)."""
    c, s, h, d = _SUIT_PATTERN_CARDS
    return [*c[mask & 63], *s[mask >> 6 & 63], *h[mask >> 12 & 63], *d[mask >> 18 & 63]]




def points_of(mask: Mask) -> int:
    """Sum of card points in ``mask``."""
    return sum(POINTS[c] for c in cards_of(mask))


def codes(mask: Mask) -> list[str]:
    """Card codes of ``mask`` in index order."""
    c, s, h, d = _SUIT_PATTERN_CODES
    return [*c[mask & 63], *s[mask >> 6 & 63], *h[mask >> 12 & 63], *d[mask >> 18 & 63]]


def parse_cards(text: Iterable[str]) -> list[Card]:
    return [parse_card(code) for code in text]
