"""Exact search of two-hand play with the talon still open, for one sampled deal.

In a sampled deal the order of the talon is fixed, so the rest of the hand is a game of perfect
information. :class:`TalonSolver` searches it by negamax alpha-beta over bitmask hands with a
transposition table, and hands over to the phase-2 :class:`~engine.ai.solver.Solver` once the
talon is closed or exhausted. Values are game points (−3..3) for the player to move.

Phase-1 rules (docs/rules.md §2): no duty to follow; the trick's winner draws the top card, the
loser the next (the last card of the talon goes to the loser). The player on lead may exchange
the low trump (``exchange_rank``) for the bottom card, close (then phase 2 with the closing
snapshot), meld by leading the King or Queen of a held marriage (pending before a first trick
unless ``meld_before_first_trick`` forbids it) and declares at once when he can reach 66,
as in the phase-2 solver. The options of other rule sets are respected: no closing without
``closing``; ``automatic_66``, ``meld_credit`` and ``played_out_points`` as in the phase-2
solver (a meld is held pending under ``next_trick`` and credited with its side's next trick).
Search cost grows fast with the talon: callers use it when the
talon is short (see ``Level.search_talon`` in :mod:`engine.ai.player`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine.ai.solver import (
    _CACHE_LIMIT,
    _CHEAPEST_FIRST,
    NATIVE_TALON,
    UP,
    Solver,
    _entry,
    by_points,
    position_key,
    rank_major,
)
from engine.cards import (
    BEATERS,
    BEATERS_TEN_LOW,
    CARDS,
    MARRIAGE_OF,
    MARRIAGES,
    MELD_VALUES,
    POINTS,
    SUIT_MASKS,
    Card,
    card,
)
from engine.rules import Rules
from engine.scoring import DECLARE_TARGET
from engine.state import GameState

if TYPE_CHECKING:
    from engine.ai._core import Talon

_WIN: Final = 4


class TalonSolver:
    """Searches phase-1 positions of one hand (fixed trump and rules); reuse it per sample.

    Players are 0 and 1 (indices into ``GameState.active``); ``talon`` tuples hold the bottom
    card first and the top card last, as :attr:`engine.state.GameState.talon`.

    :meth:`lead` and :meth:`follow` run the native core's :class:`~engine.ai._core.Talon`
    where it is built, unless ``native`` is false; ``_lead``, ``_follow`` and
    ``_lead_options`` are the Python reference it must equal value for value, in fewer
    nodes (it cuts at sure bounds the reference does not try; tests/engine/ai/
    test_native_core.py).
    """

    def __init__(self, rules: Rules, trump: int, native: bool = True) -> None:
        self.trump = trump
        self.ten_low = rules.ten_rank == "low"
        self._beaters = (BEATERS_TEN_LOW if self.ten_low else BEATERS)[trump]
        self._trump_key = trump << CARDS
        #: The key of this hand's follow orders in :data:`_FOLLOW_ORDERS`, above the hand and
        #: the card led.
        self._follow_key = (trump << 1 | self.ten_low) << CARDS + 5
        self.bonus = rules.bonus
        self.last_trick_wins = rules.variant.last_trick_wins
        rank = rules.variant.exchange_rank
        self.low_trump = card(rank, trump) if rank is not None else None
        self.exchange_min = rules.exchange_min_talon
        self.exchange_needs_trick = rules.exchange_requires_trick
        self.close_min = rules.close_min_talon
        self.may_close = rules.closing
        self.pending_melds = rules.meld_before_first_trick == "pending"
        self.next_trick_melds = rules.meld_credit == "next_trick"
        #: Keyword options of every phase-2 :class:`Solver` of the hand (``native``: searching
        #: with the native core where it is built).
        self._options = {"automatic_66": rules.automatic_66,
                         "next_trick_melds": self.next_trick_melds,
                         "played_out_one": rules.played_out_points == "one",
                         "ten_low": self.ten_low, "native": native}
        self._meld_value = MELD_VALUES[trump]
        self._trump_mask = SUIT_MASKS[trump]
        self._open = Solver(trump, None, None, self.bonus, self.last_trick_wins,
                            self.pending_melds, **self._options)
        self._closed: dict[tuple[int, int, int], Solver] = {}
        #: Transposition tables by talon (bottom card first): as the phase-2 solver's, one per
        #: player on lead and tricks taken (``p << 2 | tk``), keyed by
        #: :func:`~engine.ai.solver.position_key`; an entry packs (lower bound, upper bound)
        #: as :func:`~engine.ai.solver._entry` does.
        self._tables: dict[tuple[Card, ...], list[dict[int, int]]] = {}
        #: Nodes searched (lead and follow decisions of phase 1), for budgets and tests.
        self.nodes = 0
        self._core: Talon | None = None
        if native and NATIVE_TALON is not None:
            self._core = NATIVE_TALON(
                trump, self.bonus, self.last_trick_wins, self.pending_melds,
                self.next_trick_melds, rules.played_out_points == "one", self.ten_low,
                self.low_trump, self.exchange_min, self.exchange_needs_trick, self.close_min,
                self.may_close)

    @property
    def native(self) -> bool:
        """Whether this search runs on the native core."""
        return self._core is not None

    @property
    def solver_nodes(self) -> int:
        """Nodes of the phase-2 solvers this search used (:attr:`Solver.nodes`)."""
        if self._core is not None:
            return self._core.solver_nodes
        return self._open.nodes + sum(s.nodes for s in self._closed.values())

    def value(self, state: GameState) -> int:
        """Exact game points for the player to move of a two-hand state with the talon open."""
        assert state.talon_open and len(state.active) == 2
        a, b = state.active
        sides = (state.side_of(a), state.side_of(b))
        to_act = state.to_act()
        assert to_act is not None
        p = state.active.index(to_act)
        h0, h1 = state.hands[a], state.hands[b]
        p0, p1 = state.credited_points(sides[0]), state.credited_points(sides[1])
        tk = (state.won_tricks[sides[0]] > 0) | (state.won_tricks[sides[1]] > 0) << 1
        e0, e1 = state.meld_points(sides[0], False), state.meld_points(sides[1], False)
        talon = tuple(state.talon)
        if state.trick:
            return self.follow(p, state.trick[0], h0, h1, talon, p0, p1, tk, e0, e1, -_WIN, _WIN)
        return self.lead(p, h0, h1, talon, p0, p1, tk, e0, e1, -_WIN, _WIN, state.melded_suit)

    # ------------------------------------------------------------------ search

    def _closed_solver(self, closer: int, opp_points: int, opp_trick: int) -> Solver:
        key = (closer, opp_points, opp_trick)
        solver = self._closed.get(key)
        if solver is None:
            solver = self._closed[key] = Solver(self.trump, closer, (opp_points, opp_trick),
                                                self.bonus, self.last_trick_wins,
                                                self.pending_melds, **self._options)
        return solver

    def lead(self, p: int, h0: int, h1: int, talon: tuple[Card, ...], p0: int, p1: int,
             tk: int, e0: int, e1: int, alpha: int, beta: int, melded: int | None = None) -> int:
        """Value for ``p`` on lead with the talon open; ``melded``: he must lead K or Q of it."""
        core = self._core
        if core is None:
            return self._lead(p, h0, h1, talon, p0, p1, tk, e0, e1, alpha, beta, melded)
        v = core.lead(p, h0, h1, talon, p0, p1, tk, e0, e1, alpha, beta, melded)
        self.nodes = core.nodes
        return v

    def _lead(self, p: int, h0: int, h1: int, talon: tuple[Card, ...], p0: int, p1: int,
              tk: int, e0: int, e1: int, alpha: int, beta: int, melded: int | None = None
              ) -> int:
        """:meth:`lead` in Python."""
        self.nodes += 1
        mine = h0 if p == 0 else h1
        my_pts = p0 if p == 0 else p1
        has_trick = (tk >> p) & 1
        if has_trick:
            if my_pts >= DECLARE_TARGET:
                return self._open.declare_value(p, p0, p1, tk)
            if melded is None and not self.next_trick_melds:
                for s in range(4):
                    if (mine & MARRIAGES[s] == MARRIAGES[s]
                            and my_pts + self._meld_value[s] >= DECLARE_TARGET):
                        mv = self._meld_value[s]
                        return self._open.declare_value(p, p0 + mv if p == 0 else p0,
                                                        p1 + mv if p == 1 else p1, tk)
        tables = self._tables.get(talon)
        if tables is None:
            tables = self._tables[talon] = [{} for _ in range(8)]
        tt = tables[p << 2 | tk]
        key = position_key(h0, h1, p0, p1, e0, e1, melded, self.next_trick_melds)
        entry = tt.get(key, -1)
        if entry >= 0:
            lo = (entry & 15) - _WIN
            hi = (entry >> 4 & 15) - _WIN
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        a0 = alpha
        best = -_WIN
        may_meld = melded is None and (has_trick or self.pending_melds)
        # Low side cards first (the usual phase-1 lead), trumps and high cards last.
        leads = mine if melded is None else mine & MARRIAGES[melded]
        for c in _LEAD_ORDERS.get(leads | self._trump_key) or _lead_order(leads, self.trump):
            q0, q1, f0, f1 = p0, p1, e0, e1
            m = MARRIAGE_OF[c]
            if may_meld and m and mine & m == m:
                mv = self._meld_value[c // 6]
                if has_trick and not self.next_trick_melds:
                    q0, q1 = (q0 + mv, q1) if p == 0 else (q0, q1 + mv)
                else:
                    f0, f1 = (f0 + mv, f1) if p == 0 else (f0, f1 + mv)
            if p == 0:
                v = -self._follow(1, c, h0 & ~(1 << c), h1, talon, q0, q1, tk, f0, f1,
                                  -beta, -alpha)
            else:
                v = -self._follow(0, c, h0, h1 & ~(1 << c), talon, q0, q1, tk, f0, f1,
                                  -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if alpha < beta and melded is None:
            for v in self._lead_options(p, h0, h1, talon, p0, p1, tk, e0, e1, alpha, beta):
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        if best <= a0:
            tt[key] = _entry(-_WIN, best)
        elif best >= beta:
            tt[key] = _entry(best, _WIN)
        else:
            tt[key] = _entry(best, best)
        return best

    def _lead_options(self, p: int, h0: int, h1: int, talon: tuple[Card, ...], p0: int,
                      p1: int, tk: int, e0: int, e1: int, alpha: int, beta: int) -> list[int]:
        """Values of exchanging (then leading) and of closing, for ``p`` on lead."""
        out: list[int] = []
        mine = h0 if p == 0 else h1
        low = self.low_trump
        if (low is not None and mine >> low & 1 and len(talon) >= self.exchange_min
                and (tk >> p & 1 or not self.exchange_needs_trick)):
            swap = (1 << low) | (1 << talon[0])
            n0, n1 = (h0 ^ swap, h1) if p == 0 else (h0, h1 ^ swap)
            out.append(self._lead(p, n0, n1, (low, *talon[1:]), p0, p1, tk, e0, e1, alpha,
                                  beta))
        if self.may_close and len(talon) >= self.close_min:
            o = 1 - p
            solver = self._closed_solver(p, p1 if o == 1 else p0, (tk >> o) & 1)
            out.append(solver.lead(p, h0, h1, p0, p1, tk, e0, e1, alpha, beta))
        return out

    def follow(self, f: int, led: Card, h0: int, h1: int, talon: tuple[Card, ...], p0: int,
               p1: int, tk: int, e0: int, e1: int, alpha: int, beta: int) -> int:
        """Value for follower ``f`` answering ``led`` with the talon open (no duty)."""
        core = self._core
        if core is None:
            return self._follow(f, led, h0, h1, talon, p0, p1, tk, e0, e1, alpha, beta)
        v = core.follow(f, led, h0, h1, talon, p0, p1, tk, e0, e1, alpha, beta)
        self.nodes = core.nodes
        return v

    def _follow(self, f: int, led: Card, h0: int, h1: int, talon: tuple[Card, ...], p0: int,
                p1: int, tk: int, e0: int, e1: int, alpha: int, beta: int) -> int:
        """:meth:`follow` in Python."""
        self.nodes += 1
        hand = h0 if f == 0 else h1
        beaters = self._beaters[led]
        order = (_FOLLOW_ORDERS.get(hand | led << CARDS | self._follow_key)
                 or _follow_order(hand, led, self.trump, self.ten_low))
        best = -_WIN
        top, second, rest = talon[-1], talon[-2], talon[:-2]
        for c in order:
            w = f if beaters >> c & 1 else 1 - f
            n0 = h0 & ~(1 << c) if f == 0 else h0
            n1 = h1 & ~(1 << c) if f == 1 else h1
            # credit_trick, inlined: a tuple of five boxed ints per answer, compiled
            q0 = p0
            q1 = p1
            g0 = e0
            g1 = e1
            if w == 0:
                q0 += POINTS[led] + POINTS[c] + e0
                g0 = 0
                t = tk | 1
                n0 |= 1 << top
                n1 |= 1 << second
            else:
                q1 += POINTS[led] + POINTS[c] + e1
                g1 = 0
                t = tk | 2
                n0 |= 1 << second
                n1 |= 1 << top
            if rest:
                vw = self._lead(w, n0, n1, rest, q0, q1, t, g0, g1,
                               alpha if w == f else -beta, beta if w == f else -alpha)
            else:
                vw = self._open.lead(w, n0, n1, q0, q1, t, g0, g1,
                                     alpha if w == f else -beta, beta if w == f else -alpha)
            v = vw if w == f else -vw
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best


#: Orders of leads (by hand and trump) and of answers (by hand, card led and trump), kept for
#: all searches as :mod:`engine.ai.solver` keeps its move orders.
_LEAD_ORDERS: Final[dict[int, tuple[Card, ...]]] = {}
_FOLLOW_ORDERS: Final[dict[int, tuple[Card, ...]]] = {}


def _cheap_first(hand: int, trump: int) -> tuple[Card, ...]:
    """The cards of ``hand``, side cards before trumps, each cheapest first (fewest points;
    ties in index order)."""
    trumps = hand & SUIT_MASKS[trump]
    if hand >> 24:
        return (*by_points(hand ^ trumps, False), *_CHEAPEST_FIRST.get(trumps, ()))
    side = rank_major(hand ^ trumps)
    return (*UP[1][side >> 12], *UP[0][side & 4095], *_CHEAPEST_FIRST.get(trumps, ()))


def _lead_order(hand: int, trump: int) -> tuple[Card, ...]:
    """The leads of ``hand`` in search order (kept in :data:`_LEAD_ORDERS`)."""
    order = _cheap_first(hand, trump)
    if len(_LEAD_ORDERS) < _CACHE_LIMIT:
        _LEAD_ORDERS[hand | trump << CARDS] = order
    return order


def _follow_order(hand: int, led: Card, trump: int, ten_low: bool) -> tuple[Card, ...]:
    """The answers of ``hand`` to ``led`` in search order (kept in :data:`_FOLLOW_ORDERS`, by
    ``hand | led << CARDS | (trump << 1 | ten_low) << CARDS + 5``): with a Ten or Ace led at
    stake the winners first, else the cheapest loser first; then each kind cheapest first
    (``ten_low``: option ``ten_rank`` low)."""
    beaters = (BEATERS_TEN_LOW if ten_low else BEATERS)[trump][led]
    wins = _cheap_first(hand & beaters, trump)
    loses = _cheap_first(hand & ~beaters, trump)
    order = wins + loses if POINTS[led] >= 10 else loses[:1] + wins + loses[1:]
    if len(_FOLLOW_ORDERS) < _CACHE_LIMIT:
        _FOLLOW_ORDERS[hand | led << CARDS | (trump << 1 | ten_low) << CARDS + 5] = order
    return order
