"""The pool of worker processes restarts the dead ones, after a pause that grows with their
deaths up to a cap, and never gives up."""

from __future__ import annotations

import os
import sys

import pytest

from api.cli import main
from api.runtime.supervise import Backoff
from api.worker.run import RESTART_FIRST, RESTART_STABLE, WorkerPool

#: A "worker" that dies at once with status 3.
DYING = [sys.executable, "-c", "raise SystemExit(3)"]


def _pool(processes: int, scheduler: bool, now: list[float], lines: list[str],
          **env: str) -> WorkerPool:
    pool = WorkerPool(processes, {**os.environ, **env}, lines.append, clock=lambda: now[0],
                      scheduler=scheduler)
    pool.commands = [DYING] * len(pool.commands)
    return pool.start()


def _all_dead(pool: WorkerPool) -> None:
    for child in pool.children:
        assert child is not None
        child.wait(30)


def test_a_dead_worker_and_scheduler_are_restarted_after_a_pause() -> None:
    now = [0.0]
    lines: list[str] = []
    pool = _pool(1, True, now, lines)
    try:
        old = [c.pid for c in pool.children if c is not None]
        _all_dead(pool)
        pool.check()
        assert [x.split()[0] for x in lines] == ["worker", "scheduler"]
        assert all(f"exited with status 3; restarting it in {RESTART_FIRST:g} s" in x
                   for x in lines)
        assert pool.children == [None, None]  # pausing
        now[0] = RESTART_FIRST
        pool.check()
        assert all(c is not None and c.pid not in old for c in pool.children)
    finally:
        pool.stop()


def test_a_crash_loop_is_paced_up_to_the_cap_and_never_given_up() -> None:
    now = [0.0]
    lines: list[str] = []
    pool = _pool(1, False, now, lines, SIXTYSIX_RESTART_MAX="4")
    try:
        for _ in range(6):  # more deaths within a minute than the old pool's 5 allowed
            _all_dead(pool)
            pool.check()
            [child] = pool.children
            assert child is None
            due = pool.due[0]
            assert due is not None
            now[0] = due
            pool.check()
        pauses = [float(x.rsplit(" in ", 1)[1].removesuffix(" s")) for x in lines]
        assert pauses == [0.5, 1, 2, 4, 4, 4]
        assert pool.children[0] is not None  # still restarted
    finally:
        pool.stop()


def test_the_pause_falls_back_once_a_process_ran_long_enough() -> None:
    backoff = Backoff(1.0, 8.0, RESTART_STABLE)
    assert [backoff.died(0.1) for _ in range(5)] == [1, 2, 4, 8, 8]
    assert backoff.died(RESTART_STABLE) == 1


def test_sixtysix_worker_refuses_a_bad_restart_cap_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SIXTYSIX_RESTART_MAX", "soon")
    assert main(["worker", "--processes", "1"]) == 2
    assert capsys.readouterr().err == (
        "sixtysix: SIXTYSIX_RESTART_MAX must be seconds (above 0, at most 3600); got 'soon'\n")


def test_sixtysix_worker_refuses_a_cluster_queue_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QUEUE_URL", "redis+cluster://127.0.0.1:1")
    assert main(["worker", "--processes", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "names a Redis Cluster" in err and "set QUEUE_URL" in err


def test_every_shard_gets_a_worker_and_a_scheduler() -> None:
    """``QUEUE_URL`` of three shards: one worker process at least and one scheduler for
    each, the workers dealt round the shards."""
    env = {**os.environ, "QUEUE_URL": "redis://a:1/0 redis://b:1/0 redis://c:1/0"}
    shards = [cmd[-1] for cmd in WorkerPool(1, env, print).commands]
    assert shards == ["0", "1", "2"] * 2
    pool = WorkerPool(4, env, print)
    assert pool.names == ["worker"] * 4 + ["scheduler"] * 3
    assert [cmd[-1] for cmd in pool.commands[:4]] == ["0", "1", "2", "0"]
