"""Exact search of a Tausendeins deal whose cards are all known (perfect information).

Used where no card is hidden from a seat that counts them: the stock deal from trick 5 on,
and, per sampled deal, the last tricks of the musik deal or the ``all`` deal. The value of a
position for ``seat`` is the change of his total minus the other's when the deal is settled
(the engine's own settlement: contract made or failed, marriages credited or forfeited,
rounding, the last trick and the leftover), so a contract's threshold is searched, not
approximated. Alpha-beta with a memo table of bounds, keyed by everything that decides the
rest of the deal (both hands, the table, leader, trump, the melds so far, each seat's card
points and whether he has won a trick). Bounded: past ``max_nodes`` positions it raises
:class:`SearchBudgetExceeded`, and the caller falls back to sampling playouts. A musik raise
is never searched (the solver values plays and melds).
"""

from __future__ import annotations

from typing import Final

from engine.cards import points_of
from engine.tausendeins.actions import RAISE, T1001Action
from engine.tausendeins.ai.knowledge import clone
from engine.tausendeins.game import apply, legal_actions
from engine.tausendeins.state import PLAYING, T1001State

_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2
_INF: Final = 10**6


class SearchBudgetExceeded(Exception):
    """The exact search visited more positions than it was allowed."""


def deal_value(state: T1001State, seat: int) -> int:
    """``seat``'s total minus the other's (after the deal is settled, its change counts)."""
    return state.totals[seat] - state.totals[1 - seat]


def moves(state: T1001State) -> tuple[int, list[T1001Action]]:
    """The seat to move and its searched actions (all legal ones but a musik raise)."""
    mover = state.to_act()
    assert mover is not None
    return mover, [a for a in legal_actions(state, mover) if a.kind != RAISE]


def child(state: T1001State, mover: int, action: T1001Action) -> T1001State:
    nxt = clone(state)
    apply(nxt, mover, action)
    return nxt


def _key(s: T1001State) -> tuple[object, ...]:
    return (s.hands[0], s.hands[1], tuple(s.trick), s.leader, s.trump, s.melded_suit,
            tuple((m.seat, m.value, m.state) for m in s.marriages),
            points_of(s.taken[0]), points_of(s.taken[1]), s.won_tricks(0) > 0,
            s.won_tricks(1) > 0)


class Solver:
    """Alpha-beta with a memo table over one perfect-information deal, for ``seat``."""

    def __init__(self, seat: int, max_nodes: int) -> None:
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        self.memo: dict[tuple[object, ...], tuple[int, int]] = {}

    def value(self, state: T1001State, alpha: int = -_INF, beta: int = _INF) -> int:
        """The exact value of ``state`` for ``self.seat`` (within the window, as alpha-beta
        bounds)."""
        if state.status != PLAYING:
            return deal_value(state, self.seat)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchBudgetExceeded(f"more than {self.max_nodes} positions")
        key = _key(state)
        hit = self.memo.get(key)
        if hit is not None:
            flag, v = hit
            if flag == _EXACT or (flag == _LOWER and v >= beta) or \
                    (flag == _UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        mover, actions = moves(state)
        maxing = mover == self.seat
        best = -_INF if maxing else _INF
        for action in actions:
            v = self.value(child(state, mover, action), alpha, beta)
            if maxing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        flag = _LOWER if best >= b0 else _UPPER if best <= a0 else _EXACT
        self.memo[key] = (flag, best)
        return best

    def best_action(self, state: T1001State) -> tuple[T1001Action, int]:
        """A best searched action of the seat to move (``self.seat``; the first of equals) and
        its exact value: one alpha-beta search, cheaper than every action's value."""
        mover, actions = moves(state)
        assert mover == self.seat
        best, alpha = actions[0], -_INF
        for a in actions:
            v = self.value(child(state, mover, a), alpha, _INF)
            if v > alpha:
                best, alpha = a, v
        return best, alpha

    def action_values(self, state: T1001State) -> list[tuple[T1001Action, int]]:
        """Each searched action of the seat to move (``self.seat``) with its exact value."""
        mover, actions = moves(state)
        assert mover == self.seat
        return [(a, self.value(child(state, mover, a))) for a in actions]


def minimax(state: T1001State, seat: int) -> int:
    """The plain minimax value for ``seat`` (no pruning, no memo): the reference the tests
    hold :class:`Solver` to, on small endgames."""
    if state.status != PLAYING:
        return deal_value(state, seat)
    mover, actions = moves(state)
    values = [minimax(child(state, mover, a), seat) for a in actions]
    return max(values) if mover == seat else min(values)
