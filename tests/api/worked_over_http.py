"""Worked cases of the rule texts played again through HTTP.

An engine test module of worked cases (``tests/engine/...``) makes its games with a factory
of its helpers and applies actions with the engine's ``apply``. :func:`record` runs one of
its tests with both wrapped: every game it makes (variant, options, stacked deck, dealer) and
every action it applies, with the engine's answer (applied, or refused and why), are kept.
:func:`over_http` then plays each recorded game through ``POST /v1/games`` (a human in every
seat, the same deck and dealer) and ``POST /v1/games/{id}/actions``: every action the engine
applied must be a 200, every one it refused a 409 with the same reason, and at the end every
seat's view must hold the engine's view of that seat, member by member. A game the test
changed by hand between actions (what no request can do) is marked ``by_hand`` and not
played; an action tried on a copy of a game is not recorded. A case may make hundreds of
games: :func:`uncapped` is a client without the per-address cap of active games.
"""

from __future__ import annotations

import inspect
import itertools
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.errors import IllegalAction
from engine.hosted import HostedAction, HostedState, players_of, to_stored, variant_of, view
from tests.api.helpers import bearer, configured

#: What a game factory's call says of the game: variant, rule options, first deck, dealer.
Described = tuple[str, dict[str, object], list[str], int]


@dataclass
class Step:
    seat: int
    action: Mapping[str, object]
    #: The engine's refusal, or ``None`` when it applied the action.
    refusal: str | None


@dataclass
class Recorded:
    """One game a worked-case test made, as it went."""

    variant: str
    options: dict[str, object]
    cards: list[str]
    dealer: int
    state: HostedState
    #: The same game fed the same actions, to tell whether the test changed ``state`` by hand.
    shadow: HostedState
    steps: list[Step] = field(default_factory=list)
    by_hand: bool = False


def cases_of(module: ModuleType) -> list[Any]:
    """A ``pytest.param`` per worked-case test of ``module`` (``test_case_*``) and parameter
    set (its ``parametrize`` marks)."""
    out = []
    for name, test in inspect.getmembers(module, inspect.isfunction):
        if name.startswith("test_case_"):
            out += [pytest.param(name, kwargs, id=f"{name.removeprefix('test_')}-{n}")
                    for n, kwargs in _params(test)]
    return out


def _params(test: Callable[..., None]) -> Iterator[tuple[int, dict[str, Any]]]:
    grids = []
    for mark in getattr(test, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        grids.append([dict(zip(names, v if len(names) > 1 else (v,), strict=True))
                      for v in values])
    for n, combo in enumerate(itertools.product(*grids)):
        yield n, {k: v for part in combo for k, v in part.items()}


def record(monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str,
           kwargs: Mapping[str, Any], *, factory: str, factory_homes: list[ModuleType],
           describe: Callable[..., Described], apply_homes: list[ModuleType]
           ) -> list[Recorded]:
    """Run ``module``'s test ``name`` with its games and actions recorded: the game factory
    named ``factory`` (as ``factory_homes`` import it; ``describe`` tells what a call makes)
    and ``apply`` (as ``apply_homes`` import it) are wrapped for the run."""
    recorded: dict[int, Recorded] = {}
    real_factory = getattr(factory_homes[0], factory)
    real_apply = apply_homes[0].apply

    def make(*args: Any, **kw: Any) -> HostedState:
        state: HostedState = real_factory(*args, **kw)
        recorded[id(state)] = Recorded(*describe(*args, **kw), state, real_factory(*args, **kw))
        return state

    def apply(state: HostedState, seat: int, action: HostedAction, **kw: Any) -> Any:
        game = recorded.get(id(state))
        if game is None:  # a copy the test tries an action on: the game itself goes on
            return real_apply(state, seat, action, **kw)
        if to_stored(game.shadow) != to_stored(state):
            game.by_hand = True
        try:
            events = real_apply(state, seat, action, **kw)
        except IllegalAction as exc:
            game.steps.append(Step(seat, action.as_dict(), exc.reason))
            raise
        game.steps.append(Step(seat, action.as_dict(), None))
        real_apply(game.shadow, seat, action, **kw)
        return events

    for home in factory_homes:
        monkeypatch.setattr(home, factory, make)
    for home in apply_homes:
        monkeypatch.setattr(home, "apply", apply)
    try:
        getattr(module, name)(**kwargs)
    finally:
        monkeypatch.undo()
    return list(recorded.values())


def play_recorded(redis_url: str, games: list[Recorded], by_hand: int = 0) -> None:
    """Check that the recorder saw the test's play and that exactly ``by_hand`` of its games
    were set up by hand; play every other game through HTTP (:func:`over_http`)."""
    assert games and any(g.steps for g in games)
    assert sum(g.by_hand for g in games) == by_hand
    with uncapped(redis_url) as client:
        for game in games:
            if not game.by_hand:
                over_http(client, game)


@contextmanager
def uncapped(redis_url: str) -> Iterator[FlaskClient]:
    """A test client with no cap of active games per address (rate limits off)."""
    with configured(redis_url, SIXTYSIX_MAX_GAMES_PER_ADDRESS=0) as client:
        yield client


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def over_http(client: FlaskClient, game: Recorded) -> None:
    """Play ``game`` again through HTTP and compare (see the module docstring)."""
    seats = players_of(game.variant)
    response = client.post("/v1/games", json={
        "variant": game.variant, "rules": game.options, "deck": game.cards,
        "first_dealer": game.dealer,
        "seats": [{"kind": "human", "name": f"Seat {i}"} for i in range(seats)]})
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json  # type: ignore[assignment]
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    for i, step in enumerate(game.steps):
        answer = client.post(f"/v1/games/{game_id}/actions", json=step.action,
                             headers=bearer(tokens[step.seat]))
        body = answer.json
        assert body is not None
        if step.refusal is None:
            assert answer.status_code == 200, (i, step, body)
        else:
            assert (answer.status_code, body["detail"]) == (409, step.refusal), (i, step)
    assert variant_of(game.state) == game.variant
    for seat, token in enumerate(tokens):
        seen = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
        assert seen is not None
        expected = _plain(view(game.state, seat))
        expected.pop("settings", None)  # the service's settings add auto_continue
        assert {k: seen[k] for k in expected} == expected, seat
