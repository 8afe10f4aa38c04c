"""Schemathesis against the running app (real HTTP, real Redis) with the committed schema
``openapi/openapi.json``: no 5xx, every status, content type, header and body as documented.

Generated game ids are mostly unknown ones (404); half of the cases are pointed at a real game
(a human against the computer) with its seat token, so views, actions, events and hints answer
200, 409 and 412 too. Rate limits are off (the fuzzer is one busy client); long-polls wait at
most a second.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.faults.play import UNLIMITED

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
EXAMPLES = 30
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]

# an event stream never ends, so no answer of it can be checked whole:
# tests/api/live/test_streams.py tests the streams (and tests/api/http/test_leak_scan.py scans them)
schema = schemathesis.openapi.from_path(SCHEMA_PATH).exclude(path_regex=r"/stream$")


@pytest.fixture(scope="module")
def served(redis_server: EmbeddedRedis) -> Iterator[tuple[str, str, str]]:
    """The app over a socket: (base URL, a real game's id, its human seat's token)."""
    with LocalServer(redis_server.url, {**UNLIMITED, "SIXTYSIX_MAX_WAIT": 1}) as server:
        created = requests.post(f"{server.url}/v1/games", json={
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "random"}]},
            timeout=30).json()
        yield server.url, created["game_id"], created["seats"][0]["token"]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_every_answer_is_documented(case: Any, served: tuple[str, str, str]) -> None:
    url, game_id, token = served
    if "game_id" in (case.path_parameters or {}) and zlib.crc32(repr(case.body).encode()) % 2 == 0:
        case.path_parameters["game_id"] = game_id
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    response = case.call(base_url=url, timeout=30)
    case.validate_response(response, checks=CHECKS)
