"""The shortcuts of the action and create bodies (see
:class:`api.http.resources.blueprint.QuickBodyParser`) answer what the schema would: the same
loaded body, and every body they do not take goes the full way."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask.testing import FlaskClient
from marshmallow import ValidationError

from api.http.schemas import ActionSchema, CreateGameSchema, TableSettingsSchema
from tests.api.helpers import act, assert_problem, bearer, two_humans, view

BODIES: list[Any] = [
    {"type": "play", "card": "QH"}, {"type": "meld", "suit": "H"}, {"type": "continue"},
    {"type": "pause"}, {"type": "play", "card": "XX"}, {"type": "nope"}, {"type": 1},
    {"type": "play", "card": 5}, {"type": "play", "extra": "x"}, {"card": "QH"}, {},
    {"type": None}, {"type": "play", "card": None}, [], "play", None, 3,
    {"type": "declare", "suit": "H", "card": "AH"},
]


@pytest.mark.parametrize("body", BODIES)
def test_the_shortcut_loads_what_the_schema_loads(body: Any) -> None:
    quick = ActionSchema.quick_load(body)
    try:
        loaded = ActionSchema().load(body)
    except ValidationError:
        assert quick is None
        return
    assert quick is None or quick == loaded


def test_valid_actions_take_the_shortcut() -> None:
    for body in BODIES[:5]:
        assert ActionSchema.quick_load(body) == body


def test_an_action_is_parsed_without_marshmallow(client: FlaskClient,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, tokens = two_humans(client, first_dealer=0)
    seat = next(s for s in (0, 1) if view(client, game_id, tokens[s])["legal_actions"])
    legal = view(client, game_id, tokens[seat])["legal_actions"]

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the schema was loaded")

    monkeypatch.setattr(ActionSchema, "load", refuse)
    assert act(client, game_id, tokens[seat], legal[0]).status_code == 200


@pytest.mark.parametrize(("body", "member"), [
    ({"type": "fly"}, "type"), ({"type": "play", "card": 7}, "card"),
    ({"type": "play", "colour": "red"}, "colour"), ({"card": "QH"}, "type")])
def test_bodies_off_the_shortcut_are_refused_as_before(client: FlaskClient, body: Any,
                                                       member: str) -> None:
    game_id, tokens = two_humans(client)
    problem = assert_problem(act(client, game_id, tokens[0], body), 422, "validation-error")
    assert member in str(problem)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "utf-16-be"])
def test_a_body_not_in_utf8_is_refused_and_not_applied(client: FlaskClient,
                                                       encoding: str) -> None:
    """The shortcut decodes strict UTF-8, as the full way does: a legal action written in
    another encoding (which ``json.loads`` of bytes would guess) is a 400, nothing saved."""
    game_id, tokens = two_humans(client, first_dealer=0)
    seat = next(s for s in (0, 1) if view(client, game_id, tokens[s])["legal_actions"])
    before = view(client, game_id, tokens[seat])
    legal = before["legal_actions"][0]
    raw = json.dumps(legal).encode(encoding)
    assert json.loads(raw) == legal  # the standard library's guess would take it
    answer = client.post(f"/v1/games/{game_id}/actions", data=raw,
                         content_type="application/json", headers=bearer(tokens[seat]))
    assert answer.status_code == 400, answer.get_data(as_text=True)
    assert view(client, game_id, tokens[seat])["version"] == before["version"]


CREATE_BODIES: list[Any] = [
    {}, {"seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}],
         "deck": ["AH"], "first_dealer": 0},
    {"variant": "schnapsen", "rules": {"close_min_talon": 3}, "match_points": 7,
     "settings": {"point_counter": True, "think_time_s": 30, "on_timeout": "forfeit"}},
    {"seats": None}, {"deck": None}, {"match_points": None}, {"match_points": True},
    {"match_points": 7.0}, {"first_dealer": 4}, {"first_dealer": -1}, {"first_dealer": True},
    {"settings": {"auto_continue": 1}}, {"settings": {"think_time_s": True}},
    {"settings": {"on_timeout": "never"}}, {"settings": None}, {"settings": {"x": 1}},
    {"seats": [{"kind": "human", "name": ""}]}, {"seats": [{"kind": "human", "name": "a" * 41}]},
    {"seats": [{"kind": "robot"}]}, {"seats": [{"kind": "human", "colour": "red"}]},
    {"seats": [{"kind": "computer", "level": None}]}, {"rules": {1: 2}}, {"rules": []},
    {"variant": 66}, {"extra": 1}, [], None, "x",
]


def _same_load(schema: Any, body: Any) -> None:
    quick = type(schema).quick_load(body)
    try:
        loaded = schema.load(body)
    except ValidationError:
        assert quick is None, body
        return
    assert quick is None or (quick == loaded and json.dumps(quick) == json.dumps(loaded)), body


@pytest.mark.parametrize("body", CREATE_BODIES)
def test_the_create_shortcut_loads_what_the_schema_loads(body: Any) -> None:
    _same_load(CreateGameSchema(), body)


def test_the_create_shortcut_on_random_bodies() -> None:
    """Bodies mixing every member with values of every JSON kind: the shortcut takes most
    valid ones (so this compares something) and loads each as the schema does."""
    rng = random.Random(66)
    values: list[Any] = [None, True, False, 0, 1, 3, 4, -1, 7, 0.5, "", "x", "human",
                         "computer", "forfeit", [], {}, ["AH"], [1], {"k": 1}, "a" * 41]
    members = [*CreateGameSchema().fields, "extra"]
    settings = [*TableSettingsSchema().fields, "extra"]
    taken = 0
    for _ in range(3000):
        body = {m: rng.choice(values) for m in rng.sample(members, rng.randrange(4))}
        if rng.random() < 0.5:
            body["seats"] = [{k: rng.choice([*values, "Ann"])
                              for k in rng.sample(["kind", "name", "level"], rng.randrange(3))}
                             | {"kind": rng.choice(["human", "computer"])} for _ in range(2)]
            body["settings"] = {k: rng.choice([True, False, None, 30, "computer"])
                                for k in rng.sample(settings, rng.randrange(3))}
        _same_load(CreateGameSchema(), body)
        taken += CreateGameSchema.quick_load(body) is not None
    assert taken > 100


def test_a_creation_is_parsed_without_marshmallow(client: FlaskClient,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the schema was loaded")

    monkeypatch.setattr(CreateGameSchema, "load", refuse)
    created = client.post("/v1/games", json={"seats": [{"kind": "human", "name": "A"},
                                                        {"kind": "human"}]})
    assert created.status_code == 201, created.get_data(as_text=True)
