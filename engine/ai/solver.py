"""Exact solver of phase 2 of two-hand play (talon closed or exhausted), in game points.

Once the talon is closed or exhausted, a sampled deal is a game of perfect information. The
solver is a negamax alpha-beta search with a transposition table (at lead positions) and move
ordering over bitmask hands; it never calls :func:`engine.apply`. Values are the game points
(−3..3) of the real outcome for the player to move, as :func:`engine.scoring.settle` scores it:

* a player on lead who has won a trick and holds 66 credited points declares at once (also
  right after a meld that brings him there); declaring then is never worse than playing on,
  and a computer never declares falsely;
* leading the King or Queen of a marriage held melds it (melding never costs: points only
  help), credited at once or pending until the player's first trick;
* closing success or failure uses the snapshot of the closer's opponent at the close;
* played out: the last-trick bonus (not after closing), Schnapsen's last trick wins, equal
  points score nothing.

The options of other rule sets (:mod:`engine.rules`) are respected: ``meld_credit``
``next_trick`` (every meld is held pending until its side wins a trick, so a meld never
declares at once), ``played_out_points`` ``one``, and ``automatic_66``, which changes no
exact value: the search already ends the hand where the automatic rule does (the first
moment a side holds 66, always on lead), and when the last trick brings a side to 66 the
played-out scoring gives what the automatic declaration would (the one with 66 has more
points; a closer's opponent gets 2, or 3 if he had no trick at the close, either way, as a
closer who never took a trick closed before the first trick). Only :meth:`Solver.card_values`
differs: a meld reaching 66 ends the hand. ``closing`` matters only to the talon search
(:mod:`engine.ai.talon`).

Follower's duty (docs/rules.md §2): follow suit and win if he can; else follow suit; else trump;
else any card — :func:`engine.play.playable` for two cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from engine.cards import (
    BEATERS,
    BEATERS_TEN_LOW,
    CARDS,
    HIGHER_IN_SUIT,
    HIGHER_IN_SUIT_TEN_LOW,
    KING,
    MARRIAGE_OF,
    MARRIAGES,
    MELD_POINTS,
    MELD_VALUES,
    POINTS,
    QUEEN,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP_MELD_POINTS,
    Card,
    cards_of,
)
from engine.native import search_core
from engine.scoring import DECLARE_TARGET, table
from engine.state import GameState

if TYPE_CHECKING:
    from engine.ai._core import Core, Talon

_WIN: Final = 4
#: Below this many credited points even a trump marriage cannot reach 66.
_MELD_REACH: Final = DECLARE_TARGET - TRUMP_MELD_POINTS


def _submasks(mask: int) -> list[int]:
    """The non-empty submasks of ``mask``."""
    out = []
    m = mask
    while m:
        out.append(m)
        m = (m - 1) & mask
    return out


#: The cards of a mask within one suit (its 8s and 7s too), cheapest (lowest card) first.
_CHEAPEST_FIRST: Final = {m: tuple(reversed(cards_of(m))) for s in range(4)
                          for m in _submasks(SUIT_MASKS[s])}
#: Move orders are cached per hand (and trump) for all solvers: most searches are small and
#: the same hands recur from deal to deal. Phase-2 hands hold at most 6 of 24 cards, about
#: 190,000 masks (of 32 cards, some millions); the caches stop growing at this many entries
#: (some tens of MB at most). Their keys put the trump above a hand's 32 bits (:data:`CARDS`).
_CACHE_LIMIT: Final = 1 << 18
_LEAD_ORDERS: Final[dict[int, tuple[Card, ...]]] = {}
_DISCARDS: Final[dict[int, tuple[Card, ...]]] = {}
#: ``_RANK_MAJOR[s][pattern]``: the 6-bit ``pattern`` of suit ``s`` as the bits
#: ``4 * rank + s`` of a rank-major mask (all aces, then all tens, ... suit by suit).
_RANK_MAJOR: Final = tuple(
    tuple(sum(1 << (4 * r + s) for r in range(6) if pattern >> r & 1) for pattern in range(64))
    for s in range(4))


#: ``_OF_RANK[r][nibble]``: the cards of rank ``r`` whose suits are the bits of ``nibble``.
_OF_RANK: Final = tuple(tuple(tuple(s * 6 + r for s in range(4) if nibble >> s & 1)
                              for nibble in range(16)) for r in range(6))


def _by_rank(half: int, high_first: bool) -> tuple[tuple[Card, ...], ...]:
    """The cards of each 12-bit pattern of half ``half`` of a rank-major mask (0: ace, ten,
    king; 1: queen, jack, nine), high ranks first or last, suits in index order."""
    a, b, c = _OF_RANK[3 * half:3 * half + 3]
    if not high_first:
        a, c = c, a
        return tuple(a[p >> 8] + b[p >> 4 & 15] + c[p & 15] for p in range(4096))
    return tuple(a[p & 15] + b[p >> 4 & 15] + c[p >> 8] for p in range(4096))


#: ``_HIGH_FIRST[s][pattern]``: the cards of a 6-bit ``pattern`` of suit ``s``, high to low.
_HIGH_FIRST: Final = tuple(tuple(tuple(cards_of(p << (6 * s))) for p in range(64))
                           for s in range(4))
#: Cards of a rank-major mask's halves, highest rank first (and, ``UP``, lowest first).
_DOWN: Final = (_by_rank(0, True), _by_rank(1, True))
UP: Final = (_by_rank(0, False), _by_rank(1, False))
#: The King bits of a mask whose Queen is in it too: ``mask & mask >> 1 & _KINGS``.
_KINGS: Final = sum(1 << (6 * s + KING) for s in range(4))
assert QUEEN == KING + 1
#: The mask of each card's suit.
_SUIT_MASK_OF: Final = tuple(SUIT_MASKS[SUIT_OF[c]] for c in range(CARDS))
_TABLE: Final = tuple(tuple(table(t, p)[0] for p in range(200)) for t in (0, 1))


@dataclass(slots=True)
class Position:
    """A two-hand phase-2 position; players are 0 and 1 (indices into ``GameState.active``).

    ``points`` are credited (trick points plus credited melds); ``pending`` are melds held
    until a first trick. ``closer`` is 0, 1 or ``None``; ``snapshot`` is the closer's
    opponent's (points, tricks) at the close. ``table_card`` is the card led when the follower
    is to move. ``melded`` is a suit just melded by the leader (he must lead K or Q of it).
    """

    hands: tuple[int, int]
    trump: int
    to_move: int
    table_card: Card | None
    points: tuple[int, int]
    tricks: tuple[int, int]
    pending: tuple[int, int]
    closer: int | None
    snapshot: tuple[int, int] | None
    bonus: int
    last_trick_wins: bool
    melded: int | None = None
    #: A meld before the side's first trick is allowed (held pending), as by default.
    pending_melds: bool = True
    #: Rule options ``automatic_66``, ``meld_credit == "next_trick"`` and
    #: ``played_out_points == "one"``.
    automatic_66: bool = False
    next_trick_melds: bool = False
    played_out_one: bool = False
    #: Rule option ``ten_rank`` low (the 32-card pack: the Ten ranks below the Jack).
    ten_low: bool = False

    @classmethod
    def from_state(cls, state: GameState) -> Position:
        """The phase-2 position of a two-hand (or three-hand) state in play."""
        active = state.active
        a, b = active
        s0, s1 = state.side_of(a), state.side_of(b)
        to_act = state.to_act()
        assert to_act is not None and not state.talon_open
        closer = None if state.closed_by is None else active.index(state.closed_by)
        rules = state.rules
        trick = state.trick
        won = state.won_points
        if state.melds:
            points = (state.credited_points(s0), state.credited_points(s1))
            pending = (state.meld_points(s0, False), state.meld_points(s1, False))
        else:  # no meld: the trick points, nothing pending
            points, pending = (won[s0], won[s1]), (0, 0)
        # Position(...), not cls(...): compiled, a call of the class itself is a native one
        return Position(
            hands=(state.hands[a], state.hands[b]),
            trump=state.trump,
            to_move=active.index(to_act),
            table_card=trick[0] if trick else None,
            points=points,
            tricks=(state.won_tricks[s0], state.won_tricks[s1]),
            pending=pending,
            closer=closer,
            snapshot=state.closed_snapshot,
            bonus=rules.bonus,
            last_trick_wins=rules.variant.last_trick_wins,
            melded=state.melded_suit if not trick else None,
            pending_melds=rules.meld_before_first_trick == "pending",
            automatic_66=rules.automatic_66,
            next_trick_melds=rules.meld_credit == "next_trick",
            played_out_one=rules.played_out_points == "one",
            ten_low=rules.ten_rank == "low",
        )


class Solver:
    """Solves positions sharing trump, closing and scoring rules; reuse it across a hand.

    The transposition table is keyed by the full position, so it stays valid between calls
    with the same rules context (trump, closer, snapshot, bonus, variant).

    :meth:`lead` and :meth:`follow` run the native core (:data:`NATIVE_CORE`) where it is
    built, unless ``native`` is false; the Python methods ``_lead`` and ``_follow`` are the
    reference it must equal value for value (so card for card: the same best moves), in
    fewer nodes: it cuts at sure bounds the reference does not try (tests/engine/ai/
    test_native_core.py). :attr:`nodes` counts the path's own nodes, so a work budget buys
    the core more search.
    """

    def __init__(self, trump: int, closer: int | None, snapshot: tuple[int, int] | None,
                 bonus: int, last_trick_wins: bool, pending_melds: bool = True, *,
                 automatic_66: bool = False, next_trick_melds: bool = False,
                 played_out_one: bool = False, ten_low: bool = False,
                 native: bool = True) -> None:
        self.trump = trump
        self._beaters = (BEATERS_TEN_LOW if ten_low else BEATERS)[trump]
        #: ``_higher[c]``: the cards of ``c``'s suit that beat it.
        self._higher = HIGHER_IN_SUIT_TEN_LOW if ten_low else HIGHER_IN_SUIT
        self.closer = closer
        self.snapshot = snapshot
        self.bonus = bonus
        self.last_trick_wins = last_trick_wins
        self.pending_melds = pending_melds
        self.automatic_66 = automatic_66
        self.next_trick_melds = next_trick_melds
        self.played_out_one = played_out_one
        #: Transposition tables, ``_tts[p << 2 | tk]`` for player ``p`` on lead and tricks
        #: ``tk``, keyed by :func:`position_key`; an entry packs (lower bound, upper bound,
        #: best lead) as ``_entry(lo, hi) | lead << 8``. Positions of two tricks are not kept.
        self._tts: list[dict[int, int]] = []
        self._order_key = trump << CARDS
        #: Nodes searched (calls of :meth:`lead`: a trick each), for work budgets.
        self.nodes = 0
        self._trump_mask = SUIT_MASKS[trump]
        self._meld_value = MELD_VALUES[trump]
        self._core: Core | None = None
        if native and NATIVE_CORE is not None:  # the core holds the tables
            self._core = NATIVE_CORE(trump, closer, snapshot, bonus, last_trick_wins,
                                     pending_melds, next_trick_melds, played_out_one, ten_low)
        else:
            self._tts = [{}, {}, {}, {}, {}, {}, {}, {}]

    @classmethod
    def for_position(cls, pos: Position, native: bool = True) -> Solver:
        return Solver(pos.trump, pos.closer, pos.snapshot, pos.bonus, pos.last_trick_wins,
                      pos.pending_melds, automatic_66=pos.automatic_66,
                      next_trick_melds=pos.next_trick_melds,
                      played_out_one=pos.played_out_one, ten_low=pos.ten_low, native=native)

    @property
    def native(self) -> bool:
        """Whether this solver searches with the native core."""
        return self._core is not None

    # ------------------------------------------------------------------ outcomes

    def declare_value(self, d: int, p0: int, p1: int, tk: int) -> int:
        """Game points for ``d`` declaring correctly with credited points ``p0``, ``p1``
        (``tk``: bit p set if p has a trick)."""
        o = 1 - d
        closer = self.closer
        if closer is None:
            return _TABLE[(tk >> o) & 1][p1 if o else p0]
        snap = self.snapshot
        assert snap is not None
        if closer == d:
            return _TABLE[snap[1] > 0][snap[0]]
        if snap[1] == 0:
            return 3
        return max(2, _TABLE[(tk >> o) & 1][p1 if o else p0])

    def played_out_value(self, last: int, p0: int, p1: int, tk: int) -> int:
        """Game points for player 0 when all cards are played; ``last`` took the last trick."""
        closer = self.closer
        if closer is not None:
            snap = self.snapshot
            assert snap is not None
            if (p0 if closer == 0 else p1) >= DECLARE_TARGET:
                v = _TABLE[snap[1] > 0][snap[0]]
            else:
                v = -(3 if snap[1] == 0 else 2)
            return v if closer == 0 else -v
        if self.last_trick_wins:
            winner = last
        else:
            if last == 0:
                p0 += self.bonus
            else:
                p1 += self.bonus
            if p0 == p1:
                return 0
            winner = 0 if p0 > p1 else 1
        if self.played_out_one:
            return 1 if winner == 0 else -1
        loser_pts = p1 if winner == 0 else p0
        v = _TABLE[(tk >> (1 - winner)) & 1][loser_pts]
        return v if winner == 0 else -v

    # ------------------------------------------------------------------ search

    def follows(self, hand: int, led: Card) -> int:
        """Cards of ``hand`` that may answer ``led`` under strict play."""
        follow = hand & _SUIT_MASK_OF[led]
        if follow:
            return follow & self._higher[led] or follow
        return hand & self._trump_mask or hand

    def lead(self, p: int, h0: int, h1: int, p0: int, p1: int, tk: int, pend0: int,
             pend1: int, alpha: int, beta: int, melded: int | None = None) -> int:
        """Value for ``p`` on lead (negamax); declares at once when he can reach 66."""
        core = self._core
        if core is None:
            return self._lead(p, h0, h1, p0, p1, tk, pend0, pend1, alpha, beta, melded)
        v = core.lead(p, h0, h1, p0, p1, tk, pend0, pend1, alpha, beta, melded)
        self.nodes = core.nodes
        return v

    def _lead(self, p: int, h0: int, h1: int, p0: int, p1: int, tk: int, pend0: int,
              pend1: int, alpha: int, beta: int, melded: int | None = None) -> int:
        """:meth:`lead` in Python.

        The follower's answers are searched here too (as :meth:`follow` would, with the same
        order and windows), one call per trick instead of two.
        """
        self.nodes += 1
        mine = h0 if p == 0 else h1
        my_pts = p0 if p == 0 else p1
        has_trick = (tk >> p) & 1
        if has_trick and my_pts >= _MELD_REACH:
            if my_pts >= DECLARE_TARGET:
                return self.declare_value(p, p0, p1, tk)
            if melded is None and not self.next_trick_melds:
                # A marriage held (its King's bit) whose meld reaches 66: he melds and
                # declares; the value counts only the opponent's points.
                both = mine & mine >> 1 & _KINGS
                if both and my_pts + (TRUMP_MELD_POINTS if both & self._trump_mask
                                      else MELD_POINTS) >= DECLARE_TARGET:
                    return self.declare_value(p, p0, p1, tk)
        others = mine & (mine - 1)  # his hand without its lowest card
        if not others:
            return self._last_trick(p, h0, h1, p0, p1, tk, pend0, pend1)
        # With two tricks left (at most four last tricks below) the search costs less than
        # the table's probe and store: the table holds positions of 3 or more tricks.
        tabled = others & (others - 1)
        tt = self._tts[p << 2 | tk]
        key = 0
        entry = -1
        if tabled:
            # position_key(...), its common case inlined (a call would cost the pure path a
            # tenth)
            k0 = p0 + pend0
            k1 = p1 + pend1
            if (k0 | k1) >> 7 | (h0 | h1) >> 24 or melded is not None or self.next_trick_melds:
                key = position_key(h0, h1, p0, p1, pend0, pend1, melded, True)
            else:
                key = h0 | h1 << 24 | (k0 | k1 << 7) << 48
            entry = tt.get(key, -1)
        best_move = -1
        if entry >= 0:
            lo = (entry & 15) - _WIN
            hi = (entry >> 4 & 15) - _WIN
            best_move = entry >> 8
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        leads = mine if melded is None else mine & MARRIAGES[melded]
        if best_move < 0:
            moves = _LEAD_ORDERS.get(leads | self._order_key) or _lead_order(leads, self.trump)
        else:  # the table's best lead first
            moves = (_LEAD_ORDERS.get(leads | self._order_key | (best_move + 1) << _FIRST_SHIFT)
                     or _lead_order(leads, self.trump, best_move))
        a0 = alpha
        best = -_WIN
        bm = moves[0]
        # A meld already made (``melded``) is counted in the points; else leading K or Q melds.
        may_meld = melded is None and (has_trick or self.pending_melds)
        f = 1 - p
        theirs = h1 if p == 0 else h0
        trump_mask = self._trump_mask
        higher = self._higher
        for c in moves:
            q0 = p0  # one name at a time: no tuple to pack in pure Python
            q1 = p1
            e0 = pend0
            e1 = pend1
            m = MARRIAGE_OF[c]
            if may_meld and m and mine & m == m:
                mv = self._meld_value[c // 6]
                if has_trick and not self.next_trick_melds:
                    if p == 0:
                        q0 += mv
                    else:
                        q1 += mv
                elif p == 0:
                    e0 += mv
                else:
                    e1 += mv
            rest = mine ^ (1 << c)
            # The follower's legal answers (docs/rules.md §2): all of one kind, winning or losing.
            follow = theirs & _SUIT_MASK_OF[c]
            if follow:
                legal = follow & higher[c]
                wins = bool(legal)
                replies = _CHEAPEST_FIRST[legal or follow]
            else:
                legal = theirs & trump_mask
                if legal:
                    wins = True  # the led card is no trump: he holds none of its suit
                    replies = _CHEAPEST_FIRST[legal]
                else:
                    wins = False
                    replies = _DISCARDS.get(theirs) or _discards(theirs)
            w = f if wins else p
            # Every reply gives the trick to ``w``: credit_trick of the led card once (his
            # pending melds too), then each reply adds its points.
            if w == 0:
                r0 = q0 + POINTS[c] + e0
                r1 = q1
                g0 = 0
                g1 = e1
                t = tk | 1
            else:
                r0 = q0
                r1 = q1 + POINTS[c] + e1
                g0 = e0
                g1 = 0
                t = tk | 2
            # The follower minimises the leader's value: ``b`` is his best so far.
            b = beta
            worst = _WIN
            for r in replies:
                if w == 0:
                    s0, s1 = r0 + POINTS[r], r1
                else:
                    s0, s1 = r0, r1 + POINTS[r]
                if p == 0:
                    n0, n1 = rest, theirs ^ (1 << r)
                else:
                    n0, n1 = theirs ^ (1 << r), rest
                if not tabled:  # one card each after this trick
                    # As lead() would: the trick's winner declares with 66, else the last
                    # trick is forced.
                    if (s0 if w == 0 else s1) >= DECLARE_TARGET:
                        v = self.declare_value(w, s0, s1, t)
                    else:
                        v = self._last_trick(w, n0, n1, s0, s1, t, g0, g1)
                    if w != p:
                        v = -v
                elif w == p:
                    v = self._lead(p, n0, n1, s0, s1, t, g0, g1, alpha, b)
                else:
                    v = -self._lead(f, n0, n1, s0, s1, t, g0, g1, -b, -alpha)
                if v < worst:
                    worst = v
                    if v < b:
                        b = v
                        if b <= alpha:
                            break
            if worst > best:
                best = worst
                bm = c
                if worst > alpha:
                    alpha = worst
                    if alpha >= beta:
                        break
        # _entry(lo, hi) | bm << 8, inlined (a call per node costs the pure path too)
        if not tabled:
            return best
        if best <= a0:
            tt[key] = (best + _WIN) << 4 | bm << 8
        elif best >= beta:
            tt[key] = best + _WIN | 2 * _WIN << 4 | bm << 8
        else:
            tt[key] = best + _WIN | (best + _WIN) << 4 | bm << 8
        return best

    def _last_trick(self, p: int, h0: int, h1: int, p0: int, p1: int, tk: int, pend0: int,
                    pend1: int) -> int:
        """Value for ``p`` on lead of the last trick (one card each, both forced)."""
        led, reply = (h0, h1) if p == 0 else (h1, h0)
        c = led.bit_length() - 1
        r = reply.bit_length() - 1
        w = 1 - p if self._beaters[c] >> r & 1 else p
        if w == 0:  # credit_trick
            p0 += POINTS[c] + POINTS[r] + pend0
            tk |= 1
        else:
            p1 += POINTS[c] + POINTS[r] + pend1
            tk |= 2
        v0 = self.played_out_value(w, p0, p1, tk)
        return v0 if p == 0 else -v0

    def follow(self, f: int, led: Card, h0: int, h1: int, p0: int, p1: int, tk: int,
               pend0: int, pend1: int, alpha: int, beta: int) -> int:
        """Value for follower ``f`` answering ``led``."""
        core = self._core
        if core is None:
            return self._follow(f, led, h0, h1, p0, p1, tk, pend0, pend1, alpha, beta)
        v = core.follow(f, led, h0, h1, p0, p1, tk, pend0, pend1, alpha, beta)
        self.nodes = core.nodes
        return v

    def _follow(self, f: int, led: Card, h0: int, h1: int, p0: int, p1: int, tk: int,
                pend0: int, pend1: int, alpha: int, beta: int) -> int:
        """:meth:`follow` in Python."""
        hand = h0 if f == 0 else h1
        legal = self.follows(hand, led)
        beaters = self._beaters[led]
        wins = cards_of(legal & beaters)
        loses = cards_of(legal & ~beaters)
        # Cheapest winner first (cards_of lists high to low), then the cheapest loser.
        wins.sort(key=POINTS.__getitem__)
        loses.sort(key=POINTS.__getitem__)
        other = 1 - f
        best = -_WIN
        trick_pts_base = POINTS[led]
        for c in wins + loses:
            w = f if beaters >> c & 1 else other
            q0, q1, t, e0, e1 = credit_trick(w, trick_pts_base + POINTS[c], p0, p1, tk, pend0,
                                             pend1)
            n0 = h0 & ~(1 << c) if f == 0 else h0
            n1 = h1 & ~(1 << c) if f == 1 else h1
            if not (n0 | n1):
                v0 = self.played_out_value(w, q0, q1, t)
                v = v0 if f == 0 else -v0
            elif w == f:
                v = self._lead(f, n0, n1, q0, q1, t, e0, e1, alpha, beta)
            else:
                v = -self._lead(other, n0, n1, q0, q1, t, e0, e1, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    # ------------------------------------------------------------------ entry points

    def value(self, pos: Position) -> int:
        """Exact game points of ``pos`` for the player to move."""
        return self._node(pos, -_WIN, _WIN)

    def _node(self, pos: Position, alpha: int, beta: int) -> int:
        h0, h1 = pos.hands
        p0, p1 = pos.points
        tk = (pos.tricks[0] > 0) | (pos.tricks[1] > 0) << 1
        e0, e1 = pos.pending
        if pos.table_card is None:
            return self.lead(pos.to_move, h0, h1, p0, p1, tk, e0, e1, alpha, beta, pos.melded)
        return self.follow(pos.to_move, pos.table_card, h0, h1, p0, p1, tk, e0, e1, alpha, beta)

    def card_values(self, pos: Position) -> dict[Card, int]:
        """Exact game points for the player to move of playing each legal card.

        On lead, playing the King or Queen of a held marriage includes its meld (under
        ``automatic_66`` a meld reaching 66 ends the hand: the card is worth that). Declaring
        is not a card: a player on lead holding 66 declares instead (see :meth:`lead`).
        """
        h0, h1 = pos.hands
        p = pos.to_move
        mine = h0 if p == 0 else h1
        out: dict[Card, int] = {}
        tk = (pos.tricks[0] > 0) | (pos.tricks[1] > 0) << 1
        if pos.table_card is not None:
            for c in cards_of(self.follows(mine, pos.table_card)):
                n0 = h0 & ~(1 << c) if p == 0 else h0
                n1 = h1 & ~(1 << c) if p == 1 else h1
                out[c] = self._follow_card(p, pos.table_card, c, n0, n1, pos.points, tk,
                                           pos.pending)
            return out
        hand = mine & MARRIAGES[pos.melded] if pos.melded is not None else mine
        for c in cards_of(hand):
            q = list(pos.points)
            e = list(pos.pending)
            m = MARRIAGE_OF[c]
            if m and mine & m == m and pos.melded is None and (pos.tricks[p]
                                                               or self.pending_melds):
                if pos.tricks[p] and not self.next_trick_melds:
                    q[p] += self._meld_value[c // 6]
                else:
                    e[p] += self._meld_value[c // 6]
            if self.automatic_66 and q[p] >= DECLARE_TARGET:
                out[c] = self.declare_value(p, q[0], q[1], tk)  # the meld reached 66: the hand ends
                continue
            n0 = h0 & ~(1 << c) if p == 0 else h0
            n1 = h1 & ~(1 << c) if p == 1 else h1
            out[c] = -self.follow(1 - p, c, n0, n1, q[0], q[1], tk, e[0], e[1], -_WIN, _WIN)
        return out

    def _follow_card(self, f: int, led: Card, c: Card, h0: int, h1: int,
                     points: tuple[int, int], tk: int, pending: tuple[int, int]) -> int:
        w = f if self._beaters[led] >> c & 1 else 1 - f
        q = list(points)
        e = list(pending)
        q[w] += POINTS[led] + POINTS[c]
        if e[w] or not tk >> w & 1:
            tk |= 1 << w
            q[w] += e[w]
            e[w] = 0
        if not (h0 | h1):
            v0 = self.played_out_value(w, q[0], q[1], tk)
            return v0 if f == 0 else -v0
        v = self.lead(w, h0, h1, q[0], q[1], tk, e[0], e[1], -_WIN, _WIN)
        return v if w == f else -v


def position_key(h0: int, h1: int, p0: int, p1: int, e0: int, e1: int,
                 melded: int | None, wide: bool) -> int:
    """A transposition key (an int, not a tuple: nothing to allocate in compiled code and
    nothing for the garbage collector) of the hands, credited points ``p0``, ``p1``, pending
    melds ``e0``, ``e1`` and the ``melded`` suit, within a table of one player on lead and
    one ``tk`` (bit p: p has a trick).

    A side has credited points only after its first trick and, unless melds stay pending
    after it (``wide``: ``meld_credit`` ``next_trick``), pending melds only before it: with
    ``tk`` apart, its score is one number, ``points + pending``, of 7 bits while below 128,
    and with hands of the 24 cards the key fits 62 bits, a machine integer of compiled code.
    Any other position (``wide``, a suit just melded, a card of the 32-card pack's 8s and
    7s) takes a negative key holding every field apart.
    :meth:`Solver.lead` inlines the common case.
    """
    g0 = p0 + e0
    g1 = p1 + e1
    if not ((g0 | g1) >> 7 | (h0 | h1) >> 24 or melded is not None or wide):
        return h0 | h1 << 24 | (g0 | g1 << 7) << 48
    m = 0 if melded is None else melded + 1
    # Hands of 32 bits; points are at most 220 (120 in tricks, 100 in melds): 8 bits each.
    return ~(h0 | h1 << 32 | m << 64 | p0 << 67 | p1 << 75 | e0 << 83 | e1 << 91)


def _entry(lo: int, hi: int) -> int:
    """A transposition entry's bounds (each −4..4), packed: ``lo + 4 | (hi + 4) << 4``."""
    return lo + _WIN | (hi + _WIN) << 4


