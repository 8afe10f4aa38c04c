"""Cards as small integers and hands as bitmasks.

A card is an ``int`` in ``0..31``. The 24 cards of the modern pack are ``suit * 6 + rank``
(``0..23``); ranks run high to low (``A T K Q J 9`` → ``0..5``), so within a suit a *lower*
rank index is a *higher* card, and the six bits of suit ``s`` are ``(mask >> 6*s) & 0b111111``.
The 8s and 7s of the 32-card pack (option ``deck`` 32, docs/rules.md §13) are the high byte:
``24 + 2*suit`` is the 8 of ``suit``, ``25 + 2*suit`` its 7 (ranks 6 and 7). A 24-card game
never holds a bit above 23, so its masks, tables and stored states are those of the 24-card
engine. Use :data:`SUIT_OF` and :data:`RANK_OF` (or ``c // 6`` and ``c % 6`` where a card is
known to be of the 24).

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
EIGHT: Final = 6
SEVEN: Final = 7
#: The ranks of the modern 24-card pack, high to low.
RANKS: Final = (ACE, TEN, KING, QUEEN, JACK, NINE)
#: The ranks of the 32-card pack (``deck`` 32), high to low.
RANKS_32: Final = (*RANKS, EIGHT, SEVEN)
RANK_CODES: Final = "ATKQJ987"
RANK_NAMES: Final = ("ace", "ten", "king", "queen", "jack", "nine", "eight", "seven")
RANK_POINTS: Final = (11, 10, 4, 3, 2, 0, 0, 0)
#: Number of card indices (the 32-card pack; the 24-card pack uses ``0..23``).
CARDS: Final = 32


def card(rank: Rank, suit: Suit) -> Card:
    """The card of ``rank`` and ``suit``."""
    return suit * 6 + rank if rank < EIGHT else 24 + 2 * suit + rank - EIGHT


#: Suit and rank of each card index.
SUIT_OF: Final = tuple(c // 6 if c < 24 else (c - 24) // 2 for c in range(CARDS))
RANK_OF: Final = tuple(c % 6 if c < 24 else EIGHT + (c - 24) % 2 for c in range(CARDS))
#: Card points of each card index.
POINTS: Final = tuple(RANK_POINTS[RANK_OF[c]] for c in range(CARDS))
CARD_CODES: Final = tuple(RANK_CODES[RANK_OF[c]] + SUIT_CODES[SUIT_OF[c]] for c in range(CARDS))
_CODE_TO_CARD: Final = {code: i for i, code in enumerate(CARD_CODES)}

#: The cards of each suit, 8s and 7s included.
SUIT_MASKS: Final = tuple(sum(1 << c for c in range(CARDS) if SUIT_OF[c] == s) for s in SUITS)
#: For each card, the mask of the cards of its suit that beat it (rank order A T K Q J 9 8 7).
HIGHER_IN_SUIT: Final = tuple(
    sum(1 << x for x in range(CARDS) if SUIT_OF[x] == SUIT_OF[c] and RANK_OF[x] < RANK_OF[c])
    for c in range(CARDS))
#: ``BEATERS[trump][best]``: the cards that win a trick against ``best`` (the card winning it
#: so far) when ``trump`` is trumps: a higher card of its suit, or any trump if it is none.
#: The one statement of the trick-winner rule; a card of another side suit never wins.
BEATERS: Final = tuple(
    tuple(HIGHER_IN_SUIT[c] | (0 if SUIT_OF[c] == trump else SUIT_MASKS[trump])
          for c in range(CARDS))
    for trump in SUITS)
#: ``BEATERS_TEN_LOW``: the same with the Ten ranked below the Jack (option ``ten_rank`` low:
#: A K Q J T 9 8 7).
_ORDER_TEN_LOW: Final = (0, 4, 1, 2, 3, 5, 6, 7)
HIGHER_IN_SUIT_TEN_LOW: Final = tuple(
    sum(1 << x for x in range(CARDS) if SUIT_OF[x] == SUIT_OF[c]
        and _ORDER_TEN_LOW[RANK_OF[x]] < _ORDER_TEN_LOW[RANK_OF[c]])
    for c in range(CARDS))
BEATERS_TEN_LOW: Final = tuple(
    tuple(HIGHER_IN_SUIT_TEN_LOW[c] | (0 if SUIT_OF[c] == trump else SUIT_MASKS[trump])
          for c in range(CARDS))
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
MARRIAGE_OF: Final = tuple(MARRIAGES[c // 6] if c < 24 and c % 6 in (KING, QUEEN) else 0
                           for c in range(CARDS))
#: Cards listed by each possible 6-bit pattern of one suit, per suit (hot path helper).
_SUIT_PATTERN_CARDS: Final = tuple(
    tuple(tuple(6 * s + r for r in range(6) if pattern >> r & 1) for pattern in range(64))
    for s in SUITS
)
_SUIT_PATTERN_CODES: Final = tuple(
    tuple(tuple(CARD_CODES[c] for c in cards) for cards in per_suit)
    for per_suit in _SUIT_PATTERN_CARDS
)

#: ``SUIT_CARDS_32[s][pattern]``: the cards of suit ``s`` high to low, for the 8-bit
#: ``pattern`` of its six 24-card bits (bits 0..5) and its 8 and 7 (bits 6 and 7).
SUIT_CARDS_32: Final = tuple(
    tuple(tuple(card(r, s) for r in range(8) if pattern >> r & 1) for pattern in range(256))
    for s in SUITS)



def meld_value(suit: Suit, trump: Suit) -> int:
    """Points of a marriage in ``suit``: 40 in trumps, else 20."""
    return MELD_VALUES[trump][suit]



def parse_card(code: object) -> Card:
    """``"QH"`` → the queen of hearts; raises :class:`InvalidCard` otherwise (anything but a
    card code exactly as written, upper case and nothing around it: ``qh`` and ``" QH"`` are
    refused; a string or not: the parsers take input as it comes, even compiled)."""
    card = _CODE_TO_CARD.get(code) if isinstance(code, str) else None
    if card is None:
        raise InvalidCard(code)
    return card


def card_code(c: Card) -> str:
    return CARD_CODES[c]


def parse_suit(code: object) -> Suit:
    """``"H"`` → hearts; raises :class:`InvalidCard` for anything else (``h`` too)."""
    if isinstance(code, str) and len(code) == 1 and code in SUIT_CODES:
        return SUIT_CODES.index(code)
    raise InvalidCard(code, what="suit")



def mask_of(cards: Iterable[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: Mask) -> list[Card]:
    """The cards of ``mask`` suit by suit, high to low (index order for the 24 cards)."""
    if mask >> 24:
        c, s, h, d = SUIT_CARDS_32
        return [*c[(mask & 63) | (mask >> 18 & 0xC0)],
                *s[(mask >> 6 & 63) | (mask >> 20 & 0xC0)],
                *h[(mask >> 12 & 63) | (mask >> 22 & 0xC0)],
                *d[(mask >> 18 & 63) | (mask >> 24 & 0xC0)]]
    c, s, h, d = _SUIT_PATTERN_CARDS
    return [*c[mask & 63], *s[mask >> 6 & 63], *h[mask >> 12 & 63], *d[mask >> 18 & 63]]


def points_of(mask: Mask) -> int:
    """Sum of card points in ``mask``."""
    return sum(POINTS[c] for c in cards_of(mask))


def codes(mask: Mask) -> list[str]:
    """Card codes of ``mask`` in the order of :func:`cards_of`."""
    if mask >> 24:
        return [CARD_CODES[x] for x in cards_of(mask)]
    c, s, h, d = _SUIT_PATTERN_CODES
    return [*c[mask & 63], *s[mask >> 6 & 63], *h[mask >> 12 & 63], *d[mask >> 18 & 63]]


def parse_cards(text: Iterable[str]) -> list[Card]:
    return [parse_card(code) for code in text]
