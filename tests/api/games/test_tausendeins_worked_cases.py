"""Every worked case of RULES-1001 §10 through HTTP.

Each engine test of ``tests/engine/tausendeins/test_worked_cases.py`` (one per worked case,
every parameter set) is run with its games recorded: the options and stacked deck of every
game it makes, and every action it applies with the engine's answer (applied, or refused and
why). Each recorded game is then played again through ``POST /v1/games`` (two human seats,
the same deck and dealer) and ``POST /v1/games/{id}/actions``: every action the engine
applied is a 200, every one it refused is a 409 with the same reason, and the deal's
views of both seats at the end are the engine's, member by member (settlement, totals,
status, trump, melds, legal actions included). A game the test set
up by hand between actions (the starting totals of case 13, which no request can set) cannot
be played over HTTP; the test names those and checks that no other is skipped.
"""

from __future__ import annotations

import inspect
import itertools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask.testing import FlaskClient

import tests.engine.tausendeins.helpers as helpers
import tests.engine.tausendeins.test_worked_cases as cases
from engine.errors import IllegalAction
from engine.tausendeins import T1001Action, T1001State, to_dict, view
from engine.tausendeins import apply as real_apply
from tests.api.helpers import bearer

#: The worked-case tests whose games are (partly) set up by hand, with the count of such games.
SET_UP_BY_HAND = {"test_case_13_totals_and_the_end_of_the_game": 2}


@dataclass
class Step:
    seat: int
    action: dict[str, object]
    #: The engine's refusal, or ``None`` when it applied the action.
    refusal: str | None


@dataclass
class Recorded:
    """One game a worked-case test made, as it went."""

    options: dict[str, object]
    cards: list[str]
    state: T1001State
    #: The same game fed the same actions, to see whether the test changed ``state`` by hand.
    shadow: T1001State
    steps: list[Step] = field(default_factory=list)
    by_hand: bool = False


def _params(test: Callable[..., None]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each parameter set of ``test`` (its ``pytest.mark.parametrize`` marks): an id and the
    keyword arguments."""
    grids = []
    for mark in getattr(test, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        grids.append([dict(zip(names, v if len(names) > 1 else (v,), strict=True))
                      for v in values])
    for i, combo in enumerate(itertools.product(*grids)):
        yield str(i), {k: v for part in combo for k, v in part.items()}


CASES = [pytest.param(name, kwargs, id=f"{name.removeprefix('test_')}-{n}")
         for name, test in inspect.getmembers(cases, inspect.isfunction)
         if name.startswith("test_case_") for n, kwargs in _params(test)]


def _record(monkeypatch: pytest.MonkeyPatch, name: str, kwargs: Mapping[str, Any]
            ) -> list[Recorded]:
    """Run the worked-case test ``name`` with every game and action it makes recorded."""
    recorded: dict[int, Recorded] = {}
    real_game = helpers.game

    def game(options: Mapping[str, object], cards: Sequence[str]) -> T1001State:
        state = real_game(options, cards)
        recorded[id(state)] = Recorded(dict(options), list(cards), state,
                                       real_game(options, cards))
        return state

    def apply(state: T1001State, seat: int, action: T1001Action) -> list[Any]:
        game_ = recorded[id(state)]
        if to_dict(game_.shadow) != to_dict(state):
            game_.by_hand = True
        try:
            events = real_apply(state, seat, action)
        except IllegalAction as exc:
            game_.steps.append(Step(seat, action.as_dict(), exc.reason))
            raise
        game_.steps.append(Step(seat, action.as_dict(), None))
        real_apply(game_.shadow, seat, action)
        return events

    monkeypatch.setattr(helpers, "game", game)
    monkeypatch.setattr(cases, "game", game)
    monkeypatch.setattr(helpers, "apply", apply)
    getattr(cases, name)(**kwargs)
    return list(recorded.values())


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _over_http(client: FlaskClient, game: Recorded) -> None:
    response = client.post("/v1/games", json={
        "variant": "tausendeins", "rules": game.options, "deck": game.cards, "first_dealer": 1,
        "seats": [{"kind": "human", "name": "F"}, {"kind": "human", "name": "D"}]})
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
    for seat, token in enumerate(tokens):  # the engine's view of each seat, member by member
        seen = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
        assert seen is not None
        expected = _plain(view(game.state, seat))
        assert {k: seen[k] for k in expected} == expected


@pytest.mark.parametrize(("name", "kwargs"), CASES)
def test_every_worked_case_plays_the_same_over_http(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch, name: str,
        kwargs: dict[str, Any]) -> None:
    games = _record(monkeypatch, name, kwargs)
    monkeypatch.undo()
    assert games and any(g.steps for g in games)  # the recorder saw the case's play
    assert sum(g.by_hand for g in games) == SET_UP_BY_HAND.get(name, 0)
    for game in games:
        if not game.by_hand:
            _over_http(client, game)


def test_the_cases_are_all_here() -> None:
    numbers = {name.split("_")[2] for name, _ in
               inspect.getmembers(cases, inspect.isfunction) if name.startswith("test_case_")}
    assert numbers == {f"{n:02d}" for n in range(1, 19)}
