"""The phase-2 solver equals exhaustive minimax through engine.apply (small positions, and
whole phase-2 hands against a memoised minimax)."""

from __future__ import annotations

import random

import pytest

from engine import PLAYING, GameState, Rules, apply, legal_actions, new_game
from engine.actions import CLOSE_ACTION
from engine.ai.player import outcome
from engine.ai.solver import Position, Solver, solve
from engine.cards import KING, QUEEN, card
from tests.engine.ai.helpers import brute_force, random_action_states


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
        values = Solver.for_position(pos).card_values(pos)
        side = state.side_of(seat)
        for c, value in values.items():
            after = state.copy()
            if not state.trick and state.melded_suit is None:
                melds = [a for a in legal_actions(after, seat)
                         if a.kind == "meld" and a.suit == c // 6 and c % 6 in (2, 3)]
                for meld in melds:
                    apply(after, seat, meld)
            apply(after, seat, next(a for a in legal_actions(after, seat) if a.card == c))
            if after.status != PLAYING:
                expected = outcome(after, side)
            else:
                to_act = after.to_act()
                assert to_act is not None
                expected = brute_force(after) * (1 if after.side_of(to_act) == side else -1)
            assert value == expected


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


def _card_value(state: GameState, c: int, memo: dict[tuple[object, ...], int]) -> int:
    """Plain minimax value for the side to move of playing card ``c`` (a King or Queen led
    from a held marriage melds first, as the solver does)."""
    seat = state.to_act()
    assert seat is not None
    side = state.side_of(seat)
    after = state.copy()
    if not state.trick and state.melded_suit is None:
        for meld in [a for a in legal_actions(after, seat)
                     if a.kind == "meld" and a.suit == c // 6 and c % 6 in (KING, QUEEN)]:
            apply(after, seat, meld)
    apply(after, seat, next(a for a in legal_actions(after, seat) if a.card == c))
    if after.status != PLAYING:
        return outcome(after, side)
    to_act = after.to_act()
    assert to_act is not None
    value = brute_force(after, memo=memo)
    return value if after.side_of(to_act) == side else -value


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
    values = set()
    for state in positions:
        memo: dict[tuple[object, ...], int] = {}
        value = solve(state)
        assert value == brute_force(state, memo=memo), Position.from_state(state)
        pos = Position.from_state(state)
        for c, v in Solver.for_position(pos).card_values(pos).items():
            assert v == _card_value(state, c, memo), (pos, c)
        values.add(value)
    assert len(values) >= 4