def credit_trick(w: int, won: int, p0: int, p1: int, tk: int, e0: int, e1: int
                 ) -> tuple[int, int, int, int, int]:
    """``(p0, p1, tk, e0, e1)`` after player ``w`` takes a trick worth ``won`` points: his
    pending melds (``e0``, ``e1``) are credited with the trick: by default only a first trick
    (bit ``w`` of ``tk``) finds any, with ``meld_credit`` ``next_trick`` any trick may.
    :meth:`Solver.lead` and :meth:`~engine.ai.talon.TalonSolver.follow` do the same in place
    (their hot loops). Crediting whatever is
    pending with every trick is that rule: nothing is pending after a first trick unless
    under ``next_trick``."""
    if w == 0:
        return p0 + won + e0, p1, tk | 1, 0, e1
    return p0, p1 + won + e1, tk | 2, e0, 0


#: Where a cached lead order's forced first card sits in its key (above the trump).
_FIRST_SHIFT: Final = CARDS + 2


def _lead_order(hand: int, trump: int, first: Card = -1) -> tuple[Card, ...]:
    """The leads of ``hand`` in search order (kept in :data:`_LEAD_ORDERS`, by ``hand |
    trump << CARDS | (first + 1) << _FIRST_SHIFT``): side cards, most points first (ties in
    index order), then trumps, high to low; ``first`` (a card of ``hand``) moved to the
    front."""
    order = _LEAD_ORDERS.get(hand | trump << CARDS)
    if order is None:
        trumps = hand & SUIT_MASKS[trump]
        side = hand ^ trumps
        if hand >> 24:
            order = (*by_points(side, True), *cards_of(trumps))
        else:
            c, s, h, d = _RANK_MAJOR
            side = c[side & 63] | s[side >> 6 & 63] | h[side >> 12 & 63] | d[side >> 18]
            order = (*_DOWN[0][side & 4095], *_DOWN[1][side >> 12],
                     *_HIGH_FIRST[trump][trumps >> 6 * trump])
        if len(_LEAD_ORDERS) < _CACHE_LIMIT:
            _LEAD_ORDERS[hand | trump << CARDS] = order
    if first < 0:
        return order
    if order[0] != first:
        i = order.index(first)
        order = (first, *order[:i], *order[i + 1:])
    if len(_LEAD_ORDERS) < _CACHE_LIMIT:
        _LEAD_ORDERS[hand | trump << CARDS | (first + 1) << _FIRST_SHIFT] = order
    return order


