"""Shared fixtures: one real redis-server per test session, a clean database per test, and
real worker processes (``python -m api.worker.run``) on it for the whole session; a real
PostgreSQL server (:mod:`tests.postgres`) for the session's tests that ask for it."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api.app import close_app, create_app
from api.runtime.redis_server import EmbeddedRedis
from api.worker.run import POLL_INTERVAL, WorkerPool
from tests.postgres import Postgres

ROOT = Path(__file__).resolve().parents[1]
#: Worker processes of the session (the machine has 2 cores).
SESSION_WORKERS = 2


def worker_env(redis_url: str, queue_url: str | None = None) -> dict[str, str]:
    """The environment of a worker process on ``redis_url`` importing this checkout; at the
    normal priority (``SIXTYSIX_WORKER_POLICY=nice``, ``SIXTYSIX_WORKER_NICE=0``): on a
    machine busy with other work a niced or ``SCHED_IDLE`` worker starts and moves too slowly
    for the tests' waits (tests/api/worker/test_worker_priority.py checks the priority itself)."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "REDIS_URL": redis_url, "QUEUE_URL": queue_url or redis_url,
            "PYTHONPATH": path, "SIXTYSIX_LOG_LEVEL": "warning", "SIXTYSIX_WORKER_NICE": "0",
            "SIXTYSIX_WORKER_POLICY": "nice"}


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """A real ``redis-server`` on a free loopback port, without persistence."""
    data_dir: Path = tmp_path_factory.mktemp("redis")
    with EmbeddedRedis(data_dir=data_dir, appendonly=False) as server:
        yield server


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Postgres]:
    """A throwaway PostgreSQL server on a free loopback port, for the session."""
    with Postgres() as server:
        yield server


@pytest.fixture(scope="session")
def workers(redis_server: EmbeddedRedis) -> Iterator[WorkerPool]:
    """:data:`SESSION_WORKERS` real worker processes (and the scheduler) on the session
    server, all session, restarted if one dies as ``sixtysix worker`` does (after a pause)."""
    with WorkerPool(SESSION_WORKERS, worker_env(redis_server.url),
                    lambda line: print(line, file=sys.stderr)) as pool:
        done = threading.Event()
        supervisor = threading.Thread(target=_supervise, args=(pool, done), daemon=True)
        supervisor.start()
        yield pool
        done.set()
        supervisor.join()


def _supervise(pool: WorkerPool, done: threading.Event) -> None:
    while not done.wait(POLL_INTERVAL):
        pool.check()


@pytest.fixture
def redis_client(redis_server: EmbeddedRedis) -> Iterator[redis.Redis]:
    """A client of the session server; the database is emptied before each test."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def app(redis_server: EmbeddedRedis, redis_client: redis.Redis, workers: WorkerPool
        ) -> Iterator[Flask]:
    """The API on the session server, with a clean database (``redis_client`` flushes it)
    and the session's workers; rate limits off (tests/api/http/test_limits.py tests them)."""
    application = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                              "RATELIMIT_ENABLED": False})
    yield application
    close_app(application)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
