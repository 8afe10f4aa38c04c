"""``resign`` and ``abort`` (issue 15 D item 5): actions that end the game, never legal moves."""

from __future__ import annotations

import random

import pytest

from engine import (
    ABORTED,
    MATCH_OVER,
    Action,
    GameState,
    IllegalAction,
    Rules,
    apply,
    from_json,
    legal_actions,
    may_abort,
    new_game,
    to_json,
    view,
)
from engine.actions import ABORT_ACTION, CONTINUE_ACTION, RESIGN_ACTION
from engine.rules import VARIANTS

VARIANT_NAMES = tuple(VARIANTS)


def random_game(variant: str, seed: int, steps: int) -> GameState:
    """A game of ``variant`` after up to ``steps`` random legal actions (stopping before its
    end)."""
    rng = random.Random(seed)
    state, _ = new_game(Rules.make(variant, {"match_points": 3}), rng=rng)
    for _ in range(steps):
        seat = next(s for s in range(state.players) if legal_actions(state, s))
        before = state.copy()
        apply(state, seat, rng.choice(legal_actions(state, seat)), rng=rng)
        if state.over:
            return before
    return state


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("seed", range(12))
def test_resign_ends_the_game_for_the_other_side(variant: str, seed: int) -> None:
    state = random_game(variant, seed, random.Random(seed).randrange(0, 200))
    rng = random.Random(seed)
    seat = rng.randrange(state.players)
    score, bummerl, won = state.score.copy(), state.bummerl.copy(), state.matches_won.copy()
    card_points = state.total_card_points()
    assert view(state, seat)["can_resign"] is True
    events = apply(state, seat, RESIGN_ACTION)
    assert [e.type for e in events] == ["resigned"]
    assert state.status == MATCH_OVER and state.over and state.to_act() is None
    side = state.side_of(seat)
    winner = state.set_winner
    assert winner is not None and winner != side
    assert events[0].data == {"seat": seat, "winner_side": winner,
                              "winners": list(state.seats_of(winner))}
    if variant == "four-hand":
        assert seat not in state.seats_of(winner) and (seat + 2) % 4 not in state.seats_of(winner)
    # points conserved: nothing is scored or taken away by resigning
    assert (state.score, state.bummerl, state.matches_won) == (score, bummerl, won)
    assert state.total_card_points() == card_points
    for s in range(state.players):
        assert legal_actions(state, s) == []
        v = view(state, s)
        assert v["can_resign"] is False
        assert v["match"]["winner"] == winner and v["match"]["set_winner"] == winner
        assert v["match"]["result_reason"] == "resigned"
        assert v["match"]["resigned_by"] == seat and v["match"]["aborted_by"] is None
    with pytest.raises(IllegalAction, match="the game is over"):
        apply(state, 1 - side if variant != "four-hand" else (seat + 1) % 4, RESIGN_ACTION)
    assert from_json(to_json(state)).ended == ("resigned", seat)


def test_three_hand_resignation_goes_to_the_other_player_with_more_points() -> None:
    state, _ = new_game(Rules.make("three-hand"), first_dealer=0)
    state.score = [1, 0, 2]
    apply(state, 1, RESIGN_ACTION)
    assert state.set_winner == 2
    tied, _ = new_game(Rules.make("three-hand"), first_dealer=0)
    tied.score = [2, 1, 2]
    apply(tied, 1, RESIGN_ACTION)
    assert tied.set_winner == 0  # a tie goes to the lower seat


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_resign_and_abort_are_never_legal_moves(variant: str) -> None:
    """A bot choosing among legal_actions can never resign or abort."""
    rng = random.Random(variant)
    state, _ = new_game(Rules.make(variant, {"match_points": 3}), rng=rng)
    while not state.over:
        for s in range(state.players):
            legal = legal_actions(state, s)
            assert RESIGN_ACTION not in legal and ABORT_ACTION not in legal
        seat = next(s for s in range(state.players) if legal_actions(state, s))
        apply(state, seat, rng.choice(legal_actions(state, seat)), rng=rng)
    assert view(state, 0)["match"]["result_reason"] == "points"


def test_abort_while_the_other_seat_has_not_moved() -> None:
    state, _ = new_game(Rules(), first_dealer=1)  # seat 0 leads
    assert may_abort(state, 0) and may_abort(state, 1)
    forehand_card = next(a for a in legal_actions(state, 0) if a.kind == "play")
    apply(state, 0, forehand_card)
    # seat 1 has not moved: seat 0 may abort; seat 0 has moved: seat 1 may not
    assert may_abort(state, 0) and not may_abort(state, 1)
    with pytest.raises(IllegalAction, match="only resigned"):
        apply(state, 1, ABORT_ACTION)
    events = apply(state, 0, ABORT_ACTION)
    assert [e.for_seat(1) for e in events] == [{"type": "aborted", "seat": 0}]
    assert state.status == ABORTED and state.over and state.set_winner is None
    match = view(state, 1)["match"]
    assert match["winner"] is None and match["result_reason"] == "aborted"
    assert match["aborted_by"] == 0 and match["resigned_by"] is None
    assert view(state, 1)["can_resign"] is False and legal_actions(state, 1) == []
    for action in (RESIGN_ACTION, ABORT_ACTION, CONTINUE_ACTION):
        with pytest.raises(IllegalAction, match="the game was aborted"):
            apply(state, 1, action)
    assert from_json(to_json(state)).status == ABORTED


def test_after_both_moved_only_resign() -> None:
    state, _ = new_game(Rules(), first_dealer=1)
    for _ in range(2):
        seat = state.to_act()
        assert seat is not None
        apply(state, seat, next(a for a in legal_actions(state, seat) if a.kind == "play"))
    assert state.moved == 0b11
    for seat in (0, 1):
        assert not may_abort(state, seat)
        with pytest.raises(IllegalAction, match="can no longer be aborted"):
            apply(state, seat, Action.from_text("abort"))
    assert from_json(to_json(state)).moved == 0b11


def test_continue_is_not_a_first_move_and_may_abort_narrows_to_seats() -> None:
    state, _ = new_game(Rules.make("four-hand"), first_dealer=3)  # seat 0 leads
    state.status = "hand_over"
    apply(state, 1, CONTINUE_ACTION)
    assert state.moved == 0
    state.status = "playing"
    apply(state, 0, next(a for a in legal_actions(state, 0) if a.kind == "play"))
    # humans at 0 and 2: seat 0 may abort while 2 has not moved; 2 may not (0 has moved)
    assert may_abort(state, 0, (0, 2)) and not may_abort(state, 2, (0, 2))
    assert may_abort(state, 2)  # without the narrowing: seats 1 and 3 have not moved either
