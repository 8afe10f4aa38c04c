"""Worker processes run at a lower CPU priority than the web tier (``SIXTYSIX_WORKER_NICE``)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import redis

from api.runtime.redis_server import EmbeddedRedis
from api.worker.priority import DEFAULT_NICE, PriorityError, worker_nice
from api.worker.run import WorkerPool
from tests.conftest import worker_env


def _nice(pid: int) -> int:
    """The nice value of ``pid`` (field 19 of /proc/PID/stat)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def _niced_to(pid: int, value: int, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _nice(pid) == value:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize(("raw", "nice"), [("", DEFAULT_NICE), ("0", 0), (" 19 ", 19)])
def test_the_increment_comes_from_the_environment(raw: str, nice: int) -> None:
    assert worker_nice({"SIXTYSIX_WORKER_NICE": raw}) == nice
    assert worker_nice({}) == DEFAULT_NICE == 10


@pytest.mark.parametrize("raw", ["20", "-5", "ten", "1.5"])
def test_a_bad_increment_is_refused_naming_the_variable(raw: str) -> None:
    with pytest.raises(PriorityError, match="SIXTYSIX_WORKER_NICE"):
        worker_nice({"SIXTYSIX_WORKER_NICE": raw})


@pytest.mark.parametrize(("raw", "added"), [("", DEFAULT_NICE), ("3", 3)])
def test_pool_workers_run_niced_and_the_scheduler_does_not(
        redis_server: EmbeddedRedis, redis_client: redis.Redis, raw: str, added: int) -> None:
    own = os.nice(0)
    env = {**worker_env(redis_server.url), "SIXTYSIX_WORKER_NICE": raw}
    with WorkerPool(1, env, lambda line: None) as pool:
        worker, scheduler = pool.children
        assert _niced_to(worker.pid, min(19, own + added))
        deadline = time.monotonic() + 30
        while not redis_client.keys("rq:scheduler-lock:*") and time.monotonic() < deadline:
            time.sleep(0.05)  # the scheduler is at work (it holds RQ's lock)
        assert redis_client.keys("rq:scheduler-lock:*")
        assert _nice(scheduler.pid) == own  # clock deadlines are due on time
