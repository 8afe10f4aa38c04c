"""One conformance suite over every registered game and variant (OpenSpiel's
``game_test``): random play to the end with the default rules, each option alone and all
together; only legal moves; every card in one place and each side's trick points those of the
cards it took; no hidden card in any seat's or spectator's view; stored form and record round
trips (the replay ends in the identical state); a random illegal action refused with its
reason and the legal actions. The toy game of :mod:`tests.engine.toy_game` is registered here
and passes it too."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any

import pytest

from engine import registry
from engine.errors import IllegalAction, InvalidOption
from engine.plugin import Game
from tests.engine.toy_game import TOY

#: A card code anywhere in a JSON value.
_CODE = re.compile(r"^[AKQJT987][CSHD]$")
#: Moves after which the seat to move resigns: random bids lose Tausendeins points for ever,
#: and a race whose totals drift below zero has no end by points.
_MOVES = 2_000

@pytest.fixture(scope="module", autouse=True)
def _toy_registered() -> Iterator[None]:
    """The toy stays registered for this module's tests only."""
    registry.register(TOY)
    yield
    registry.unregister(TOY.name)


def _changed(option: Any) -> list[object]:
    """Values of ``option`` other than its default (an integer range: its two bounds)."""
    return [v for v in option.allowed if v != option.default]


def _cases() -> Iterator[Any]:
    """(game, variant, options, seeds) for every registered game: its defaults, each option's
    other values alone (or with the fewest other values its rules ask for), and as many of
    them together as the rules accept; each on the game's
    :meth:`~engine.plugin.Game.random_play_options`."""
    for game in registry.games():
        for variant in game.variants():
            base = dict(game.random_play_options(variant))
            yield pytest.param(game, variant, base, 3, id=f"{variant}-defaults")
            values = [(o.name, v) for o in game.options(variant) for v in _changed(o)]
            together = dict(base)
            for name, value in values:
                alone = _with_prerequisites(game, variant, base, name, value, values)
                if alone is not None:
                    case = "+".join(f"{n}={v}" for n, v in alone.items() if n not in base)
                    yield pytest.param(game, variant, alone, 1, id=f"{variant}-{case}")
                if name not in together and _accepted(game, variant,
                                                      {**together, name: value}):
                    together[name] = value
            yield pytest.param(game, variant, together, 3, id=f"{variant}-together")


def _with_prerequisites(game: Game[Any, Any], variant: str, base: dict[str, object],
                        name: str, value: object, values: list[tuple[str, object]]
                        ) -> dict[str, object] | None:
    """``name=value`` on ``base`` with the fewest (up to two) other option values the rules
    need beside it (the 32-card pack for the low Ten, …); ``None`` if none will do."""
    others = [(n, v) for n, v in values if n != name]
    for extra in ([], *([o] for o in others), *combinations(others, 2)):
        options = {**base, name: value, **dict(extra)}
        if len(options) == len({**base, name: value}) + len(extra) \
                and _accepted(game, variant, options):
            return options
    return None


def _accepted(game: Game[Any, Any], variant: str, options: dict[str, object]) -> bool:
    try:
        game.make_rules(variant, options)
    except InvalidOption:
        return False
    return True


def _cards_in(value: Any) -> set[str]:
    """Every card code named anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if _CODE.match(value) else set()
    if isinstance(value, Mapping):
        return set().union(*(_cards_in(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(_cards_in(v) for v in value))
    return set()


def _check_census(game: Game[Any, Any], state: Any) -> None:
    census = game.census(state)
    placed = Counter(c for cards in census.locations.values() for c in cards)
    assert placed == Counter(census.deck), f"cards by place {census.locations}"
    assert census.counted == census.taken


def _check_views(game: Game[Any, Any], state: Any, players: int) -> None:
    for seat in (*range(players), None):
        seen = _cards_in(game.view(state, seat)) & game.hidden(state, seat)
        assert not seen, f"seat {seat} sees hidden {sorted(seen)}"


def _check_illegal(game: Game[Any, Any], state: Any, seat: int, rng: random.Random,
                   deck: tuple[str, ...]) -> None:
    """A random action not among ``seat``'s legal ones is refused, state untouched."""
    legal = game.legal_actions(state, seat)
    wrong = [a for a in (game.parse_action({"type": "play", "card": c}) for c in deck)
             if a not in legal]
    if not wrong:
        return
    action = rng.choice(wrong)
    before = json.dumps(game.to_stored(state))
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, seat, action)
    assert refused.value.reason == game.illegal_reason(state, seat, action) != ""
    assert refused.value.legal == list(legal)
    assert json.dumps(game.to_stored(state)) == before


def _play_out(game: Game[Any, Any], variant: str, options: dict[str, object],
              seed: int) -> None:
    rng = random.Random(seed)
    players = game.players(variant)
    state, events = game.new_game(game.make_rules(variant, options), rng=rng)
    for moves in range(_MOVES + 1):
        _check_census(game, state)
        if rng.random() < 0.2:
            _check_views(game, state, players)
        if game.over(state):
            break
        movers = [s for s in range(players) if game.legal_actions(state, s)]
        assert movers, "a running game where nobody may move"
        seat = rng.choice(movers)
        if moves == _MOVES:
            events += game.apply(state, seat, game.simple_action("resign"))
            continue
        if rng.random() < 0.1:
            _check_illegal(game, state, seat, rng, game.census(state).deck)
        action = rng.choice(list(game.legal_actions(state, seat)))
        assert game.parse_action(game.action_json(action)) == action
        events += game.apply(state, seat, action)
    _check_views(game, state, players)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason == ("points" if moves < _MOVES else "resigned")
    assert len(outcome.points) == players and outcome.winners
    stored = json.loads(json.dumps(game.to_stored(state)))
    assert registry.for_stored(stored) is game
    assert game.to_stored(game.from_stored(stored)) == game.to_stored(state)
    record = json.loads(json.dumps(game.build_record(state, events, reveal=True)))
    assert game.to_stored(game.replay(record)) == game.to_stored(state)


def _cases_with_the_toy() -> list[Any]:
    """The cases of every registered game and the toy's, the toy registered only while they
    are listed: collection leaves the registry as it found it, so that the other modules'
    tests (the service's lists of variants) see the real games only."""
    registry.register(TOY)
    try:
        return list(_cases())
    finally:
        registry.unregister(TOY.name)


@pytest.mark.parametrize(("game", "variant", "options", "seeds"), _cases_with_the_toy())
def test_random_play_keeps_the_rules(game: Game[Any, Any], variant: str,
                                     options: dict[str, object], seeds: int) -> None:
    assert registry.for_variant(variant) is game
    for seed in range(seeds):
        _play_out(game, variant, options, seed)
