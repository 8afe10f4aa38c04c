"""The archive's drain under SIGKILL: many finished games noted, a real worker process
draining them, then its PostgreSQL server killed (and started again: crash recovery), or the
worker killed while it writes a SQLite archive (and restarted). Afterwards every game noted is
archived exactly once, with all its events, none is left noted, and a SQLite file is intact
(``PRAGMA integrity_check``)."""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from sqlalchemy import create_engine, select

from api.app import close_app, create_app
from api.archive.schema import finished_games
from api.keys import ARCHIVE_PENDING, events_key, game_key
from api.runtime.redis_server import EmbeddedRedis
from api.worker.run import WorkerPool
from tests.api.archive.helpers import finished_match
from tests.conftest import worker_env
from tests.postgres import Postgres
from tests.waiting import until

#: Finished games noted before the worker starts (a drain takes 100).
GAMES = 240


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A Redis of its own: no session worker drains it."""
    with EmbeddedRedis(tmp_path / "redis", appendonly=False) as server:
        yield server


def _noted_games(redis_url: str, database_url: str) -> dict[str, int]:
    """:data:`GAMES` finished games in Redis, all noted for the archive: one match played
    over HTTP and copies of its keys under new ids. Each id with its event count."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": False,
                      "DATABASE_URL": database_url, "SIXTYSIX_ARCHIVE_WEB_DRAIN": 0})
    try:
        first, _ = finished_match(app.test_client())
    finally:
        close_app(app)
    data = redis.Redis.from_url(redis_url)
    try:
        count = int(data.hget(game_key(first), "n") or 0)
        ids = [first] + [f"copy{i:04d}{first}" for i in range(1, GAMES)]
        pipe = data.pipeline(transaction=False)
        for game_id in ids[1:]:
            pipe.copy(game_key(first), game_key(game_id))
            pipe.copy(events_key(first), events_key(game_id))
            pipe.zadd(ARCHIVE_PENDING, {game_id: time.time()})
        pipe.execute()
        assert data.zcard(ARCHIVE_PENDING) == GAMES
    finally:
        data.close()
    return dict.fromkeys(ids, count)


def _rows(database_url: str) -> list[tuple[str, int]]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            return [(r[0], r[1]) for r in conn.execute(select(
                finished_games.c.game_id, finished_games.c.event_count))]
    finally:
        engine.dispose()


def _worker(redis_url: str, database_url: str) -> WorkerPool:
    env = {**worker_env(redis_url), "DATABASE_URL": database_url}
    return WorkerPool(1, env, lambda line: print(line, file=sys.stderr), scheduler=False)


def _mid_drain(data: redis.Redis) -> int:
    """Wait until a drain has archived some noted games but not all; how many wait."""
    def started() -> int:
        left = int(data.zcard(ARCHIVE_PENDING))
        return left if 0 < left < GAMES else 0

    return until(started, "a drain under way", patience=60, interval=0.005)


def _drained(data: redis.Redis, pool: WorkerPool) -> None:
    def empty() -> bool:
        pool.check()
        return data.zcard(ARCHIVE_PENDING) == 0

    until(empty, "every noted game archived", patience=180, interval=0.2)


def _exactly_once(rows: list[tuple[str, int]], games: dict[str, int]) -> None:
    assert len(rows) == len(games)  # nothing doubled
    assert dict(rows) == games  # nothing lost, every event kept


@pytest.fixture
def own_postgres() -> Iterator[Postgres]:
    """A PostgreSQL server of its own: this test kills it."""
    with Postgres() as server:
        yield server


def test_postgres_killed_mid_drain_loses_and_doubles_nothing(
        own_postgres: Postgres, own_redis: EmbeddedRedis) -> None:
    postgres_server, postgres_url = own_postgres, own_postgres.url
    games = _noted_games(own_redis.url, postgres_url)
    data = redis.Redis.from_url(own_redis.url)
    pool = _worker(own_redis.url, postgres_url).start()
    try:
        left = _mid_drain(data)
        postmaster = int((postgres_server.data / "postmaster.pid").read_text().split()[0])
        os.kill(postmaster, signal.SIGKILL)
        time.sleep(2)  # the worker's drain meets the dead server; its backends go
        assert 0 < data.zcard(ARCHIVE_PENDING) <= left
        until(_started(postgres_server), "PostgreSQL started again", patience=60)
        _drained(data, pool)
    finally:
        pool.stop()
        data.close()
    _exactly_once(_rows(postgres_url), games)


def _started(server: Postgres) -> object:
    def start() -> bool:
        try:
            server.start()
        except RuntimeError:  # its killed backends still hold the shared memory
            return False
        return True
    return start


def test_a_worker_killed_mid_write_leaves_an_intact_sqlite_archive(
        tmp_path: Path, own_redis: EmbeddedRedis) -> None:
    path = tmp_path / "archive.sqlite3"
    url = f"sqlite:///{path}"
    games = _noted_games(own_redis.url, url)
    data = redis.Redis.from_url(own_redis.url)
    pool = _worker(own_redis.url, url).start()
    try:
        for _ in range(2):
            _mid_drain(data)
            child = pool.children[0]
            assert child is not None
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            if data.zcard(ARCHIVE_PENDING) == 0:
                break
            until(lambda: (pool.check(), pool.children[0] is not None)[1],
                  "the killed worker started again")
        _drained(data, pool)
    finally:
        pool.stop()
        data.close()
    _exactly_once(_rows(url), games)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
