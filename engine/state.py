"""The mutable state of a game: the match around the current hand.

A :class:`GameState` is changed only by :func:`engine.play.apply`. Cards are small ints and
hands bitmasks (:mod:`engine.cards`). Scores live per *side*: a seat in two- and three-hand,
a pair (seats 0+2, 1+3) in four-hand.

The talon is a list with the face-up trump card (or the card that replaced it by an exchange)
at index 0 and the top card last, so drawing is ``talon.pop()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.cards import POINTS, Card, Mask, Suit, meld_value, points_of
from engine.rules import Rules, Settings

PLAYING: Final = "playing"
HAND_OVER: Final = "hand_over"
#: The game is finished: its match (or set of matches) is decided.
MATCH_OVER: Final = "match_over"
#: The game was aborted before it got going: no result, counted for nobody.
ABORTED: Final = "aborted"
#: ``GameState.ended`` reasons: the game ended by an action instead of by points.
RESIGNED: Final = "resigned"
#: The match forfeited on time (the ``forfeit`` action of the clock), as by a resignation.
TIMED_OUT: Final = "timeout"

#: A meld: (seat, suit, credited). A pending meld is credited with its side's first trick
#: (``meld_credit`` ``next_trick``: its next trick).
Meld = tuple[int, Suit, bool]
#: A completed trick: (leader seat, cards in play order, winner seat).
Trick = tuple[int, tuple[Card, ...], int]


class PendingSettlement:
    """A settlement made on first use by ``build(*args)`` (then kept): a hand's end does not
    pay for the working it shows unless someone reads it; ``args`` must not change."""

    __slots__ = ("_args", "_build", "_value")

    def __init__(self, build: Callable[..., dict[str, Any]], args: tuple[Any, ...]) -> None:
        self._build = build
        self._args = args
        self._value: dict[str, Any] | None = None

    def get(self) -> dict[str, Any]:
        value = self._value
        if value is None:
            value = self._value = self._build(*self._args)
        return value


#: The attributes of a :class:`GameState` (its ``__slots__``; a compiled class, see
#: :mod:`engine.native`, keeps no ``__slots__`` of its own to read).
FIELDS: Final = (
    "_settlement",
    "acks",
    "active",
    "bummerl",
    "carried",
    "closed_at",
    "closed_by",
    "closed_snapshot",
    "dealer",
    "ended",
    "hand_no",
    "hands",
    "last_match_winner",
    "leader",
    "match_no",
    "matches_won",
    "melded_suit",
    "melds",
    "moved",
    "preset_decks",
    "public",
    "rules",
    "score",
    "set_winner",
    "settings",
    "status",
    "taken",
    "talon",
    "trick",
    "tricks",
    "trump",
    "trump_card",
    "won_points",
    "won_tricks",
    )


class GameState:
    """Everything about a game, hidden cards included; filter with :func:`engine.views.view`."""

    __slots__ = FIELDS

    rules: Rules
    settings: Settings
    # --- match and set ---
    dealer: int
    hand_no: int
    match_no: int
    score: list[int]
    bummerl: list[int]
    matches_won: list[int]
    last_match_winner: int | None
    set_winner: int | None
    #: ``four_hand_scoring`` hoyle: game points the winners of the next hand get on top, one
    #: per hand just tied 65:65 (0 otherwise; never passed from one match to the next).
    carried: int
    status: str
    acks: int
    preset_decks: list[list[Card]]
    #: Bit ``s`` set once seat ``s`` made a move of the game (any action but ``continue``).
    moved: int
    #: ``(RESIGNED, ABORTED or TIMED_OUT, seat)`` when the game was ended by that seat's
    #: action (or its clock's forfeit).
    ended: tuple[str, int] | None
    # --- current hand ---
    active: tuple[int, ...]
    hands: list[Mask]
    trump: Suit
    trump_card: Card
    talon: list[Card]
    closed_by: int | None
    #: Tricks completed when the talon was closed.
    closed_at: int | None
    closed_snapshot: tuple[int, int] | None
    leader: int
    trick: list[Card]
    tricks: list[Trick]
    won_points: list[int]
    won_tricks: list[int]
    taken: list[Mask]
    melds: list[Meld]
    melded_suit: Suit | None
    public: Mask
    _settlement: dict[str, Any] | PendingSettlement | None

    def __init__(self, rules: Rules, settings: Settings) -> None:
        self.rules = rules
        self.settings = settings
        sides = rules.variant.sides
        self.dealer = 0
        self.hand_no = 0
        self.match_no = 1
        self.score = [0] * sides
        self.bummerl = [0] * sides
        self.matches_won = [0] * sides
        self.last_match_winner = None
        self.set_winner = None
        self.carried = 0
        self.status = PLAYING
        self.acks = 0
        self.preset_decks = []
        self.moved = 0
        self.ended = None
        self.active = ()
        self.hands = [0] * rules.variant.players
        self.trump = 0
        self.trump_card = 0
        self.talon = []
        self.leader = 0
        self.public = 0
        self.clear_hand()

    def clear_hand(self) -> None:
        """Forget the play of a hand: no closing, tricks, points, melds or settlement."""
        sides = self.rules.variant.sides
        self.closed_by = None
        self.closed_at = None
        self.closed_snapshot = None
        self.trick = []
        self.tricks = []
        self.won_points = [0] * sides
        self.won_tricks = [0] * sides
        self.taken = [0] * sides
        self.melds = []
        self.melded_suit = None
        self._settlement = None

    @property
    def settlement(self) -> dict[str, Any] | None:
        """The settlement of the hand just ended (``None`` while it is played)."""
        pending = self._settlement
        if pending.__class__ is PendingSettlement:
            assert isinstance(pending, PendingSettlement)
            self._settlement = pending = pending.get()
        assert not isinstance(pending, PendingSettlement)
        return pending

    @settlement.setter
    def settlement(self, value: dict[str, Any] | None) -> None:
        self._settlement = value

    def settle_later(self, pending: PendingSettlement) -> None:
        """Set the settlement to be ``pending``'s, made when first read."""
        self._settlement = pending

    # --- derived facts (cheap; used by legal_actions and views) ---

    @property
    def over(self) -> bool:
        """The game is finished (decided or aborted): no action is accepted any more."""
        return self.status == MATCH_OVER or self.status == ABORTED

    @property
    def players(self) -> int:
        return self.rules.variant.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.rules.variant.players == 4 else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        if self.rules.variant.players == 4:
            return (side, side + 2)
        return (side,)

    @property
    def hand_sides(self) -> tuple[int, int]:
        """The two sides playing the current hand (first: forehand's)."""
        return self.side_of(self.active[0]), self.side_of(self.active[1])

    def opponent_side(self, side: int) -> int:
        a, b = self.hand_sides
        return b if side == a else a

    def to_act(self) -> int | None:
        """The seat whose turn it is to play, or ``None`` outside play."""
        if self.status != PLAYING:
            return None
        trick = self.trick
        if not trick:
            return self.leader
        active = self.active
        if len(active) == 2:
            return active[1] if self.leader == active[0] else active[0]
        return active[(active.index(self.leader) + len(trick)) % len(active)]

    @property
    def talon_open(self) -> bool:
        """Phase 1: cards are still drawn (talon neither closed nor exhausted)."""
        return self.closed_by is None and bool(self.talon)

    def meld_points(self, side: int, credited: bool = True) -> int:
        total = 0
        if self.melds:  # a loop, not sum() of a generator: compiled, no generator object
            trump = self.trump
            for seat, suit, cred in self.melds:
                if cred == credited and self.side_of(seat) == side:
                    total += meld_value(suit, trump)
        return total

    def credited_points(self, side: int) -> int:
        """Trick points plus credited melds: what a declaration and the table count."""
        points = self.won_points[side]
        return points + self.meld_points(side) if self.melds else points

    def trick_winner_index(self) -> int:
        """Index in the current trick of the card winning it so far."""
        trick = self.trick
        beaters = self.rules.plan.beaters[self.trump]
        best = 0
        for i in range(1, len(trick)):
            if beaters[trick[best]] >> trick[i] & 1:
                best = i
        return best

    def total_card_points(self) -> int:
        """Card points in hands, talon, trick and taken tricks: always 120 (Schnapsen 120)."""
        total = sum(POINTS[c] for c in self.talon) + sum(POINTS[c] for c in self.trick)
        return total + sum(points_of(h) for h in self.hands) + sum(self.won_points)

    def copy(self) -> GameState:
        """An independent copy: lists copied one level; ints, tuples and the settlement shared."""
        # through __init__ (its lists replaced below): a compiled GameState (engine.native) is
        # made only by its constructor
        new = GameState(self.rules, self.settings)
        new.acks = self.acks
        new.active = self.active
        new.bummerl = self.bummerl.copy()
        new.carried = self.carried
        new.closed_at = self.closed_at
        new.closed_by = self.closed_by
        new.closed_snapshot = self.closed_snapshot
        new.dealer = self.dealer
        new.ended = self.ended
        new.hand_no = self.hand_no
        new.hands = self.hands.copy()
        new.last_match_winner = self.last_match_winner
        new.leader = self.leader
        new.match_no = self.match_no
        new.matches_won = self.matches_won.copy()
        new.melded_suit = self.melded_suit
        new.melds = self.melds.copy()
        new.moved = self.moved
        new.preset_decks = [d.copy() for d in self.preset_decks]
        new.public = self.public
        new.score = self.score.copy()
        new.set_winner = self.set_winner
        new._settlement = self._settlement
        new.status = self.status
        new.taken = self.taken.copy()
        new.talon = self.talon.copy()
        new.trick = self.trick.copy()
        new.tricks = self.tricks.copy()
        new.trump = self.trump
        new.trump_card = self.trump_card
        new.won_points = self.won_points.copy()
        new.won_tricks = self.won_tricks.copy()
        return new
