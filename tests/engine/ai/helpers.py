"""Random positions for AI tests: seeded random play that never declares falsely."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping

from engine import PLAYING, GameState, Rules, apply, legal_actions, new_game
from engine.actions import CLOSE, DECLARE
from engine.ai.player import outcome
from engine.ai.solver import Position, Solver, solve
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


def brute_force(state: GameState, closed: Callable[[GameState], int] | None = None,
                memo: dict[tuple[object, ...], int] | None = None) -> int:
    """Game points for the side to move, searching every legal action through engine.apply
    (never a false declaration); with ``closed``, positions whose talon is closed or
    exhausted are valued by it instead. With ``memo`` each position is searched once (its
    value kept there), which makes whole phase-2 hands affordable."""
    if closed is not None and not state.talon_open:
        return closed(state)
    key = None
    if memo is not None:
        key = (tuple(state.hands), tuple(state.trick), state.leader, tuple(state.won_points),
               tuple(state.won_tricks), tuple(state.melds), state.melded_suit,
               state.closed_by, state.closed_snapshot, tuple(state.talon))
        known = memo.get(key)
        if known is not None:
            return known
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
            value = brute_force(after, closed, memo)
            if after.side_of(to_act) != side:
                value = -value
        best = max(best, value)
    if memo is not None and key is not None:
        memo[key] = best
    return best


def card_by_brute_force(state: GameState, seat: int, c: int,
                        memo: dict[tuple[object, ...], int] | None = None) -> int:
    """Game points for ``seat``'s side of playing card ``c`` now (leading the King or Queen
    of a held marriage melds it first), then both sides playing on by :func:`brute_force`
    (with ``memo``, memoised there)."""
    side = state.side_of(seat)
    after = state.copy()
    if not state.trick and state.melded_suit is None:
        for meld in [a for a in legal_actions(after, seat)
                     if a.kind == "meld" and a.suit == c // 6 and c % 6 in (2, 3)]:
            apply(after, seat, meld)
    if after.status == PLAYING:  # a meld may have ended the hand (automatic_66)
        apply(after, seat, next(a for a in legal_actions(after, seat) if a.card == c))
    if after.status != PLAYING:
        return outcome(after, side)
    to_act = after.to_act()
    assert to_act is not None
    return brute_force(after, memo=memo) * (1 if after.side_of(to_act) == side else -1)


def solved_as_by_minimax(state: GameState) -> int:
    """The phase-2 solver's value of ``state`` after checking it, and each card's value of
    the side to move, against a memoised minimax through engine.apply."""
    memo: dict[tuple[object, ...], int] = {}
    value = solve(state)
    assert value == brute_force(state, memo=memo), Position.from_state(state)
    pos = Position.from_state(state)
    mover = state.to_act()
    assert mover is not None
    for c, v in Solver.for_position(pos).card_values(pos).items():
        assert v == card_by_brute_force(state, mover, c, memo), (pos, c)
    return value