def _discards(hand: int) -> tuple[Card, ...]:
    """Cards of ``hand`` (none of them winning) cheapest first; ties in index order."""
    if hand >> 24:
        order = by_points(hand, False)
    else:
        c, s, h, d = _RANK_MAJOR
        ranks = c[hand & 63] | s[hand >> 6 & 63] | h[hand >> 12 & 63] | d[hand >> 18]
        order = (*UP[1][ranks >> 12], *UP[0][ranks & 4095])  # the lowest points first
    if len(_DISCARDS) < _CACHE_LIMIT:
        _DISCARDS[hand] = order
    return order


def by_points(hand: int, most_first: bool) -> tuple[Card, ...]:
    """The cards of ``hand`` by their points, most or fewest first, ties in index order (as
    the rank-major tables order the 24 cards; this is their slower twin for any card)."""
    cards = [c for c in range(CARDS) if hand >> c & 1]
    cards.sort(key=lambda c: -POINTS[c] if most_first else POINTS[c])
    return tuple(cards)


def rank_major(hand: int) -> int:
    """``hand`` as a rank-major mask (see :data:`_RANK_MAJOR`)."""
    c, s, h, d = _RANK_MAJOR
    return c[hand & 63] | s[hand >> 6 & 63] | h[hand >> 12 & 63] | d[hand >> 18 & 63]


