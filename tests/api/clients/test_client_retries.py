"""api.clients.client honours Retry-After: a 429 is waited out and sent again, a bounded number of
times, then raised as an ApiError saying so; an action's retries reuse its Idempotency-Key.

Each test serves the app (real socket, real Redis) with one small limit on.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import requests

from api.clients.client import ApiError, SixtySixClient
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis

OFF = {"SIXTYSIX_RATE_ADDRESS": "off", "SIXTYSIX_RATE_CREATE": "off",
       "SIXTYSIX_RATE_ACTIONS": "off"}
HUMANS: list[Any] = [{"kind": "human"}, {"kind": "computer"}]


@pytest.fixture
def served(redis_server: EmbeddedRedis, redis_client: redis.Redis,
           request: pytest.FixtureRequest) -> Iterator[str]:
    config = {"RATELIMIT_ENABLED": True, **OFF, **request.param}
    with LocalServer(redis_server.url, config) as server:
        yield server.url


def limited(**config: str) -> pytest.MarkDecorator:
    return pytest.mark.parametrize("served", [config], indirect=True, ids=[""])


class Sleeps(list[float]):
    """The client's sleeps, recorded; with ``real`` they are slept too."""

    def __init__(self, real: bool) -> None:
        super().__init__()
        self.real = real

    def __call__(self, seconds: float) -> None:
        self.append(seconds)
        if self.real:
            time.sleep(seconds)


@limited(SIXTYSIX_RATE_ADDRESS="2/second")
def test_a_429_is_waited_out_and_sent_again(served: str) -> None:
    sleeps = Sleeps(real=True)
    client = SixtySixClient(served, sleep=sleeps)
    for _ in range(3):
        assert client.rules()["variants"]
    assert sleeps and all(0 < s <= 1 for s in sleeps)  # the Retry-After of a per-second limit


@limited(SIXTYSIX_RATE_ADDRESS="1/minute")
def test_after_the_bound_the_429_is_raised_saying_so(served: str) -> None:
    sleeps = Sleeps(real=False)
    client = SixtySixClient(served, tries=3, max_sleep=2.5, sleep=sleeps)
    client.rules()
    with pytest.raises(ApiError) as info:
        client.rules()
    error = info.value
    assert (error.status, error.tries) == (429, 3)
    assert error.type.endswith("/rate-limited")
    assert "gave up after 3 tries" in str(error)
    assert error.retry_after is not None and error.retry_after > 2.5
    assert sleeps == [2.5, 2.5]  # Retry-After, capped at max_sleep


@limited(SIXTYSIX_RATE_ACTIONS="1/second")
def test_an_action_is_retried_under_its_own_idempotency_key(served: str) -> None:
    sent: list[tuple[int, str]] = []

    def keep(response: requests.Response, **_: Any) -> None:
        if response.request.method == "POST" and response.request.url.endswith("/actions"):
            sent.append((response.status_code, response.request.headers["Idempotency-Key"]))

    session = requests.Session()
    session.hooks["response"].append(keep)
    client = SixtySixClient(served, session=session, sleep=Sleeps(real=True))
    game = client.create_game(seats=HUMANS)
    me = client.with_token(game["seats"][0]["token"])
    view = me.view(game["game_id"])
    for _ in range(2):  # two actions within the second: the second is refused, then sent again
        assert view["legal_actions"]
        view = me.act(game["game_id"], view["legal_actions"][0])
    statuses = [status for status, _ in sent]
    assert statuses[0] == 200 and 429 in statuses and statuses[-1] == 200
    first, *second = [key for _, key in sent]
    assert len(first) >= 22 and set(second) == {second[0]} and second[0] != first


@pytest.mark.parametrize(("status", "kind", "keyed", "retried"), [
    (429, "rate-limited", False, True),
    (503, "store-unavailable", False, True),
    (503, "outcome-unknown", True, True),    # an action: its key makes the repeat safe
    (503, "outcome-unknown", False, False),  # a create without a key could make a second game
    (503, "saved-view-unavailable", False, False),  # a table change that stands: reload
    (503, "saved-view-unavailable", True, False),
    (409, "version-conflict", True, False),
    (500, "internal-error", True, False),
])
def test_what_is_retried(status: int, kind: str, keyed: bool, retried: bool) -> None:
    error = ApiError(status, "t", "d", type=f"https://sixtysix.dev/problems/{kind}")
    assert error.retryable(keyed) is retried
