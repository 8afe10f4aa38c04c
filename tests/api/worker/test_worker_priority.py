"""Worker processes run at a lower CPU priority than the web tier: ``SCHED_IDLE`` and niced by
default, only niced with ``SIXTYSIX_WORKER_POLICY=nice`` or where ``SCHED_IDLE`` is refused."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import redis

from api.runtime.redis_server import EmbeddedRedis
from api.worker import priority
from api.worker.priority import (
    DEFAULT_NICE,
    IDLE,
    NICE,
    Priority,
    PriorityError,
    lower_priority,
    worker_nice,
    worker_policy,
)
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


def _policy_is(pid: int, policy: int, timeout: float = 30.0) -> bool:
    """Whether every thread of ``pid`` is at ``policy`` (the sweep's thread inherits it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        threads = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
        if len(threads) > 1 and all(os.sched_getscheduler(t) == policy for t in threads):
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


@pytest.mark.parametrize(("raw", "policy"), [("", IDLE), (" IDLE ", IDLE), ("nice", NICE)])
def test_the_policy_comes_from_the_environment(raw: str, policy: str) -> None:
    assert worker_policy({"SIXTYSIX_WORKER_POLICY": raw}) == policy
    assert worker_policy({}) == IDLE


@pytest.mark.parametrize("raw", ["batch", "fifo", "0"])
def test_a_bad_policy_is_refused_naming_the_variable(raw: str) -> None:
    with pytest.raises(PriorityError, match="SIXTYSIX_WORKER_POLICY"):
        worker_policy({"SIXTYSIX_WORKER_POLICY": raw})


def _no_changes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Record the nice and policy calls instead of making them (this is the test process)."""
    calls: list[tuple[str, int]] = []

    def nice(increment: int) -> int:
        calls.append(("nice", increment))
        return 7 + increment

    def setscheduler(pid: int, policy: int, param: os.sched_param) -> None:
        calls.append(("policy", policy))

    monkeypatch.setattr(priority.os, "nice", nice)
    monkeypatch.setattr(priority.os, "sched_setscheduler", setscheduler)
    return calls


def test_idle_is_set_after_the_nice_increment(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _no_changes(monkeypatch)
    assert lower_priority({}) == Priority("SCHED_IDLE", 17)
    assert calls == [("nice", 10), ("policy", os.SCHED_IDLE)]


def test_nice_sets_no_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _no_changes(monkeypatch)
    found = lower_priority({"SIXTYSIX_WORKER_POLICY": "nice", "SIXTYSIX_WORKER_NICE": "3"})
    assert found == Priority("SCHED_OTHER", 10) and calls == [("nice", 3)]


def test_a_refused_idle_policy_falls_back_to_the_nice_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _no_changes(monkeypatch)

    def refuse(pid: int, policy: int, param: os.sched_param) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(priority.os, "sched_setscheduler", refuse)
    found = lower_priority({"SIXTYSIX_WORKER_NICE": "5"})
    assert (found.policy, found.nice) == ("SCHED_OTHER", 12) and calls == [("nice", 5)]
    assert found.fallback == "SCHED_IDLE refused (Operation not permitted)"
    monkeypatch.delattr(priority.os, "SCHED_IDLE")  # not Linux
    assert lower_priority({}).fallback == "this system has no SCHED_IDLE"


def test_a_bad_value_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _no_changes(monkeypatch)
    with pytest.raises(PriorityError):
        lower_priority({"SIXTYSIX_WORKER_POLICY": "fast"})
    assert calls == []


@pytest.mark.parametrize(("raw", "policy", "added"), [
    ({}, os.SCHED_IDLE, DEFAULT_NICE),
    ({"SIXTYSIX_WORKER_POLICY": "nice", "SIXTYSIX_WORKER_NICE": "3"}, os.SCHED_OTHER, 3)])
def test_pool_workers_run_lowered_and_the_scheduler_does_not(
        redis_server: EmbeddedRedis, redis_client: redis.Redis, raw: dict[str, str],
        policy: int, added: int) -> None:
    own = os.nice(0)
    env = {**worker_env(redis_server.url), "SIXTYSIX_WORKER_NICE": "",
           "SIXTYSIX_WORKER_POLICY": "", **raw}
    with WorkerPool(1, env, lambda line: None) as pool:
        worker, scheduler = pool.children
        assert _niced_to(worker.pid, min(19, own + added))
        assert _policy_is(worker.pid, policy)
        deadline = time.monotonic() + 30
        while not redis_client.keys("rq:scheduler-lock:*") and time.monotonic() < deadline:
            time.sleep(0.05)  # the scheduler is at work (it holds RQ's lock)
        assert redis_client.keys("rq:scheduler-lock:*")
        assert _nice(scheduler.pid) == own  # clock deadlines are due on time
        assert os.sched_getscheduler(scheduler.pid) == os.sched_getscheduler(0)