def solve(state: GameState, native: bool = True) -> int:
    """Exact game points for the side to move of a two-hand state in phase 2 (``native``:
    by the native core where it is built)."""
    if native and NATIVE_SOLVE is not None:
        return _solve_native(state, NATIVE_SOLVE)
    pos = Position.from_state(state)
    return Solver.for_position(pos, native).value(pos)


def _solve_native(state: GameState, core_solve: Callable[..., int]) -> int:
    """:func:`solve` by the native core in one call (``_core.solve``): the fields of
    :meth:`Position.from_state` as ints (``-1`` for none; the rules as flag bits), no
    ``Position``, ``Solver`` or table object made."""
    a, b = active = state.active
    to_act = state.to_act()
    assert to_act is not None and not state.talon_open
    rules = state.rules
    variant = rules.variant
    s0, s1 = (a % 2, b % 2) if variant.players == 4 else (a, b)
    trick = state.trick
    if state.melds:
        p0, p1 = state.credited_points(s0), state.credited_points(s1)
        e0, e1 = state.meld_points(s0, False), state.meld_points(s1, False)
    else:
        won = state.won_points
        p0, p1, e0, e1 = won[s0], won[s1], 0, 0
    tricks = state.won_tricks
    closed_by = state.closed_by
    snapshot = state.closed_snapshot
    snap0, snap1 = (0, 0) if snapshot is None else snapshot
    melded = state.melded_suit
    flags = (variant.last_trick_wins | (rules.meld_before_first_trick == "pending") << 1
             | (rules.meld_credit == "next_trick") << 2
             | (rules.played_out_points == "one") << 3 | (rules.ten_rank == "low") << 4)
    hands = state.hands
    return core_solve(
        state.trump, -1 if closed_by is None else active.index(closed_by), snap0, snap1,
        rules.bonus, flags, 0 if to_act == a else 1, hands[a], hands[b], p0, p1,
        (tricks[s0] > 0) | (tricks[s1] > 0) << 1, e0, e1, trick[0] if trick else -1,
        -1 if trick or melded is None else melded)


