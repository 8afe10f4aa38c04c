"""The phase-1 search equals exhaustive minimax through engine.apply on short-talon positions.

The brute force tries every legal action of phase 1 (melds, exchange, close, declarations
with 66) through :func:`engine.apply` and hands over to the phase-2 solver, itself checked
against brute force in test_solver, once the talon is closed or exhausted.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import PLAYING, GameState, Rules, apply, legal_actions, new_game, view
from engine.actions import CLOSE, DECLARE, PLAY
from engine.ai import evaluate
from engine.ai.knowledge import Knowledge
from engine.ai.player import LEVEL_TABLE, Work, _plans, _play_on, level_variant
from engine.ai.policy import heuristic_action
from engine.ai.sampling import Sampler, to_state
from engine.ai.solver import Solver, solve
from engine.ai.talon import TalonSolver
from engine.cards import MARRIAGE_OF
from engine.scoring import DECLARE_TARGET
from tests.engine.ai.helpers import brute_force


def short_talon_positions(rules: Rules, seed: int, count: int, talon: int) -> list[GameState]:
    """Positions (lead and follow) with ``talon`` cards left, from seeded random phase-1 play."""
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        state, _ = new_game(rules, first_dealer=rng.randrange(rules.variant.players), rng=rng)
        while state.status == PLAYING and state.talon_open:
            seat = state.to_act()
            assert seat is not None
            if len(state.talon) == talon and rng.random() < 0.5:
                out.append(state.copy())
                break
            side = state.side_of(seat)
            acts = [a for a in legal_actions(state, seat) if a.kind != CLOSE
                    and (a.kind != DECLARE or state.credited_points(side) >= DECLARE_TARGET)]
            apply(state, seat, rng.choice(acts))
    return out


@pytest.mark.parametrize(("variant", "options", "talon", "count"), [
    ("sixty-six", {}, 2, 60),
    ("sixty-six", {"close_min_talon": 2, "exchange_requires_trick": True}, 2, 30),
    ("schnapsen", {}, 2, 40),
    ("sixty-six", {}, 4, 3),
    ("three-hand", {}, 4, 2),
])
def test_talon_search_matches_brute_force(variant: str, options: dict[str, object],
                                          talon: int, count: int) -> None:
    rules = Rules.make(variant, options)
    positions = short_talon_positions(rules, 11, count, talon)
    values = set()
    for state in positions:
        value = TalonSolver(state.rules, state.trump).value(state)
        assert value == brute_force(state, solve)
        values.add(value)
    if count >= 30:
        assert any(s.trick for s in positions) and any(not s.trick for s in positions)
        assert len(values) >= 3


def test_solver_is_reusable_across_positions_of_a_hand() -> None:
    """One solver per sampled deal serves every plan: its table must not mix positions."""
    rules = Rules.make("sixty-six")
    for state in short_talon_positions(rules, 5, 8, 4):
        shared = TalonSolver(state.rules, state.trump)
        seat = state.to_act()
        assert seat is not None
        for action in legal_actions(state, seat):
            after = state.copy()
            apply(after, seat, action)
            if after.status != PLAYING or not after.talon_open:
                continue
            assert shared.value(after) == TalonSolver(after.rules, after.trump).value(after)


def test_strong_searches_short_talons_and_never_declares_falsely() -> None:
    rules = Rules.make("sixty-six")
    talon = LEVEL_TABLE["strong"].search_talon
    assert talon >= 2
    for state in short_talon_positions(rules, 3, 6, talon):
        seat = state.to_act()
        assert seat is not None
        ev = evaluate(view(state, seat), "strong", random.Random(1), budget_ms=1e6, samples=3)
        assert ev.samples == 3
        assert {a.action for a in ev.actions} == set(legal_actions(state, seat))
        assert all(-3 <= a.value <= 3 for a in ev.actions)
        if state.credited_points(state.side_of(seat)) < DECLARE_TARGET:
            assert ev.best.kind != DECLARE


def test_playouts_switch_to_the_search_once_the_talon_is_short() -> None:
    """From ``search_from`` talon cards a playout plays policy tricks until ``search_talon``
    cards are left; the search values the rest of the hand exactly. (``strong`` itself
    searches from the same talon size it decides at, so a variant shows the switch.)"""
    lv = level_variant("strong:search_talon=2")
    assert lv.search_from > lv.search_talon
    rules = Rules.make("sixty-six")
    checked = differ = 0
    for state in short_talon_positions(rules, 7, 16, lv.search_from):
        seat = state.to_act()
        assert seat is not None
        side = state.side_of(seat)
        # the playout's policy moves, by hand, with the same tie-breaking
        played, rng = state.copy(), random.Random(3)
        while played.status == PLAYING and len(played.talon) > lv.search_talon:
            mover = played.to_act()
            assert mover is not None
            apply(played, mover, heuristic_action(played, mover, rng))
        mover = played.to_act()
        if mover is None or not played.talon_open:
            continue  # declared or closed on the way: nothing left to search
        exact = TalonSolver(rules, state.trump).value(played)
        expected = exact if played.side_of(mover) == side else -exact
        deep = TalonSolver(rules, state.trump)
        assert _play_on(state.copy(), side, lv, random.Random(3), {}, deep, Work()) == expected
        checked += 1
        differ += _play_on(state.copy(), side, lv, random.Random(3), {}, None, Work()) != expected
    assert checked >= 8
    assert differ  # playing the short talon by the policy instead gives other values


def test_strong_values_each_card_by_the_exact_search_from_six_talon_cards() -> None:
    """With 6 talon cards ``strong`` values a card by the exact search of the rest of the hand
    in each sampled deal (``search_talon``), not by policy playouts: over one deal, each card's
    value is that deal's exact value after playing it."""
    assert LEVEL_TABLE["strong"].search_talon >= 6
    rules = Rules.make("sixty-six")
    checked = 0
    for i, state in enumerate(short_talon_positions(rules, 4, 4, 6)):
        seat = state.to_act()
        assert seat is not None
        k = Knowledge.from_view(view(state, seat))
        deal = to_state(k, Sampler(k).sample(random.Random(i)))  # the deal evaluate draws
        ev = evaluate(view(state, seat), "strong", random.Random(i), budget_ms=1e6, samples=1)
        for av in ev.actions:
            if av.action.kind != PLAY or av.action.card is None:
                continue
            if MARRIAGE_OF[av.action.card] and not state.trick:
                continue  # a King or Queen on lead may be valued as its meld plan
            after = deal.copy()
            apply(after, seat, av.action)
            mover = after.to_act()
            assert mover is not None and after.talon_open
            exact = TalonSolver(rules, state.trump).value(after)
            assert av.value == (exact if after.side_of(mover) == state.side_of(seat) else -exact)
            checked += 1
    assert checked >= 8


