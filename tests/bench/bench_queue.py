"""Enqueue→start latency of RQ and Dramatiq: ``python -m tests.bench.bench_queue [--jobs 200]``.

Starts a real ``redis-server`` and, per library, one worker process as its CLI runs it (RQ's
forking ``Worker`` and its ``SimpleWorker``; Dramatiq with one process and one thread), then
enqueues ``--jobs`` jobs one every ``--gap`` seconds (so the figure is the queue's latency,
not a backlog) and ``--delayed`` jobs due 1 s later (``enqueue_at`` / ``delay``). Each job
records how long after its enqueue (or due) time it started. Prints p50 / p95 / max in ms.
The worker tier (:mod:`api.worker.queue`) chose its library from these figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import redis

from api.runtime.redis_server import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[2]


def _percentiles(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"p50 {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms"


def _worker(cmd: list[str], url: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SIXTYSIX_BENCH_REDIS": url,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _collect(client: redis.Redis, count: int, timeout: float = 60) -> list[float]:
    deadline = time.monotonic() + timeout
    while client.llen("bench:latency") < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {client.llen('bench:latency')} of {count} jobs ran")
        time.sleep(0.05)
    values = [float(v) for v in client.lrange("bench:latency", 0, -1)]
    client.delete("bench:latency")
    return values


def _run(name: str, worker_cmd: list[str], url: str, client: redis.Redis,
         now: Callable[[float], None], later: Callable[[float], None],
         jobs: int, gap: float, delayed: int) -> None:
    client.flushdb()
    proc = _worker(worker_cmd, url)
    try:
        time.sleep(3)  # the worker starts and subscribes
        now(time.time())  # warm-up
        _collect(client, 1)
        for _ in range(jobs):
            now(time.time())
            time.sleep(gap)
        immediate = _collect(client, jobs)
        due = time.time() + 1.0
        for i in range(delayed):
            later(due + i * 0.05)
        late = _collect(client, delayed, timeout=30)
        print(f"{name:24} immediate: {_percentiles(immediate)}")
        print(f"{'':24} delayed:   {_percentiles(late)} after its due time")
    finally:
        proc.terminate()
        proc.wait(10)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.01, help="seconds between enqueues")
    parser.add_argument("--delayed", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp)) as server:
        os.environ["SIXTYSIX_BENCH_REDIS"] = server.url
        from rq import Queue

        from tests.bench import bench_queue_jobs as jobs
        client = redis.Redis.from_url(server.url)
        queue = Queue("bench", connection=client)

        def rq_now(t: float) -> None:
            queue.enqueue(jobs.mark, t)

        def rq_later(t: float) -> None:
            queue.enqueue_at(datetime.fromtimestamp(t, UTC), jobs.mark, t)

        def dq_now(t: float) -> None:
            jobs.dramatiq_mark.send(t)

        def dq_later(t: float) -> None:
            jobs.dramatiq_mark.send_with_options(args=(t,), delay=max(0, (t - time.time())) * 1000)

        rq = [sys.executable, "-m", "rq.cli", "worker", "--url", server.url,
              "--with-scheduler", "bench"]
        for name, cmd in (("rq Worker (fork)", rq),
                          ("rq SimpleWorker", [*rq, "--worker-class", "rq.worker.SimpleWorker"])):
            _run(name, cmd, server.url, client, rq_now, rq_later, args.jobs, args.gap,
                 args.delayed)
        _run("dramatiq (1 proc, 1 thr)", [sys.executable, "-m", "dramatiq", "--processes", "1",
                                          "--threads", "1", "tests.bench.bench_queue_jobs"],
             server.url, client, dq_now, dq_later, args.jobs, args.gap, args.delayed)


if __name__ == "__main__":
    main()
