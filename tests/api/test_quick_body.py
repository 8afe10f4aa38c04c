"""The action body's shortcut (:class:`api.http.resources.blueprint.QuickBodyParser`) answers what
the schema would: the same loaded body, and every body it does not take goes the full way."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from marshmallow import ValidationError

from api.http.schemas import ActionSchema
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
