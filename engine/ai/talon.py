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

from typing import Final

from engine.ai.solver import _CHEAPEST_FIRST, UP, Solver, credit_trick, rank_major
from engine.cards import (
    BEATERS,
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

_WIN: Final = 4
#: A phase-1 transposition entry: lower bound, upper bound.
_Entry = tuple[int, int]


class TalonSolver:
    """Searches phase-1 positions of one hand (fixed trump and rules); reuse it per sample.

    Players are 0 and 1 (indices into ``GameState.active``); ``talon`` tuples hold the bottom
    card first and the top card last, as :attr:`engine.state.GameState.talon`.
    """

    def __init__(self, rules: Rules, trump: int) -> None:
        self.trump = trump
        self._beaters = BEATERS[trump]
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
        #: Keyword options of every phase-2 :class:`Solver` of the hand.
        self._options = {"automatic_66": rules.automatic_66,
                         "next_trick_melds": self.next_trick_melds,
                         "played_out_one": rules.played_out_points == "one"}
        self._meld_value = MELD_VALUES[trump]
        self._trump_mask = SUIT_MASKS[trump]
        self._open = Solver(trump, None, None, self.bonus, self.last_trick_wins,
                            self.pending_melds, **self._options)
        self._closed: dict[tuple[int, int, int], Solver] = {}
        self.tt: dict[tuple[int, ...], _Entry] = {}
        #: Nodes searched (lead and follow decisions of phase 1), for budgets and tests.
        self.nodes = 0

    @property
    def solver_nodes(self) -> int:
        """Nodes of the phase-2 solvers this search used (:attr:`Solver.nodes`)."""
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
        self.nodes += 1
        mine = h0 if p == 0 else h1
        my_pts = p0 if p == 0 else p1
        has_trick = (tk >> p) & 1
        if has_trick:
            if my_pts >= DECLARE_TARGET:
                return self._open.declare_value(p, (p0, p1), tk)
            if melded is None and not self.next_trick_melds:
                for s in range(4):
                    if (mine & MARRIAGES[s] == MARRIAGES[s]
                            and my_pts + self._meld_value[s] >= DECLARE_TARGET):
                        pts = [p0, p1]
                        pts[p] += self._meld_value[s]
                        return self._open.declare_value(p, pts, tk)
        key = (p, h0, h1, p0, p1, tk, e0, e1, -1 if melded is None else melded, *talon)
        entry = self.tt.get(key)
        if entry is not None:
            lo, hi = entry
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        a0 = alpha
        best = -_WIN
        may_meld = melded is None and (has_trick or self.pending_melds)
        for c in self._lead_order(mine, melded):
            q0, q1, f0, f1 = p0, p1, e0, e1
            m = MARRIAGE_OF[c]
            if may_meld and m and mine & m == m:
                mv = self._meld_value[c // 6]
                if has_trick and not self.next_trick_melds:
                    q0, q1 = (q0 + mv, q1) if p == 0 else (q0, q1 + mv)
                else:
                    f0, f1 = (f0 + mv, f1) if p == 0 else (f0, f1 + mv)
            if p == 0:
                v = -self.follow(1, c, h0 & ~(1 << c), h1, talon, q0, q1, tk, f0, f1,
                                 -beta, -alpha)
            else:
                v = -self.follow(0, c, h0, h1 & ~(1 << c), talon, q0, q1, tk, f0, f1,
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
            self.tt[key] = (-_WIN, best)
        elif best >= beta:
            self.tt[key] = (best, _WIN)
        else:
            self.tt[key] = (best, best)
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
            out.append(self.lead(p, n0, n1, (low, *talon[1:]), p0, p1, tk, e0, e1, alpha,
                                 beta))
        if self.may_close and len(talon) >= self.close_min:
            o = 1 - p
            solver = self._closed_solver(p, p1 if o == 1 else p0, (tk >> o) & 1)
            out.append(solver.lead(p, h0, h1, p0, p1, tk, e0, e1, alpha, beta))
        return out

    def _lead_order(self, hand: int, melded: int | None) -> tuple[Card, ...]:
        if melded is not None:
            hand &= MARRIAGES[melded]
        # Low side cards first (the usual phase-1 lead), trumps and high cards last.
        return self._cheap_first(hand)

    def _cheap_first(self, hand: int) -> tuple[Card, ...]:
        """The cards of ``hand``, side cards before trumps, each cheapest first (fewest
        points; ties in index order)."""
        trumps = hand & self._trump_mask
        side = rank_major(hand ^ trumps)
        return (*UP[1][side >> 12], *UP[0][side & 4095], *_CHEAPEST_FIRST.get(trumps, ()))

    def follow(self, f: int, led: Card, h0: int, h1: int, talon: tuple[Card, ...], p0: int,
               p1: int, tk: int, e0: int, e1: int, alpha: int, beta: int) -> int:
        """Value for follower ``f`` answering ``led`` with the talon open (no duty)."""
        self.nodes += 1
        hand = h0 if f == 0 else h1
        beaters = self._beaters[led]
        wins = self._cheap_first(hand & beaters)
        loses = self._cheap_first(hand & ~beaters)
        # Win with a Ten or Ace led at stake first, else try the cheapest loser first.
        order = wins + loses if POINTS[led] >= 10 else loses[:1] + wins + loses[1:]
        best = -_WIN
        top, second, rest = talon[-1], talon[-2], talon[:-2]
        for c in order:
            w = f if beaters >> c & 1 else 1 - f
            q0, q1, t, g0, g1 = credit_trick(w, POINTS[led] + POINTS[c], p0, p1, tk, e0, e1)
            n0 = h0 & ~(1 << c) if f == 0 else h0
            n1 = h1 & ~(1 << c) if f == 1 else h1
            drawn0, drawn1 = (top, second) if w == 0 else (second, top)
            n0 |= 1 << drawn0
            n1 |= 1 << drawn1
            if rest:
                vw = self.lead(w, n0, n1, rest, q0, q1, t, g0, g1,
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

