"""The pool of worker processes restarts the dead ones and gives up when they keep dying."""

from __future__ import annotations

import os
import sys

import pytest

from api.cli import main
from api.worker.run import DEATH_WINDOW, MAX_DEATHS, WorkerPool

#: A "worker" that dies at once with status 3.
DYING = [sys.executable, "-c", "raise SystemExit(3)"]


def _pool(processes: int, scheduler: bool, now: list[float], lines: list[str]) -> WorkerPool:
    pool = WorkerPool(processes, dict(os.environ), lines.append, clock=lambda: now[0],
                      scheduler=scheduler)
    pool.commands = [DYING] * len(pool.commands)
    return pool.start()


def _all_dead(pool: WorkerPool) -> None:
    for child in pool.children:
        child.wait(30)


def test_a_dead_worker_and_scheduler_are_restarted() -> None:
    lines: list[str] = []
    pool = _pool(1, True, [0.0], lines)
    try:
        _all_dead(pool)
        assert pool.check()
        assert [x.split()[0] for x in lines] == ["worker", "scheduler"]
        assert all("exited with status 3; restarting it" in x for x in lines)
        assert all(child.pid != int(x.split()[2]) for child, x in zip(pool.children, lines,
                                                                         strict=True))
    finally:
        pool.stop()


def test_the_pool_gives_up_after_too_many_deaths_in_the_window() -> None:
    now = [0.0]
    lines: list[str] = []
    pool = _pool(1, False, now, lines)
    try:
        _all_dead(pool)
        assert pool.check()
        now[0] = DEATH_WINDOW + 1  # that death falls out of the window
        for _ in range(MAX_DEATHS - 1):
            _all_dead(pool)
            assert pool.check()
        _all_dead(pool)
        assert not pool.check()
        assert lines[-1].startswith(f"worker processes died {MAX_DEATHS} times within")
    finally:
        pool.stop()


def test_sixtysix_worker_refuses_a_cluster_queue_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QUEUE_URL", "redis+cluster://127.0.0.1:1")
    assert main(["worker", "--processes", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "names a Redis Cluster" in err and "set QUEUE_URL" in err
