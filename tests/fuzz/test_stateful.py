"""Schemathesis' stateful phase against the live app, following the ``links`` of the committed
spec: every check passes, and the chain create → action reaches ``POST /actions`` with the new
game's seat token (answered 200, 409 or 412, not 401).

One check is left out for requests that carry a token a creation of this run handed out (the
link put it there): schemathesis' ``ignored_auth`` takes any ``Authorization`` it did not get
from its own options for generated, "likely invalid", and so reports a real token's 200 as
"API accepts invalid authentication". Requests with generated tokens keep that check. And an
``Idempotency-Key`` the fuzzer sends again with another body is refused 422
``idempotency-key-reused`` as it should be: that answer is not held against the request's
data (``positive_data_acceptance``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.faults.play import UNLIMITED

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
ACTIONS = "POST /v1/games/{game_id}/actions"
KEY_REUSED = "https://sixtysix.dev/problems/idempotency-key-reused"


@pytest.fixture(scope="module")
def url(redis_server: EmbeddedRedis) -> Iterator[str]:
    with LocalServer(redis_server.url, {**UNLIMITED, "SIXTYSIX_MAX_WAIT": 1}) as server:
        yield server.url


def test_stateful_run_plays_actions_with_a_linked_token(url: str) -> None:
    # the games' operations, which the links of POST /v1/games chain (the lobby's, fuzzed
    # statelessly in test_schemathesis, would take most of the examples here)
    spec = json.loads(SCHEMA_PATH.read_text())
    spec["paths"] = {p: ops for p, ops in spec["paths"].items()
                     if p.startswith("/v1/games") and not p.endswith("/stream")}  # never ends
    schema = schemathesis.openapi.from_dict(spec)
    schema.config.update(base_url=url)
    statuses: Counter[int] = Counter()
    minted: set[str] = set()  # "Bearer <token>" of every seat token a creation answered

    class Machine(schema.as_state_machine()):  # type: ignore[misc]
        def after_call(self, response: Any, case: Any) -> None:
            if case.operation.label == "POST /v1/games" and response.status_code == 201:
                minted.update(f"Bearer {s['token']}" for s in response.json()["seats"]
                              if s["token"])
            if case.operation.label == ACTIONS and (case.headers or {}).get(
                    "Authorization") in minted:
                statuses[response.status_code] += 1

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None,
                              **kwargs: Any) -> None:
            linked = (case.headers or {}).get("Authorization") in minted
            excluded = [ignored_auth] if linked else []
            if response.status_code == 422 and response.json().get("type") == KEY_REUSED:
                excluded.append(positive_data_acceptance)
            case.validate_response(response, additional_checks=additional_checks,
                                   excluded_checks=excluded or None,
                                   transport_kwargs=kwargs or None, recorder=self.recorder)

    Machine.run(settings=settings(max_examples=40, deadline=None, derandomize=True,
                                  stateful_step_count=6,
                                  suppress_health_check=list(HealthCheck)))
    assert statuses[200] + statuses[409] + statuses[412] > 0, statuses
