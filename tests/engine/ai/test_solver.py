"""The phase-2 solver equals exhaustive minimax through engine.apply (small positions, and
whole phase-2 hands against a memoised minimax)."""

from __future__ import annotations

import random

import pytest

from engine import GameState, Rules, apply, new_game
from engine.actions import CLOSE_ACTION
from engine.ai.solver import Position, Solver, solve
from engine.cards import KING, QUEEN, card
from tests.engine.ai.helpers import (
    brute_force,
    card_by_brute_force,
    random_action_states,
    solved_as_by_minimax,
)


def small_phase2_positions(variant: str, seed: int, count: int, cards: int) -> list[GameState]:
    rng = random.Random(seed)
    out: list[GameState] = []
    for state in random_action_states(variant, rng, 10 * count, close_chance=0.08):
        seat = state.to_act()
        assert seat is not None
        if not state.talon_open and state.hands[seat].bit_count() <= cards and rng.random() < 0.4:
            out.append(state.copy())
            if len(out) == count:
                break
    return out


@pytest.mark.parametrize("variant", ["sixty-six", "schnapsen", "three-hand"])
def test_solver_matches_brute_force(variant: str) -> None:
    positions = small_phase2_positions(variant, 17, 80, 5)
    assert len(positions) == 80
    assert any(p.closed_by is not None for p in positions)
    assert any(p.closed_by is None for p in positions)
    assert any(p.trick for p in positions) and any(not p.trick for p in positions)
    values = set()
    for state in positions:
        value = solve(state)
        assert value == brute_force(state), Position.from_state(state)
        values.add(value)
    assert len(values) >= 4


def test_card_values_match_brute_force_per_card() -> None:
    for state in small_phase2_positions("sixty-six", 23, 40, 4):
        seat = state.to_act()
        assert seat is not None
        pos = Position.from_state(state)
        for c, value in Solver.for_position(pos).card_values(pos).items():
            assert value == card_by_brute_force(state, seat, c)


def test_a_meld_already_made_counts_once() -> None:
    """Positions right after a phase-2 meld (the King or Queen still to lead)."""
    rng = random.Random(3)
    positions: list[GameState] = []
    for state in random_action_states("sixty-six", rng, 3000, close_chance=0.1):
        seat = state.to_act()
        assert seat is not None
        if (not state.talon_open and state.melded_suit is not None
                and state.hands[seat].bit_count() <= 4):
            positions.append(state.copy())
            if len(positions) == 30:
                break
    assert len(positions) == 30
    for state in positions:
        assert solve(state) == brute_force(state)


def test_melds_before_a_first_trick_forbidden() -> None:
    """Forehand closes at once holding a marriage: he may meld only after winning a trick."""
    rules = Rules.make("schnapsen", {"meld_before_first_trick": "forbidden"})
    rng = random.Random(8)
    marriages = [(1 << card(KING, s)) | (1 << card(QUEEN, s)) for s in range(4)]
    checked = 0
    while checked < 24:
        state, _ = new_game(rules, first_dealer=0, rng=rng)
        seat = state.to_act()
        assert seat is not None
        if any(state.hands[seat] & m == m for m in marriages):
            apply(state, seat, CLOSE_ACTION)
            assert solve(state) == brute_force(state)
            checked += 1


@pytest.mark.parametrize("variant", ["sixty-six", "schnapsen", "three-hand"])
def test_solver_matches_plain_minimax_on_full_phase2_hands(variant: str) -> None:
    """Whole phase-2 hands (6+6 cards, 5+5 in Schnapsen: talon exhausted, or closed; a lead or
    a reply due) against a plain memoised minimax through engine.apply: the value and each
    card's value."""
    rng = random.Random(29)
    size = 5 if variant == "schnapsen" else 6
    positions: list[GameState] = []
    for state in random_action_states(variant, rng, 2000, close_chance=0.15):
        seat = state.to_act()
        assert seat is not None
        if not state.talon_open and state.hands[seat].bit_count() >= size - 1:
            positions.append(state.copy())
            if len(positions) == 60:
                break
    assert len(positions) == 60
    assert any(p.closed_by is not None for p in positions)
    assert any(p.closed_by is None and p.hands[p.to_act() or 0].bit_count() == size
               for p in positions)
    assert len({solved_as_by_minimax(state) for state in positions}) >= 4
