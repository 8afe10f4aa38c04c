"""Whole numbers in headers, query values, records, the environment and typed input are ASCII
digits of bounded length: ``²``, ``¹``, ``٣`` or 5,000 digits are refused (a 422, an error
naming the setting, ``None``), never a crash and never read as a number nobody wrote."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import requests
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api.clients.client import ApiError
from api.clients.terminal import parse_choice
from api.config import from_env
from api.live.clock import _env_seconds
from api.runtime.redis_connect import RedisURLError, parse
from api.runtime.serve import ServeError, default_workers, split_bind
from api.worker.priority import PriorityError, worker_nice
from engine.numerals import parse_natural
from engine.record import InvalidRecord, parse_text
from tests.api.helpers import assert_problem, bearer, two_humans

#: Text that ``str.isdigit`` (or ``int``) took for a number.
NOT_ASCII_DIGITS = ["²", "¹", "٣", "1²", "9" * 5000, "+1", "1_0", " 1", "-1", ""]
#: The same, for a setting (the environment's are stripped of spaces first).
SETTING_VALUES = ["²", "¹", "٣", "1²", "9" * 5000, "+1", "1_0", "-1"]
#: The same, for a header (latin-1 only: what HTTP can carry as text).
HEADER_VALUES = ["²", "¹", "1¹", "9" * 5000, "+1", "1_0", "-1", "0x1"]


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS)
def test_parse_natural_refuses_all_but_ascii_digits(text: str) -> None:
    assert parse_natural(text) is None


def test_parse_natural_reads_ascii_digits_up_to_its_bound() -> None:
    assert parse_natural("0") == 0 and parse_natural("007") == 7
    assert parse_natural("9" * 18) == 10**18 - 1 and parse_natural("9" * 19) is None
    assert parse_natural("65535", 5) == 65535 and parse_natural("100000", 5) is None


@pytest.mark.parametrize("value", HEADER_VALUES)
def test_a_last_event_id_that_is_not_ascii_digits_is_a_422(client: FlaskClient,
                                                           value: str) -> None:
    game_id, _ = two_humans(client)
    response = client.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": value})
    _refused_at_once(response)
    problem = assert_problem(response, 422, "validation-error")
    assert "Last-Event-ID" in problem["errors"]


@pytest.mark.parametrize("value", NOT_ASCII_DIGITS[:-1])
@pytest.mark.parametrize(("path", "name"), [
    ("/v1/games/{game_id}/events", "after"), ("/v1/games/{game_id}/events", "limit"),
    ("/v1/games/{game_id}", "after_version"), ("/v1/games/{game_id}/stream", "after"),
    ("/v1/tables", "limit"), ("/v1/leaderboard", "limit"), ("/v1/ratings", "limit"),
])
def test_an_integer_query_value_is_ascii_digits(client: FlaskClient, path: str, name: str,
                                                value: str) -> None:
    game_id, _ = two_humans(client)
    response = client.get(path.format(game_id=game_id), query_string={name: value})
    _refused_at_once(response)
    problem = assert_problem(response, 422, "validation-error")
    assert name in problem["errors"]


def _refused_at_once(response: TestResponse) -> None:
    """A refusal, checked without reading the body: an accepted stream never ends."""
    if response.status_code != 422:
        response.close()
        pytest.fail(f"accepted: {response.status_code}")


@pytest.mark.parametrize("record", [
    "variant=sixty-six\ndealer=² deck=? |\n",
    "variant=sixty-six\ndealer=1 deck=? | ²:play:QH\n",
    "variant=sixty-six match_points=٣\n",
])
def test_a_record_number_is_ascii_digits(client: FlaskClient, record: str) -> None:
    with pytest.raises(InvalidRecord):
        parse_text(record)
    response = client.post("/v1/analysis", json={"record_text": record, "seat": 0})
    assert "record_text" in assert_problem(response, 422, "validation-error")["errors"]


@pytest.mark.parametrize("value", SETTING_VALUES)
@pytest.mark.parametrize("read", [
    lambda v: from_env({"SIXTYSIX_MAX_CHAT": v}),
    lambda v: _env_seconds_of(v),
    lambda v: worker_nice({"SIXTYSIX_WORKER_NICE": v}),
    lambda v: split_bind(f"127.0.0.1:{v}"),
    lambda v: parse(f"redis+cluster://n1:{v}"),
    lambda v: parse(f"redis+sentinel://s1:26379/games/{v}"),
])
def test_settings_refuse_numbers_that_are_not_ascii_digits(read: Callable[[str], Any],
                                                           value: str) -> None:
    with pytest.raises((ValueError, ServeError, PriorityError, RedisURLError)):
        read(value)


def _env_seconds_of(value: str) -> int:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SIXTYSIX_TEST_SECONDS", value)
        return _env_seconds("SIXTYSIX_TEST_SECONDS", 5)


def test_sixtysix_workers_is_ascii_digits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIXTYSIX_WORKERS", "²")
    with pytest.raises(ServeError):
        default_workers()
    monkeypatch.setenv("SIXTYSIX_WORKERS", "3")
    assert default_workers() == 3


@pytest.mark.parametrize("typed", ["²", "¹", "٣"])
def test_a_typed_choice_is_ascii_digits(typed: str) -> None:
    assert parse_choice(typed, [{"type": "play", "card": "KH"}]) is None


@pytest.mark.parametrize(("header", "seconds"), [("5", 5.0), ("²", None), ("٣", None),
                                                  ("9" * 5000, None)])
def test_the_client_reads_retry_after_as_ascii_digits(header: str,
                                                      seconds: float | None) -> None:
    response = requests.Response()
    response.status_code = 503
    response.headers["Retry-After"] = header
    response._content = b'{"title": "busy"}'
    assert ApiError.from_response(response).retry_after == seconds


def test_an_integer_query_value_still_reads_ascii_digits(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    response = client.get(f"/v1/games/{game_id}/events", query_string={"after": "0",
                                                                      "limit": "007"},
                          headers=bearer(tokens[0]))
    assert response.status_code == 200, response.json
