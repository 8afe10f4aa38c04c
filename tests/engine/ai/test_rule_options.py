"""The searches respect the rule options of other rule sets (issue 19).

Each option, and all four together, on random positions: the phase-2 solver and the talon
search equal exhaustive minimax through :func:`engine.apply` (which plays the options), and
the computer's choices are legal under them.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import GameState, Rules, legal_actions, view
from engine.actions import CLOSE, DECLARE
from engine.ai import evaluate
from engine.ai.solver import Position, Solver, solve
from engine.ai.talon import TalonSolver
from engine.cards import MARRIAGES
from tests.engine.ai.helpers import brute_force, card_by_brute_force, random_action_states
from tests.engine.ai.test_talon import short_talon_positions

OPTION_SETS: list[dict[str, object]] = [
    {"automatic_66": True},
    {"meld_credit": "next_trick"},
    {"played_out_points": "one"},
    {"closing": False},
    {"automatic_66": True, "meld_credit": "next_trick", "played_out_points": "one"},
]


def holds_marriage(state: GameState) -> bool:
    """The seat to act leads and holds a King and Queen of one suit."""
    seat = state.to_act()
    assert seat is not None
    return not state.trick and any(state.hands[seat] & m == m for m in MARRIAGES)


def passed_up_66(state: GameState) -> bool:
    """A side holds 66 credited points but has not declared (random play passed it up)."""
    return max(state.credited_points(s) for s in state.hand_sides) >= 66


def phase2_positions(variant: str, options: dict[str, object], seed: int, count: int,
                     cards: int, accept: Callable[[GameState], bool] = lambda s: True,
                     ) -> list[GameState]:
    """Seeded random phase-2 positions (lead and follow) with at most ``cards`` in hand."""
    rng = random.Random(seed)
    out: list[GameState] = []
    for state in random_action_states(variant, rng, 40 * count, close_chance=0.08,
                                      options=options):
        seat = state.to_act()
        assert seat is not None
        if (not state.talon_open and state.hands[seat].bit_count() <= cards
                and accept(state) and rng.random() < 0.4):
            out.append(state.copy())
            if len(out) == count:
                break
    assert len(out) == count
    return out


@pytest.mark.parametrize("variant", ["sixty-six", "schnapsen"])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.items())))
def test_solver_matches_brute_force_under_each_option(variant: str,
                                                      options: dict[str, object]) -> None:
    positions = [*phase2_positions(variant, options, 31, 40, 5),
                 *phase2_positions(variant, options, 32, 20, 5, holds_marriage)]
    if not options.get("automatic_66"):  # else no side ever holds 66 in play
        positions += phase2_positions(variant, options, 33, 20, 5, passed_up_66)
    for state in positions:
        assert solve(state) == brute_force(state), Position.from_state(state)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.items())))
def test_card_values_match_brute_force_under_each_option(options: dict[str, object]) -> None:
    for state in phase2_positions("sixty-six", options, 5, 25, 4):
        seat = state.to_act()
        assert seat is not None
        pos = Position.from_state(state)
        for c, value in Solver.for_position(pos).card_values(pos).items():
            assert value == card_by_brute_force(state, seat, c)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.items())))
def test_talon_search_matches_brute_force_under_each_option(options: dict[str, object]) -> None:
    rules = Rules.make("sixty-six", options)
    for state in short_talon_positions(rules, 13, 20, 2):
        assert TalonSolver(rules, state.trump).value(state) == brute_force(state, solve)


@pytest.mark.parametrize(("options", "accept"), [
    (OPTION_SETS[1], holds_marriage), (OPTION_SETS[2], passed_up_66),
    (OPTION_SETS[4], holds_marriage)], ids=["meld_credit", "played_out_points", "all"])
def test_options_change_the_exact_values(options: dict[str, object],
                                         accept: Callable[[GameState], bool]) -> None:
    """The option-aware search is not the default one in disguise: on the same positions
    the options change some values (so the comparisons above can fail). ``played_out_points``
    matters only where a side passed up a declaration; ``automatic_66`` changes no exact
    value (see :mod:`engine.ai.solver`); the brute force above plays both through the
    engine."""
    differ = 0
    for state in phase2_positions("sixty-six", options, 31, 40, 5, accept):
        default = state.copy()
        default.rules = Rules.make("sixty-six")
        pos = Position.from_state(default)
        differ += solve(state) != Solver.for_position(pos).value(pos)
    assert differ


def test_talon_search_without_closing_matches_brute_force() -> None:
    """With four talon cards (where the default rules allow closing): the search without
    closing equals the brute force without it, and differs from the search with it."""
    on, off = Rules.make("sixty-six"), Rules.make("sixty-six", {"closing": False})
    differ = 0
    for state in short_talon_positions(off, 17, 6, 4):
        value = TalonSolver(off, state.trump).value(state)
        assert value == brute_force(state, solve)
        with_closing = state.copy()
        with_closing.rules = on
        differ += value != TalonSolver(on, state.trump).value(with_closing)
    assert differ


@pytest.mark.parametrize(("options", "kind"), [({"closing": False}, CLOSE),
                                               ({"automatic_66": True}, DECLARE)])
def test_strong_ranks_exactly_the_legal_actions_under_the_options(
        options: dict[str, object], kind: str) -> None:
    """No close (no declare) is ranked where the default rules would offer one."""
    rules = Rules.make("sixty-six", options)
    offered_by_default = 0
    for state in short_talon_positions(rules, 3, 6, 4):
        seat = state.to_act()
        assert seat is not None
        ev = evaluate(view(state, seat), "strong", random.Random(1), budget_ms=1e6, samples=3)
        assert {a.action for a in ev.actions} == set(legal_actions(state, seat))
        assert kind not in {a.action.kind for a in ev.actions}
        default = state.copy()
        default.rules = Rules.make("sixty-six")
        offered_by_default += any(a.kind == kind for a in legal_actions(default, seat))
    assert offered_by_default
