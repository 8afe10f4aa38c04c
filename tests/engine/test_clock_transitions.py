"""The clock's transitions (issue 16 L item 4): ``timeout`` loses the hand as a false
declaration would, ``forfeit`` loses the match as a resignation would; both pure,
deterministic, never legal moves, and replayed from records."""

from __future__ import annotations

import random

import pytest

from engine import (
    HAND_OVER,
    MATCH_OVER,
    PLAYING,
    GameState,
    IllegalAction,
    Rules,
    apply,
    legal_actions,
    new_game,
)
from engine.actions import FORFEIT_ACTION, TIMEOUT_ACTION, Action
from engine.record import build
from engine.replay import replay
from engine.rules import VARIANTS
from engine.scoring import settle
from tests.engine.test_resign_abort import random_game


def _playing(variant: str, seed: int) -> tuple[GameState, int]:
    """A random game of ``variant`` in the middle of a hand, and the seat to act."""
    for attempt in range(50):
        state = random_game(variant, seed * 100 + attempt,
                            random.Random(seed).randrange(0, 120))
        seat = next((s for s in range(state.players) if legal_actions(state, s)), None)
        if state.status == PLAYING and seat is not None:
            return state, seat
    raise AssertionError("no game in the middle of a hand")


@pytest.mark.parametrize("variant", tuple(VARIANTS))
@pytest.mark.parametrize("seed", range(8))
def test_timeout_loses_the_hand_as_a_false_declaration_would(variant: str, seed: int) -> None:
    state, seat = _playing(variant, seed)
    assert TIMEOUT_ACTION not in legal_actions(state, seat)
    idle = next(s for s in range(state.players) if not legal_actions(state, s))
    with pytest.raises(IllegalAction):
        apply(state.copy(), idle, TIMEOUT_ACTION)
    side = state.side_of(seat)
    # the same hand ended by a false declaration of that side (forced, whatever the points)
    twin = state.copy()
    twin.won_points[side] = 0
    for i, (s, suit, _) in enumerate(twin.melds):
        if twin.side_of(s) == side:
            twin.melds[i] = (s, suit, False)
    false = settle(twin, seat)
    score = state.score.copy()
    events = apply(state, seat, TIMEOUT_ACTION)
    assert events[0].type == "timeout" and events[0].data == {"seat": seat}
    settlement = state.settlement
    assert settlement is not None and state.status in (HAND_OVER, MATCH_OVER)
    assert settlement["reason"] == "timeout" and settlement["timed_out"] == seat
    assert settlement["winner_side"] == false["winner_side"] != side
    expected = false["game_points"] if false["reason"] == "false_declaration" else None
    if expected is not None:
        assert settlement["game_points"] == expected
    else:  # the side closed: a failed closing
        assert false["reason"] == "closing_failed"
        assert settlement["game_points"] == false["game_points"]
    winner = settlement["winner_side"]
    assert state.score[winner] == score[winner] + settlement["game_points"]


def test_timeout_of_a_seat_without_a_trick_gives_three_and_is_deterministic() -> None:
    state, _ = new_game(Rules.make("sixty-six"), first_dealer=1)
    twin = state.copy()
    seat = next(s for s in (0, 1) if legal_actions(state, s))
    apply(state, seat, TIMEOUT_ACTION)
    apply(twin, seat, TIMEOUT_ACTION)
    assert state.settlement == twin.settlement
    assert state.settlement is not None
    assert state.settlement["game_points"] == 3  # the opponent has no trick
    assert state.settlement["last_trick_by"] is None
    assert "ran out of time" in state.settlement["explanation"]
    mirror, _ = new_game(Rules.make("sixty-six", {"false_declaration": "mirror"}),
                         first_dealer=1)
    apply(mirror, seat, TIMEOUT_ACTION)
    assert mirror.settlement is not None and mirror.settlement["game_points"] == 3


def test_forfeit_ends_the_match_on_time_and_the_record_replays() -> None:
    rng = random.Random(5)
    state, events = new_game(Rules.make("sixty-six", {"match_points": 3}), rng=rng)
    log = list(events)
    for _ in range(3):
        seat = next(s for s in (0, 1) if legal_actions(state, s))
        plays = [a for a in legal_actions(state, seat) if a.kind == "play"]
        log += apply(state, seat, rng.choice(plays), rng=rng)
    seat = next(s for s in (0, 1) if legal_actions(state, s))
    log += apply(state, seat, TIMEOUT_ACTION)
    log += apply(state, 0, Action.simple("continue"), rng=rng)
    log += apply(state, 1, Action.simple("continue"), rng=rng)
    loser = next(s for s in (0, 1) if legal_actions(state, s))
    forfeit = apply(state, loser, FORFEIT_ACTION)
    log += forfeit
    assert forfeit[0].type == "forfeited" and state.status == MATCH_OVER
    assert state.ended == ("timeout", loser) and state.set_winner == 1 - loser
    record = build(state, log, reveal=True)
    kinds = [a["type"] for h in record["hands"] for a in h["actions"]]
    assert "timeout" in kinds and kinds[-1] == "forfeit"
    assert record["hands"][0]["settlement"]["reason"] == "timeout"
    assert record["result"]["reason"] == "timeout" and record["result"]["by"] == loser
    assert replay(record).state.ended == ("timeout", loser)
    with pytest.raises(IllegalAction):
        apply(state, loser, FORFEIT_ACTION)
