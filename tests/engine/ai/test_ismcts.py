"""Information-set tree search (engine.ai.ismcts): on one known deal it is UCT, so its most
tried first action is a best one by exact search, worth about its exact value (the opponent
answering with his best); as a level setting it ranks every action."""

from __future__ import annotations

import random
from functools import partial

from engine import PLAYING, Rules, apply, legal_actions, view
from engine.ai import evaluate
from engine.ai.ismcts import Node, choices, iterate
from engine.ai.player import outcome
from engine.ai.solver import solve
from engine.ai.talon import TalonSolver
from engine.state import GameState
from tests.engine.ai.test_talon import short_talon_positions


def _exact(state: GameState, side: int) -> float:
    """Game points for ``side`` of ``state`` by the exact search of the rest of the hand."""
    if state.status != PLAYING:
        return outcome(state, side)
    seat = state.to_act()
    assert seat is not None
    if not state.talon_open:
        v: float = solve(state)
    else:
        v = TalonSolver(state.rules, state.trump).value(state)
    return v if state.side_of(seat) == side else -v


def test_on_one_known_deal_the_most_tried_action_is_a_best_one() -> None:
    rules = Rules.make("sixty-six")
    checked = 0
    for state in short_talon_positions(rules, 23, 16, 4):
        if state.trick:
            continue
        seat = state.to_act()
        assert seat is not None
        side = state.side_of(seat)
        values = {}
        for a in choices(state, seat):
            after = state.copy()
            apply(after, seat, a)
            values[a] = _exact(after, side)
        root = Node()
        rng = random.Random(5)
        for _ in range(3000):
            iterate(root, state.copy(), side, lambda s: not s.talon_open or len(s.talon) <= 2,
                    partial(_exact, side=side), rng)
        best, node = max(root.children.items(), key=lambda item: item[1].visits)
        assert values[best] == max(values.values())
        assert abs(node.mean() - values[best]) < 0.25  # the opponent's replies: his best
        assert set(root.children) == set(values)
        checked += 1
    assert checked >= 6


def test_the_level_setting_ranks_every_legal_action() -> None:
    rules = Rules.make("sixty-six")
    for state in short_talon_positions(rules, 29, 4, 6):
        seat = state.to_act()
        assert seat is not None
        ev = evaluate(view(state, seat), "strong_v1:ismcts=1,search_from=6", random.Random(2),
                      budget_ms=1e6)
        assert sorted(a.action.text() for a in ev.actions) == sorted(
            a.text() for a in legal_actions(state, seat))
        assert ev.samples >= 24
        assert all(-4 <= a.value <= 4 for a in ev.actions)
