"""engine.hosted: one set of entry points for both games, each call dispatched to the game of
the state (or the variant's name), the stored forms told apart, the games never mixed."""

from __future__ import annotations

import json
import random

import pytest

from engine import Action, GameState, InvalidAction, InvalidOption, Rules
from engine.games import make_rules
from engine.hosted import (
    HostedState,
    action_of,
    apply,
    final_points,
    from_stored,
    legal_actions,
    new_game,
    only_continue,
    parse_action,
    players_of,
    seat_won,
    to_stored,
    variant_of,
    view,
)
from engine.tausendeins import T1001Action, T1001Rules, T1001State
from engine.tausendeins.ai import choose


def _play_out(variant: str, options: dict[str, object], seed: int
              ) -> tuple[HostedState, int]:
    """A whole game of ``variant`` played by random choices (Tausendeins by its ``easy``
    computer: random contracts would drive both totals down for ever), each state stored and
    loaded again before the next action; the final state and the number of actions."""
    rng = random.Random(seed)
    state, _ = new_game(variant, make_rules(variant, options), first_dealer=0)
    actions = 0
    while not state.over:
        state = from_stored(json.loads(json.dumps(to_stored(state))))
        seat = next(s for s in range(players_of(variant)) if legal_actions(state, s))
        if isinstance(state, T1001State):
            apply(state, seat, choose(view(state, seat), "easy", rng))
        else:
            apply(state, seat, rng.choice(list(legal_actions(state, seat))))
        actions += 1
    return state, actions


@pytest.mark.parametrize(("variant", "options"), [
    ("sixty-six", {"match_points": 3}), ("four-hand", {"match_points": 3}),
    ("tausendeins", {"bidding": "none", "target_points": 300}),
    ("tausendeins", {"contract_deal": "musik", "target_points": 300})])
def test_whole_games_of_both_kinds_survive_storing_at_every_step(
        variant: str, options: dict[str, object]) -> None:
    state, actions = _play_out(variant, options, 3)
    assert actions and variant_of(state) == variant and state.status == "match_over"
    points, matches = final_points(state)
    winners = [s for s in range(players_of(variant)) if seat_won(state, s)]
    assert winners and sum(matches) >= 1
    if variant == "tausendeins":
        assert isinstance(state, T1001State) and points == state.totals
        assert winners == [state.winner] and max(points) >= 300


def test_the_stored_forms_are_told_apart() -> None:
    family, _ = new_game("sixty-six", Rules.make("sixty-six"))
    t1001, _ = new_game("tausendeins", T1001Rules.make({}))
    assert isinstance(to_stored(family), list) and to_stored(t1001)["var"] == "tausendeins"
    assert isinstance(from_stored(to_stored(family)), GameState)
    assert isinstance(from_stored(to_stored(t1001)), T1001State)


def test_actions_are_parsed_for_the_state_s_game_and_never_mixed() -> None:
    family, _ = new_game("sixty-six", Rules.make("sixty-six"), first_dealer=1)
    t1001, _ = new_game("tausendeins", T1001Rules.make({}), first_dealer=0)
    assert parse_action(t1001, {"type": "bid", "points": 110}) == T1001Action.bid(110)
    assert isinstance(parse_action(family, {"type": "close"}), Action)
    with pytest.raises(InvalidAction):
        parse_action(t1001, {"type": "close"})
    with pytest.raises(InvalidAction):
        parse_action(family, {"type": "bid", "points": 110})
    with pytest.raises(InvalidAction):
        apply(t1001, 0, Action.simple("continue"))
    with pytest.raises(InvalidAction):
        apply(family, 0, T1001Action.simple("pass"))
    assert action_of(t1001, "resign") == T1001Action.simple("resign")
    assert not only_continue(t1001, 0) and view(t1001, 0)["variant"] == "tausendeins"


def test_an_unknown_variant_names_every_one() -> None:
    with pytest.raises(InvalidOption) as raised:
        players_of("skat")
    allowed = raised.value.allowed
    assert allowed is not None and {"tausendeins", "four-hand"} <= set(allowed)
    with pytest.raises(InvalidOption, match="tausendeins"):
        make_rules("skat")
