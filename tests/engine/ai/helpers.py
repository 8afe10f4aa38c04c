"""Random positions for AI tests: seeded random play that never declares falsely."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping

from engine import PLAYING, GameState, Rules, apply, legal_actions, new_game
from engine.actions import CLOSE, DECLARE
from engine.ai.player import outcome
from engine.scoring import DECLARE_TARGET


def random_action_states(
    variant: str, rng: random.Random, games: int, close_chance: float = 0.2,
    options: Mapping[str, object] | None = None,
) -> Iterator[GameState]:
    """Every position where a seat must act, in ``games`` random hands of ``variant`` (with
    rule ``options``)."""
    rules = Rules.make(variant, options)
    for _ in range(games):
        state, _ = new_game(rules, first_dealer=rng.randrange(rules.variant.players), rng=rng)
        while state.status == PLAYING:
            yield state
            seat = state.to_act()
            assert seat is not None
            side = state.side_of(seat)
            acts = [a for a in legal_actions(state, seat)
                    if a.kind != DECLARE or state.credited_points(side) >= 66]
            closes = [a for a in acts if a.kind == CLOSE]
            if closes and rng.random() < close_chance:
                apply(state, seat, closes[0])
            else:
                apply(state, seat, rng.choice(acts))


def first_state(variant: str, seed: int, accept: Callable[[GameState], bool]) -> GameState:
    """A copy of the first random position (seeded) that ``accept`` takes."""
    rng = random.Random(seed)
    while True:
        for state in random_action_states(variant, rng, 1):
            if accept(state):
                return state.copy()


def brute_force(state: GameState, closed: Callable[[GameState], int] | None = None) -> int:
    """Game points for the side to move, searching every legal action through engine.apply
    (never a false declaration); with ``closed``, positions whose talon is closed or
    exhausted are valued by it instead."""
    if closed is not None and not state.talon_open:
        return closed(state)
    seat = state.to_act()
    assert seat is not None
    side = state.side_of(seat)
    best = -4
    for action in legal_actions(state, seat):
        if action.kind == DECLARE and state.credited_points(side) < DECLARE_TARGET:
            continue
        after = state.copy()
        apply(after, seat, action)
        if after.status != PLAYING:
            value = outcome(after, side)
        else:
            to_act = after.to_act()
            assert to_act is not None
            value = brute_force(after, closed)
            if after.side_of(to_act) != side:
                value = -value
        best = max(best, value)
    return best