def _native_core() -> tuple[type[Core] | None, type[Talon] | None,
                            Callable[..., int] | None]:
    """The native search core's classes and its one-call :func:`solve`
    (:func:`engine.native.search_core`), given this module's tables, or ``None`` (the
    searches are the Python ones)."""
    module = search_core()
    if module is None:
        return None, None, None
    every = (1 << CARDS) - 1
    module.configure(
        POINTS, SUIT_OF, SUIT_MASKS, HIGHER_IN_SUIT, HIGHER_IN_SUIT_TEN_LOW,
        [m for row in BEATERS for m in row], [m for row in BEATERS_TEN_LOW for m in row],
        MARRIAGE_OF, MARRIAGES, [v for row in MELD_VALUES for v in row], cards_of(every),
        by_points(every, True), by_points(every, False),
        [table(t, p)[0] for t in (0, 1) for p in range(256)],
        (DECLARE_TARGET, _MELD_REACH, TRUMP_MELD_POINTS, MELD_POINTS, _KINGS))
    core: type[Core] = module.Core
    talon: type[Talon] = module.Talon
    return core, talon, module.solve


#: The native core's classes and one-call solve, or ``None``: :class:`Solver`,
#: :class:`~engine.ai.talon.TalonSolver` and :func:`solve` search with them when it is
#: built. (Not ``Final``: mypyc 2.4 miscompiles a ``Final`` optional tuple.)
NATIVE_CORE, NATIVE_TALON, NATIVE_SOLVE = _native_core()
