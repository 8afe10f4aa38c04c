"""The mutable state of a Tausendeins game: the match to the target around the current deal.

Changed only by :func:`engine.tausendeins.game.apply`. Cards are the ints of
:mod:`engine.cards`, hands bitmasks. The stock is a list with its top card last (drawn by
``pop``). A deal goes through stages: ``auction`` (``bidding`` contract), ``musik`` (the
declarer takes a musik and discards, ``contract_deal`` musik), ``play``; then the status is
``hand_over`` until both seats ``continue``, or ``match_over``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine.cards import Card, Mask, Suit
from engine.tausendeins.options import T1001Rules

PLAYING: Final = "playing"
HAND_OVER: Final = "hand_over"
MATCH_OVER: Final = "match_over"
ABORTED: Final = "aborted"
RESIGNED: Final = "resigned"

AUCTION: Final = "auction"
MUSIK: Final = "musik"
PLAY: Final = "play"

#: Marriage states.
PENDING: Final = "pending"
CREDITED: Final = "credited"
FORFEITED: Final = "forfeited"


@dataclass(slots=True)
class Marriage:
    """A meld: who, which suit, its value, the trick it was led to (1-based), its state
    (:data:`PENDING`, :data:`CREDITED` or :data:`FORFEITED`) and the trick that credited it."""

    seat: int
    suit: Suit
    value: int
    trick_no: int
    state: str
    credited_at: int | None = None


@dataclass(slots=True)
class Call:
    """An auction call: a bid of ``bid`` points, or a pass (``bid`` ``None``)."""

    seat: int
    bid: int | None


@dataclass(slots=True)
class T1001State:
    """Everything about a game, hidden cards included; filter with
    :func:`engine.tausendeins.view.view`."""

    rules: T1001Rules
    dealer: int = 0
    hand_no: int = 0
    totals: list[int] = field(default_factory=lambda: [0, 0])
    status: str = PLAYING
    winner: int | None = None
    #: ``(RESIGNED or ABORTED, seat)`` when an action ended the game.
    ended: tuple[str, int] | None = None
    #: Bit ``s``: seat ``s`` has made a move of the game (for ``abort``).
    moved: int = 0
    acks: int = 0
    preset_decks: list[list[Card]] = field(default_factory=list)
    # --- the deal ---
    stage: str = PLAY
    hands: list[Mask] = field(default_factory=lambda: [0, 0])
    stock: list[Card] = field(default_factory=list)
    musiks: list[list[Card]] = field(default_factory=list)
    #: The musik the declarer took (1 or 2), once taken.
    musik_taken: int | None = None
    discards: Mask = 0
    calls: list[Call] = field(default_factory=list)
    #: The auction's high bid and bidder (the contract and declarer once it ends).
    contract: int | None = None
    declarer: int | None = None
    #: Whether the declarer raised the contract after the musik.
    raised: bool = False
    trump: Suit | None = None
    marriages: list[Marriage] = field(default_factory=list)
    #: The suit just melded by the leader, whose King or Queen he must now lead.
    melded_suit: Suit | None = None
    #: Cards the other seat has seen in a hand and not yet played: melds' partner cards, a
    #: shown musik (its discarded cards too: discards are face down).
    shown: Mask = 0
    leader: int = 0
    trick: list[Card] = field(default_factory=list)
    #: Completed tricks: (leader, (lead, follow), winner).
    tricks: list[tuple[int, tuple[Card, Card], int]] = field(default_factory=list)
    taken: list[Mask] = field(default_factory=lambda: [0, 0])
    settlement: dict[str, Any] | None = None

    @property
    def forehand(self) -> int:
        return 1 - self.dealer

    @property
    def over(self) -> bool:
        return self.status in (MATCH_OVER, ABORTED)

    @property
    def phase(self) -> int:
        """1 while the stock holds cards (free play), else 2 (strict play)."""
        return 1 if self.stock else 2

    def to_act(self) -> int | None:
        """The seat to move, or ``None`` outside a deal in play."""
        if self.status != PLAYING:
            return None
        if self.stage == AUCTION:
            return 1 - self.calls[-1].seat
        if self.stage == MUSIK:
            assert self.declarer is not None
            return self.declarer
        return self.leader if not self.trick else 1 - self.leader

    def won_tricks(self, seat: int) -> int:
        return sum(1 for _, _, w in self.tricks if w == seat)
