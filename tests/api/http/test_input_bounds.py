"""Hostile input is a 4xx problem, never a 500: deep JSON, huge query numbers, lax integers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
import requests
from flask import Flask
from flask.testing import FlaskClient
from marshmallow import Schema, fields

from api.games.store import MAX_SEQ
from api.http.body import MAX_DEPTH, too_deep
from api.http.credentials import documented_operations
from api.http.resources.analysis import POSITION_EXAMPLE
from api.http.schemas import BodyInteger, QueryInteger
from tests.api.helpers import assert_problem, bearer, two_humans
from tests.api.lobby_helpers import new_player, new_table

#: About a thousand levels in 2 KB: the depth at which the stdlib decoder recursed to death.
DEEP_ARRAY = b"[" * 980 + b"]" * 980
DEEP_OBJECT = b'{"a":' * 400 + b"1" + b"}" * 400


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
def test_deeply_nested_json_is_a_400_on_every_endpoint(client: FlaskClient, body: bytes) -> None:
    """(With the credentials an endpoint needs: without them it is a 401 before the body.)"""
    game_id, tokens = two_humans(client)
    for path in ["/v1/games", f"/v1/games/{game_id}/actions", "/v1/analysis",
                 f"/v1/games/{game_id}/hint", f"/v1/games/{game_id}/chat"]:
        response = client.post(path, data=body, content_type="application/json",
                               headers=bearer(tokens[0]) if game_id in path else {})
        problem = assert_problem(response, 400, "bad-request")
        assert f"deeper than {MAX_DEPTH}" in problem["errors"]["body"][0], path


def test_deep_json_is_refused_over_a_real_socket(live_url: str,
                                                 redis_client: redis.Redis) -> None:
    response = requests.post(f"{live_url}/v1/analysis", data=DEEP_ARRAY,
                             headers={"Content-Type": "application/json"}, timeout=10)
    assert response.status_code == 400
    assert response.headers["Content-Type"] == "application/problem+json"


def test_the_depth_limit_itself(client: FlaskClient) -> None:
    at_limit = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    over = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    assert not too_deep(at_limit) and too_deep(over)
    # brackets inside strings, escaped quotes included, are text, not nesting
    assert not too_deep(b'{"a": "' + b"[{" * 100 + b'\\"' + b"[" * 50 + b'"}')
    assert too_deep(b'["\\\\"' + b",[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"]")
    # at the limit the body goes on to validation: a 422 on the field, not the 400
    inner = b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1)
    response = client.post("/v1/games", data=b'{"seats": ' + inner + b"}",
                           content_type="application/json")
    assert_problem(response, 422, "validation-error")


@pytest.mark.parametrize("query", [
    {"after": str(2**63 - 1)}, {"after": str(MAX_SEQ + 1)}, {"after": "-1"},
    {"limit": "0"}, {"limit": "501"}, {"limit": str(2**63)}, {"after": "1" * 400},
])
def test_events_query_numbers_are_bounded(client: FlaskClient, query: dict[str, str]) -> None:
    game_id, _ = two_humans(client)
    response = client.get(f"/v1/games/{game_id}/events", query_string=query)
    problem = assert_problem(response, 422, "validation-error")
    assert set(problem["errors"]) == set(query)


def test_events_at_the_largest_after_is_an_empty_page(client: FlaskClient) -> None:
    game_id, _ = two_humans(client)
    response = client.get(f"/v1/games/{game_id}/events", query_string={"after": MAX_SEQ,
                                                                      "limit": 500})
    assert response.status_code == 200, response.json
    assert response.json is not None and response.json["events"] == []


@pytest.mark.parametrize(("path", "query"), [
    ("", {"after_version": str(2**63)}), ("", {"wait": "1e308"}), ("", {"wait": "nan"}),
    ("", {"wait": "-1"}), ("/hint", {"budget_ms": "1e12"}), ("/hint", {"budget_ms": "0"}),
])
def test_other_query_numbers_are_bounded(client: FlaskClient, path: str,
                                         query: dict[str, str]) -> None:
    game_id, tokens = two_humans(client)
    method = client.post if path else client.get
    response = method(f"/v1/games/{game_id}{path}", query_string=query,
                      headers=bearer(tokens[0]))
    problem = assert_problem(response, 422, "validation-error")
    assert set(problem["errors"]) == set(query)


def test_every_query_number_has_bounds_in_the_spec(client: FlaskClient) -> None:
    spec: Any = client.get("/openapi.json").json
    seen = []
    for operations in spec["paths"].values():
        for method, operation in operations.items():
            if method == "parameters":  # the path's own (game_id)
                continue
            for parameter in operation.get("parameters", []):
                if "$ref" in parameter:  # a shared header, e.g. If-Match
                    parameter = spec["components"]["parameters"][parameter["$ref"].split("/")[-1]]
                schema = parameter.get("schema", {})
                if parameter["in"] == "query" and schema.get("type") in ("integer", "number"):
                    seen.append(parameter["name"])
                    assert "minimum" in schema and "maximum" in schema, parameter
    assert {"after", "limit", "after_version", "wait", "budget_ms"} <= set(seen)


@pytest.mark.parametrize("value", [0.5, 1.0, "1", True, False])
@pytest.mark.parametrize("field", ["first_dealer", "match_points", "set_bummerl"])
def test_body_integers_must_be_json_integers(client: FlaskClient, field: str,
                                             value: object) -> None:
    response = client.post("/v1/games", json={field: value})
    problem = assert_problem(response, 422, "validation-error")
    assert field in problem["errors"]


def test_first_dealer_is_a_seat(client: FlaskClient) -> None:
    assert_problem(client.post("/v1/games", json={"first_dealer": 2**70}), 422,
                   "validation-error")
    assert client.post("/v1/games", json={"first_dealer": 1}).status_code == 201


@pytest.mark.parametrize(("field", "value"), [
    ("samples", 2.0), ("samples", True), ("budget_ms", "300"), ("budget_ms", True),
    ("seat", True), ("dealer", True), ("to_act", False), ("talon_size", True),
    ("hand_sizes", [True, 6]), ("leader", False),
])
def test_analysis_numbers_are_not_booleans_or_strings(client: FlaskClient, field: str,
                                                      value: object) -> None:
    position = {**POSITION_EXAMPLE, "budget_ms": 20, "samples": 2}
    if field == "hand_sizes":
        position["hand_sizes"] = [6, True]
    else:
        position[field] = value
    response = client.post("/v1/analysis", json=position)
    problem = assert_problem(response, 422, "validation-error")
    assert field in problem["errors"] or (field == "leader" and "trick" in problem["errors"])


def _integer_fields(schema: Schema, prefix: str = "") -> Iterator[tuple[str, fields.Field]]:
    """Every integer field a schema loads, nested ones and list items included."""
    for name, field in schema.fields.items():
        inner = field.inner if isinstance(field, fields.List) else field
        if isinstance(inner, fields.Nested):
            yield from _integer_fields(inner.schema, f"{prefix}{name}.")
        elif isinstance(inner, fields.Integer):
            yield f"{prefix}{name}", inner


def test_every_integer_a_request_carries_is_of_the_one_strict_kind(app: Flask) -> None:
    """JSON bodies take only JSON integers (BodyInteger), queries only ASCII digits
    (QueryInteger): no schema has a lenient integer field."""
    seen = []
    for rule, method, _, apidoc in documented_operations(app):
        for parameter in apidoc.get("arguments", {}).get("parameters", []):
            schema = parameter["schema"]
            schema = schema() if isinstance(schema, type) else schema
            kind = QueryInteger if parameter["in"] == "query" else BodyInteger
            for name, field in _integer_fields(schema):
                assert type(field) is kind, (method, rule, name, type(field))
                seen.append(name)
    assert {"first_dealer", "match_points", "seat", "settings.think_time_s", "samples",
            "limit", "after", "after_version"} <= set(seen)


@pytest.mark.parametrize("value", [1.0, 0.0, True, "1"])
def test_a_seat_to_join_is_a_json_integer(client: FlaskClient, value: object) -> None:
    _, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    table_id = new_table(client, ann, seats=[{"kind": "player"}, {"kind": "open"}])["table_id"]
    response = client.post(f"/v1/tables/{table_id}/join", json={"seat": value},
                           headers=bearer(bob))
    assert "seat" in assert_problem(response, 422, "validation-error")["errors"]
    assert client.post(f"/v1/tables/{table_id}/join", json={"seat": 1},
                       headers=bearer(bob)).status_code == 200


@pytest.mark.parametrize(("body", "field"), [
    ({"match_points": 7.0}, "match_points"), ({"set_bummerl": 1.0}, "set_bummerl"),
    ({"match_points": True}, "match_points"),
    ({"settings": {"think_time_s": 30.0}}, "settings.think_time_s"),
])
def test_a_tables_integers_are_json_integers(client: FlaskClient, body: dict[str, Any],
                                             field: str) -> None:
    _, ann = new_player(client, "Ann")
    response = client.post("/v1/tables", headers=bearer(ann), json={
        "seats": [{"kind": "player"}, {"kind": "open"}], **body})
    assert field in assert_problem(response, 422, "validation-error")["errors"]


@pytest.mark.parametrize(("body", "field"), [
    ({"settings": {"think_time_s": 30.0}}, "settings.think_time_s"),
    ({"first_dealer": 1.0, "variant": "sixty-six"}, "first_dealer"),
    ({"seats": [{"kind": "human"}, {"kind": "computer"}], "match_points": 7.0},
     "match_points"),
])
def test_the_quick_creation_body_takes_only_json_integers(client: FlaskClient,
                                                          body: dict[str, Any],
                                                          field: str) -> None:
    response = client.post("/v1/games", json=body)
    assert field in assert_problem(response, 422, "validation-error")["errors"]
