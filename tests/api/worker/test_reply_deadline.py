"""A computer reply's deadline under load (api/worker/deadline.py): the share of its level's work
a reply gets from the time it waited and the queue behind it, and new games against the
computer refused with 503 ``computers-busy`` while even the floor cannot answer in time, through
the real queue and real workers (a Redis of its own, worker threads started by the test)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from api.games.think import ThinkSettings
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from api.worker.deadline import BUSY_SECONDS, PLAN, Pace
from api.worker.queue import Shard
from api.worker.run import WorkerThreads
from api.worker.tier import WORKERS, Heartbeat
from tests.waiting import until

#: Seconds a reply may take, queue included: short, so that jobs left waiting pass it.
TARGET = 0.3
ASYNC = {"Prefer": "respond-async"}


def _computer_leads(url: str, level: str = "normal") -> dict[str, Any]:
    """A game whose computer (seat 1) leads: its first move is a job on the queue."""
    body = {"seats": [{"kind": "human"}, {"kind": "computer", "level": level}],
            "first_dealer": 0}
    created = requests.post(f"{url}/v1/games", json=body, headers=ASYNC, timeout=30)
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def _answered(url: str, game: dict[str, Any]) -> dict[str, Any]:
    """The human's view once the computer has answered (it may save twice: a meld, then its
    lead), long-polling version after version."""
    token = game["seats"][0]["token"]
    seen: dict[str, Any] = {"version": game["version"], "legal_actions": []}
    deadline = time.monotonic() + 30
    while not seen["legal_actions"] and time.monotonic() < deadline:
        seen = requests.get(f"{url}/v1/games/{game['game_id']}",
                            params={"after_version": seen["version"], "wait": 10},
                            headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
    return seen


@pytest.fixture
def own(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The API on a Redis of its own whose worker tier beats but runs no worker yet (the test
    starts them): (its URL, the Redis URL)."""
    with EmbeddedRedis(tmp_path, appendonly=False) as server, LocalServer(
            server.url, workers=0) as api, Heartbeat(redis.Redis.from_url(server.url), WORKERS):
        yield api.url, server.url


def test_replies_past_their_deadline_refuse_new_computer_games_and_serve_the_others(
        own: tuple[str, str]) -> None:
    url, redis_url = own
    queue = Shard(redis.Redis.from_url(redis_url))
    games = [_computer_leads(url) for _ in range(4)]
    assert queue.moves.count == 4
    time.sleep(2 * TARGET)  # every reply waits past its deadline before a worker comes
    with WorkerThreads(redis_url, think=ThinkSettings(reply_target=TARGET)):
        until(lambda: queue.busy_for() > 0, "the worker notes it cannot answer in time")
        refused = requests.post(f"{url}/v1/games", json={}, timeout=30)
        assert refused.status_code == 503, refused.text
        assert refused.headers["Content-Type"] == "application/problem+json"
        assert 1 <= int(refused.headers["Retry-After"]) <= BUSY_SECONDS
        assert refused.json()["type"].endswith("/computers-busy")
        player = requests.post(f"{url}/v1/players", json={"name": "Ann"}, timeout=30).json()
        tour = requests.post(f"{url}/v1/tour/chicago/start", timeout=30,
                             headers={"Authorization": f"Bearer {player['token']}"})
        assert tour.status_code == 503 and tour.json()["type"].endswith("/computers-busy")
        humans = requests.post(f"{url}/v1/games", json={"seats": [{"kind": "human"}] * 2},
                               timeout=30)
        assert humans.status_code == 201, humans.text  # no computer: not refused
        for game in games:  # the games under way are answered all the same
            view = _answered(url, game)
            assert view["version"] > game["version"] and view["legal_actions"]
        until(lambda: queue.busy_for() == 0, "the busy note lapses", patience=BUSY_SECONDS + 5)
        again = requests.post(f"{url}/v1/games", json={}, timeout=30)
        assert again.status_code == 201, again.text


def test_a_reply_on_time_keeps_the_computers_open(own: tuple[str, str]) -> None:
    url, redis_url = own
    queue = Shard(redis.Redis.from_url(redis_url))
    with WorkerThreads(redis_url, think=ThinkSettings(reply_target=5.0)):
        assert _answered(url, _computer_leads(url))["legal_actions"]
        assert queue.busy_for() == 0
        assert requests.post(f"{url}/v1/games", json={}, timeout=30).status_code == 201


def test_the_share_falls_with_the_queue_to_the_floor() -> None:
    pace = Pace(ThinkSettings(reply_target=1.5, floor=0.125))
    assert PLAN == 0.5
    assert pace.share(0.0, 20, 1).share == 1.0  # nothing measured yet: full work
    pace.observe(0.05, 1.0)  # a reply at full work took 50 ms
    assert pace.share(0.0, 0, 1).share == 1.0 and not pace.share(0.0, 0, 1).busy
    # 29 replies behind it on one worker: 1.5 s / 30 = 50 ms each, of which it plans to spend
    # half (PLAN): half the work
    assert pace.share(0.0, 29, 1).share == pytest.approx(0.5)
    assert pace.share(0.0, 28, 2).share == 1.0  # two workers share the queue
    assert pace.share(0.75, 29, 1).share == pytest.approx(0.25)  # it waited half its time
    floor = pace.share(0.0, 299, 1)  # 5 ms each, 2.5 planned: below the floor's 6.25 ms
    assert floor.share == 0.125 and floor.busy
    assert pace.share(2.0, 0, 1).busy  # already past its deadline


def test_the_measure_of_a_full_reply_follows_the_replies() -> None:
    pace = Pace(ThinkSettings())
    pace.observe(0.05, 0.5)
    assert pace.full == pytest.approx(0.1)  # 50 ms at half the work: 100 ms at full
    for _ in range(100):
        pace.observe(0.2, 1.0)
    assert pace.full == pytest.approx(0.2, rel=1e-3)
