"""Every JSON body is parsed strictly before any view (:mod:`api.http.body`): an integer too
long for Python to read is a 422 naming its member (it was a 500), a key given twice in one
object a 400 naming it (one of the two was kept silently), on every endpoint with a body."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import assert_problem, bearer, two_humans, view
from tests.api.lobby_helpers import new_player, new_table

#: More digits than Python reads (``sys.get_int_max_str_digits()``: 4,300).
HUGE = "9" * 5000
#: (path, a body as JSON text with ``{N}`` where a number goes and its member, the path's
#: credentials: ``seat`` a seat token of its game, ``player`` a player token).
ENDPOINTS = [
    ("/v1/games", '{"variant": "sixty-six", "rules": {"match_points": {N}}}',
     "rules.match_points", None),
    ("/v1/games", '{"seats": [{"kind": "human"}, {"kind": "computer", "level": {N}}]}',
     "seats.1.level", None),
    ("/v1/games/{game_id}/actions", '{"type": "bid", "points": {N}}', "points", "seat"),
    ("/v1/games/{game_id}/chat", '{"text": {N}}', "text", "seat"),
    ("/v1/games/{game_id}/hint", '{"budget": {N}}', "budget", "seat"),
    ("/v1/analysis", '{"position": {"seat": {N}}}', "position.seat", None),
    ("/v1/players", '{"name": "Ann", "kind": {N}}', "kind", None),
    ("/v1/tables", '{"settings": {"match_points": {N}}}', "settings.match_points", "player"),
    ("/v1/tables/{table_id}/join", '{"invite_code": {N}}', "invite_code", "player"),
]


@pytest.fixture
def post(client: FlaskClient) -> Callable[[str, str, str | None], Any]:
    """POST a raw JSON body to a path of a fresh game or table, with its credentials."""
    game_id, tokens = two_humans(client)
    seat = next(s for s in (0, 1) if view(client, game_id, tokens[s])["legal_actions"])
    _, player = new_player(client, "Ann")
    table_id = new_table(client, player, seats=[{"kind": "player"}, {"kind": "open"}])["table_id"]
    _, guest = new_player(client, "Bob")
    tokens_of = {"seat": tokens[seat], "player": guest, None: None}

    def send(path: str, body: str, credentials: str | None) -> Any:
        token = tokens_of[credentials]
        return client.post(path.format(game_id=game_id, table_id=table_id), data=body,
                           content_type="application/json",
                           headers=bearer(token) if token else {})

    return send


@pytest.mark.parametrize(("path", "body", "member", "credentials"), ENDPOINTS)
def test_an_integer_too_long_to_read_is_a_422_naming_its_member(
        post: Callable[[str, str, str | None], Any], path: str, body: str, member: str,
        credentials: str | None) -> None:
    for number in (HUGE, "-" + HUGE):
        problem = assert_problem(post(path, body.replace("{N}", number), credentials), 422,
                                 "validation-error")
        assert list(problem["errors"]) == [member], problem
        assert "more than 4300 digits" in problem["errors"][member][0]


@pytest.mark.parametrize(("path", "body", "member", "credentials"), ENDPOINTS)
def test_a_key_given_twice_is_a_400_naming_it(
        post: Callable[[str, str, str | None], Any], path: str, body: str, member: str,
        credentials: str | None) -> None:
    key = member.rpartition(".")[2]
    twice = body.replace("{N}", f'1, "{key}": 2')
    problem = assert_problem(post(path, twice, credentials), 400, "bad-request")
    assert list(problem["errors"]) == [member], problem
    assert f"'{key}' is given twice" in problem["detail"]


def test_a_repeated_action_type_is_refused_and_nothing_is_played(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    seat = next(s for s in (0, 1) if view(client, game_id, tokens[s])["legal_actions"])
    before = view(client, game_id, tokens[seat])
    card = next(a["card"] for a in before["legal_actions"] if a["type"] == "play")
    response = client.post(f"/v1/games/{game_id}/actions",
                           data=f'{{"type": "play", "card": "{card}", "type": "close"}}',
                           content_type="application/json", headers=bearer(tokens[seat]))
    problem = assert_problem(response, 400, "bad-request")
    assert list(problem["errors"]) == ["type"]
    assert view(client, game_id, tokens[seat])["version"] == before["version"]


def test_long_digits_in_a_string_and_long_integers_within_bounds_pass(
        client: FlaskClient) -> None:
    """The check refuses only what Python cannot read: a 4,300-digit integer goes on to the
    field's own range check, a string of digits to the field."""
    response = client.post("/v1/games", data='{"match_points": ' + "9" * 4300 + "}",
                           content_type="application/json")
    problem = assert_problem(response, 422, "validation-error")
    assert list(problem["errors"]) == ["match_points"]
    assert "digits" not in problem["errors"]["match_points"][0]
    response = client.post("/v1/players", data='{"name": "' + "9" * 5000 + '"}',
                           content_type="application/json")
    problem = assert_problem(response, 422, "validation-error")
    assert list(problem["errors"]) == ["name"]
