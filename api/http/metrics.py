"""Prometheus metrics at ``GET /metrics`` (text exposition format; not rate limited).

* ``sixtysix_http_requests_total{endpoint, method, status}`` — requests answered; ``endpoint``
  is the route template (``unmatched`` for unknown URLs).
* ``sixtysix_http_request_duration_seconds{endpoint, method}`` — latency histogram.
* ``sixtysix_computer_think_seconds{level}`` — time of each computer seat's move (its view and
  its choice), observed by the worker that played it (:data:`api.games.think_time.THINK`, a
  histogram of the process; ``sixtysix serve`` gives its workers gunicorn's
  ``PROMETHEUS_MULTIPROC_DIR``, so ``/metrics`` sums theirs; an app shows its own process's,
  e.g. of its worker threads).
* ``sixtysix_redis_errors_total{error}`` — Redis errors by exception class, whether answered
  503 or 500 or met while keeping the active-games estimate.
* ``sixtysix_active_games`` — games with a successful request in the last
  :data:`ACTIVE_WINDOW` minutes, estimated without scanning keys: each process collects the ids
  of the games it serves and adds them, at most every :data:`FLUSH_EVERY` seconds, to a
  per-minute HyperLogLog (``sixtysix:active:{stats}:<minute>``, one slot on a Cluster);
  a scrape answers ``PFCOUNT`` over the window's keys (error about 1 %).
* ``sixtysix_archive_pending`` and ``sixtysix_archive_oldest_pending_seconds`` — finished games
  waiting for the archive and how long the oldest has waited, read from Redis at scrape time
  (:meth:`api.archive.sweep.Archiver.backlog`; with an archive only).
* ``sixtysix_queue_jobs{shard, queue}``, ``sixtysix_queue_workers{shard}`` and
  ``sixtysix_queue_up{shard}`` — the task queue's shards, read at scrape time
  (:mod:`api.worker.gauges`; with a task queue only).
* ``sixtysix_archive_writes_total`` and ``sixtysix_archive_failures_total{error}`` — finished
  games written to the archive, and writes that failed (the game stays noted), by the
  processes that drain (the workers, a web process while none runs).

Under gunicorn ``PROMETHEUS_MULTIPROC_DIR`` is set (``deploy/gunicorn.conf.py``), so the
counters and histograms of all workers are summed through prometheus-client's multiprocess
mode; the active-games gauge is read from Redis at scrape time and is the same in any worker.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Final

import redis
from flask import Flask, Response, current_app, got_request_exception, has_app_context
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from api.archive.sweep import FAILURES, WRITES, Archiver
from api.games.think_time import THINK
from api.http import observability
from api.http.observability import Answered
from api.keys import active_key
from api.runtime.redis_connect import Client
from api.worker.gauges import QueueCollector
from api.worker.queue import TaskQueue

EXTENSION: Final = "sixtysix_metrics"
#: Minutes a game counts as active after a request about it.
ACTIVE_WINDOW: Final = 15
#: Seconds between a process's additions to the active-games estimate.
FLUSH_EVERY: Final = 5.0
LATENCY_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                          5.0, 10.0, 30.0)


class ActiveGames:
    """The active-games estimate (see the module docstring)."""

    def __init__(self, client: Client, on_error: Counter) -> None:
        self._redis = client
        self._on_error = on_error
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        self._flushed = time.monotonic()
        self._flushing: threading.Thread | None = None
        self._closed = False

    def touch(self, game_id: str) -> None:
        """Note ``game_id``; when a flush is due, start it in a thread of its own, so that no
        request waits on Redis for the estimate (a paused Redis held a request for the
        socket timeout). At most one such flush runs at a time."""
        with self._lock:
            self._pending.add(game_id)
            due = (not self._closed and time.monotonic() - self._flushed >= FLUSH_EVERY
                   and (self._flushing is None or not self._flushing.is_alive()))
            if due:
                self._flushing = threading.Thread(target=self.flush, daemon=True,
                                                  name="sixtysix-active-games")
                self._flushing.start()

    def close(self) -> None:
        """Start no more flushes and wait for the running one, so that the client can be
        closed under none (closing it under a flush's read raised in that thread)."""
        with self._lock:
            self._closed = True
            running = self._flushing
        if running is not None:
            running.join()

    def flushing(self) -> threading.Thread | None:
        """The background flush last started (for tests), if any."""
        return self._flushing

    def flush(self) -> None:
        """Add the games seen since the last flush to this minute's HyperLogLog."""
        with self._lock:
            ids, self._pending = self._pending, set()
            self._flushed = time.monotonic()
        if not ids:
            return
        key = active_key(int(time.time() // 60))
        try:
            pipe = self._redis.pipeline(transaction=False)
            pipe.pfadd(key, *ids)
            pipe.expire(key, (ACTIVE_WINDOW + 1) * 60)
            pipe.execute()
        except redis.RedisError as exc:
            self._on_error.labels(type(exc).__name__).inc()

    def count(self) -> int:
        now = int(time.time() // 60)
        return int(self._redis.pfcount(*(active_key(now - i) for i in range(ACTIVE_WINDOW))))


class _ActiveGamesCollector(Collector):
    def __init__(self, active: ActiveGames, on_error: Counter) -> None:
        self._active = active
        self._on_error = on_error

    def collect(self) -> Iterator[GaugeMetricFamily]:
        self._active.flush()
        try:
            value = self._active.count()
        except redis.RedisError as exc:
            self._on_error.labels(type(exc).__name__).inc()
            return
        yield GaugeMetricFamily(
            "sixtysix_active_games",
            f"Games with a successful request in the last {ACTIVE_WINDOW} minutes (estimate)",
            value=value)


class _ArchiveCollector(Collector):
    def __init__(self, archiver: Archiver, on_error: Counter) -> None:
        self._archiver = archiver
        self._on_error = on_error

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            backlog = self._archiver.backlog()
        except redis.RedisError as exc:
            self._on_error.labels(type(exc).__name__).inc()
            return
        yield GaugeMetricFamily("sixtysix_archive_pending",
                                "Finished games waiting for the archive", value=backlog.pending)
        yield GaugeMetricFamily("sixtysix_archive_oldest_pending_seconds",
                                "Seconds the oldest finished game has waited for the archive",
                                value=backlog.oldest)


class Metrics:
    """The metrics of one app, in a registry of its own; the archive's with an ``archiver``."""

    def __init__(self, client: Client, archiver: Archiver | None = None) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("sixtysix_http_requests", "HTTP requests answered",
                                ["endpoint", "method", "status"], registry=self.registry)
        self.latency = Histogram("sixtysix_http_request_duration_seconds",
                                 "Time to answer an HTTP request", ["endpoint", "method"],
                                 buckets=LATENCY_BUCKETS, registry=self.registry)
        self.registry.register(THINK)  # the process's: its worker threads' moves
        self.registry.register(WRITES)  # the process's: its drains
        self.registry.register(FAILURES)
        self.redis_errors = Counter("sixtysix_redis_errors", "Redis errors met", ["error"],
                                    registry=self.registry)
        self.active = ActiveGames(client, self.redis_errors)
        self._children: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}
        active_collector = _ActiveGamesCollector(self.active, self.redis_errors)
        if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
            self.exposed = CollectorRegistry()
            multiprocess.MultiProcessCollector(self.exposed)  # type: ignore[no-untyped-call]
        else:
            self.exposed = self.registry
        self.exposed.register(active_collector)
        if archiver is not None:
            self.exposed.register(_ArchiveCollector(archiver, self.redis_errors))

    def observe(self, answered: Answered) -> None:
        """Count an answered request (an :func:`api.http.observability.listen` listener)."""
        key = (answered.route, answered.method, answered.status)
        children = self._children.get(key)
        if children is None:  # labels() costs a lock and a lookup: once per label set
            children = self._children[key] = (
                self.requests.labels(answered.route, answered.method, str(answered.status)),
                self.latency.labels(answered.route, answered.method))
        children[0].inc()
        children[1].observe(answered.seconds)
        if answered.game_id is not None and answered.status < 400:
            self.active.touch(answered.game_id)

    def unhandled(self, sender: Flask, exception: BaseException, **_: object) -> None:
        """Count a Redis error that became a 500 (a ``got_request_exception`` receiver)."""
        if isinstance(exception, redis.RedisError):
            self.redis_errors.labels(type(exception).__name__).inc()

    def render(self) -> Response:
        """The exposition, its Content-Type exactly the client library's (which names its
        charset already: ``mimetype=`` would append a second one)."""
        return Response(generate_latest(self.exposed), content_type=CONTENT_TYPE_LATEST)


def _current() -> Metrics | None:
    if not has_app_context():
        return None
    found: Metrics | None = current_app.extensions.get(EXTENSION)
    return found


def redis_error(error: BaseException) -> None:
    """Count a Redis error met while answering a request of the current app."""
    metrics = _current()
    if metrics is not None:
        metrics.redis_errors.labels(type(error).__name__).inc()


def init(app: Flask, client: Client, archiver: Archiver | None = None,
         queue: TaskQueue | None = None) -> Metrics:
    """Collect ``app``'s metrics (the archive's too with an ``archiver``, the task queue's
    shards' with a ``queue``: :mod:`api.worker.gauges`) and serve them at ``/metrics``."""
    metrics = Metrics(client, archiver)
    if queue is not None:
        metrics.exposed.register(QueueCollector(
            queue, lambda exc: metrics.redis_errors.labels(type(exc).__name__).inc()))
    app.extensions[EXTENSION] = metrics
    observability.listen(app, metrics.observe)
    app.add_url_rule("/metrics", "metrics", metrics.render, methods=["GET"])
    got_request_exception.connect(metrics.unhandled, app)  # weak: gone with the app
    return metrics