def test_a_longer_talon_switches_to_the_search_at_switch_talon() -> None:
    """With ``switch_talon`` a decision with more talon cards than ``search_talon`` (and at most
    ``search_from``) plays its playouts by the policy down to ``switch_talon`` cards, then
    searches exactly: one sampled deal, replayed by hand with the same random draws, gives
    evaluate's values; searching from ``search_talon`` instead gives others."""
    lv = level_variant("strong:search_from=8,switch_talon=4")
    assert lv.search_talon > lv.switch_talon
    rules = Rules.make("sixty-six")
    differ = 0
    for i, state in enumerate(short_talon_positions(rules, 6, 3, 8)):
        seat = state.to_act()
        assert seat is not None
        side = state.side_of(seat)
        k = Knowledge.from_view(view(state, seat))
        by_switch: dict[tuple[object, ...], list[int]] = {}
        for search_at in (lv.switch_talon, lv.search_talon):
            rng = random.Random(i)
            deal = to_state(k, Sampler(k).sample(rng))
            deep = TalonSolver(rules, state.trump)
            solvers: dict[tuple[Any, ...], Solver] = {}
            for plan in _plans(deal, seat, True):
                s = deal.copy()
                for a in plan:
                    apply(s, seat, a)
                value = _play_on(s, side, lv, rng, solvers, deep, Work(), search_at)
                by_switch.setdefault(plan, []).append(value)
        ev = evaluate(view(state, seat), lv, random.Random(i), budget_ms=1e6, samples=1)
        for av in ev.actions:
            best = max(v[0] for plan, v in by_switch.items() if plan[0] == av.action)
            assert av.value == best
        differ += any(a != b for a, b in by_switch.values())
    assert differ
