"""The hot path's JSON (orjson) writes and reads what the standard library did, and falls
back to it where orjson refuses: a lone surrogate (a JSON escape puts one in a name), an
integer beyond 64 bits, integer keys."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from api.fastjson import dumps, dumps_text, loads

LONE = "\ud800"


def test_values_orjson_refuses_are_written_by_the_standard_library() -> None:
    for value in ({"name": LONE}, [2**70], {"big": -(2**80), "x": [LONE, "é"]}):
        assert json.loads(dumps(value)) == value
    assert loads(dumps({"name": LONE})) == {"name": LONE}


def test_what_it_writes_reads_back_the_same() -> None:
    value = {"a": [1, 2.5, None, True, "é😀"], "b": {"c": "", "d": -3}}
    assert loads(dumps(value)) == value == json.loads(dumps(value))
    assert dumps({1: "x", 2: [3]}) == b'{"1":"x","2":[3]}'  # int keys as json.dumps writes them
    assert dumps_text([1, "é"]) == '[1,"é"]' and dumps((1, 2)) == b"[1,2]"


@pytest.mark.parametrize("text", [b"{", b"NaN]", b"", b'"\\ud800'])
def test_invalid_json_is_a_value_error(text: bytes) -> None:
    with pytest.raises(ValueError):
        loads(text)


def test_a_seat_named_with_a_lone_surrogate_is_refused_by_name(client: FlaskClient) -> None:
    """The JSON parses (no 500), and the text policy refuses the name (category Cs) with a
    422 naming the field."""
    response = client.post("/v1/games", data='{"seats": [{"kind": "human", "name": "\\ud800"},'
                           ' {"kind": "human", "name": "Bob"}]}', content_type="application/json")
    assert response.status_code == 422, response.get_data()
    assert response.content_type == "application/problem+json"
    assert list(response.get_json()["errors"]) == ["seats.0.name"]
