"""Hints and analyses run on the workers, with a bounded queue: a full queue is a 503 with
``Retry-After`` at once, a wait without a worker's answer a 503 ``advice-timeout`` (the job is
cancelled), no worker process at all a 503 ``workers-unavailable`` at once, and a worker
answers once there is one. A Redis of its own: no session workers."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from api.http.resources.analysis import POSITION_EXAMPLE
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from api.worker.queue import Shard
from api.worker.run import WorkerThreads
from api.worker.tier import SCHEDULER, WORKERS, Heartbeat
from tests.waiting import until

LIMIT = 2
CONFIG = {"SIXTYSIX_ADVICE_QUEUE": LIMIT, "SIXTYSIX_ADVICE_WAIT": 3.0, "SIXTYSIX_RETRY_AFTER": 4}


@pytest.fixture
def own(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The API on a Redis of its own with a worker tier that runs but takes no job (its
    heartbeat alone: every worker busy): (its URL, the Redis URL)."""
    with EmbeddedRedis(tmp_path, appendonly=False) as server, LocalServer(
            server.url, CONFIG, workers=0) as api, Heartbeat(
                redis.Redis.from_url(server.url), WORKERS):
        yield api.url, server.url


def _missing(url: str) -> list[str]:
    ready = requests.get(f"{url}/readyz", timeout=10)
    assert ready.status_code == 200
    missing: list[str] = ready.json()["missing"]
    return missing


def test_without_a_worker_process_advice_is_refused_at_once(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path, appendonly=False) as server, LocalServer(
            server.url, CONFIG, workers=0) as api:
        until(lambda: _missing(api.url) == [WORKERS, SCHEDULER], "/readyz names the workers")
        refused = _analyse(api.url)
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "4"
        assert refused.json()["type"].endswith("/workers-unavailable")
        assert Shard(redis.Redis.from_url(server.url)).advice.count == 0  # nothing queued
        with WorkerThreads(server.url):
            until(lambda: _missing(api.url) == [SCHEDULER], "/readyz sees the workers")
            answered = _analyse(api.url)
        assert answered.status_code == 200, answered.text


def _analyse(url: str) -> requests.Response:
    return requests.post(f"{url}/v1/analysis", json={**POSITION_EXAMPLE, "budget_ms": 100},
                         timeout=30)


def test_a_full_advice_queue_is_a_503_with_retry_after(own: tuple[str, str]) -> None:
    url, redis_url = own
    queue = Shard(redis.Redis.from_url(redis_url))
    waiting: list[requests.Response] = []
    threads = [threading.Thread(target=lambda: waiting.append(_analyse(url)))
               for _ in range(LIMIT)]
    for thread in threads:
        thread.start()
    deadline = 100
    while queue.advice.count < LIMIT and deadline:  # both are enqueued, no worker takes them
        threading.Event().wait(0.05)
        deadline -= 1
    assert queue.advice.count == LIMIT
    full = _analyse(url)
    assert full.status_code == 503 and full.headers["Retry-After"] == "4"
    problem: dict[str, Any] = full.json()
    assert problem["type"].endswith("/advice-queue-full") and problem["queue_limit"] == LIMIT
    for thread in threads:
        thread.join()
    # no worker answered within SIXTYSIX_ADVICE_WAIT: 503, and the jobs are cancelled
    assert [r.status_code for r in waiting] == [503] * LIMIT
    assert all(r.json()["type"].endswith("/advice-timeout") and r.headers["Retry-After"] == "4"
               for r in waiting)
    assert queue.advice.count == 0
    with WorkerThreads(redis_url):
        answered = _analyse(url)
    assert answered.status_code == 200, answered.text
    assert answered.json()["best"] in POSITION_EXAMPLE["legal_actions"]
