"""The archive's backlog when something fails between a game's end and its archive: a save
whose note was lost (a crash between the save and the after-save pipeline) is found by the
reconcile, a deployment with no worker process is drained by its web tier, and the pending set
is on ``/readyz`` and ``/metrics``."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from sqlalchemy import func, select

from api.app import close_app, create_app
from api.archive.schema import finished_games
from api.archive.sweep import Archiver
from api.games.store import ARCHIVED_FIELD
from api.keys import ARCHIVE_PENDING, ARCHIVE_RECONCILED, events_key, game_key, tier_key
from api.runtime.redis_server import EmbeddedRedis
from tests.api.archive.helpers import finished_match
from tests.api.helpers import bearer
from tests.waiting import until


def _archived(archiver: Archiver) -> int:
    with archiver.archive.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(finished_games)).scalar_one())


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A Redis of its own: no worker process of the session beats on it."""
    with EmbeddedRedis(tmp_path / "redis", appendonly=False) as server:
        yield server


def _app(redis_url: str, database_url: str, **config: object) -> Flask:
    return create_app({"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": False,
                       "DATABASE_URL": database_url, "SIXTYSIX_ARCHIVE_WEB_DRAIN": 0,
                       **config})


def test_a_finished_game_whose_note_was_lost_is_archived(
        database_url: str, own_redis: EmbeddedRedis) -> None:
    app = _app(own_redis.url, database_url)
    data = redis.Redis.from_url(own_redis.url)
    try:
        client = app.test_client()
        archiver: Archiver = app.extensions["sixtysix"].archiver
        game_id, tokens = finished_match(client)
        data.delete(ARCHIVE_PENDING)  # the process died between the save and its note
        assert data.hget(game_key(game_id), ARCHIVED_FIELD) == b"0"  # marked by the save
        data.expire(game_key(game_id), 100)  # and the database was down for days
        assert archiver.drain() == 0
        assert archiver.sweep() == 1  # the reconcile found it, the drain wrote it
        assert _archived(archiver) == 1
        count = data.hget(game_key(game_id), "n")
        assert data.hget(game_key(game_id), ARCHIVED_FIELD) == count
        assert 0 < data.ttl(game_key(game_id)) <= app.config["SIXTYSIX_ARCHIVE_GRACE"]
        assert data.ttl(ARCHIVE_RECONCILED) > 0
        assert archiver.sweep() == 0  # reconciled recently: not again

        # a chat message logged after the archive, its note lost too
        posted = client.post(f"/v1/games/{game_id}/chat", json={"text": "gg"},
                             headers=bearer(tokens[0]))
        assert posted.status_code == 201, posted.json
        data.delete(ARCHIVE_PENDING)
        assert archiver.reconcile() == 1
        assert archiver.drain() == 1  # the kept row replaced: it has the message
        assert archiver.reconcile() == 0
        last = int(data.hget(game_key(game_id), "n") or 0)
        data.delete(game_key(game_id), events_key(game_id))
        events = client.get(f"/v1/games/{game_id}/events?after={last - 1}").json["events"]
        assert [e["text"] for e in events] == ["gg"]
    finally:
        data.close()
        close_app(app)


def test_the_keys_of_a_game_waiting_long_are_renewed(
        database_url: str, own_redis: EmbeddedRedis) -> None:
    app = _app(own_redis.url, database_url)
    data = redis.Redis.from_url(own_redis.url)
    try:
        archiver: Archiver = app.extensions["sixtysix"].archiver
        game_id, _ = finished_match(app.test_client())
        data.expire(game_key(game_id), 100)  # noted, the database down for days meanwhile
        data.expire(events_key(game_id), 100)
        assert archiver.reconcile() == 0  # noted already
        ttl = app.config["SIXTYSIX_GAME_TTL"]
        assert ttl - 10 < data.ttl(game_key(game_id)) <= ttl
        assert ttl - 10 < data.ttl(events_key(game_id)) <= ttl
    finally:
        data.close()
        close_app(app)


def test_the_web_tier_drains_while_no_worker_runs(
        database_url: str, own_redis: EmbeddedRedis) -> None:
    app = _app(own_redis.url, database_url, SIXTYSIX_ARCHIVE_WEB_DRAIN=0.1)
    data = redis.Redis.from_url(own_redis.url)
    try:
        client = app.test_client()
        archiver: Archiver = app.extensions["sixtysix"].archiver
        beats = tier_key("workers")
        data.zadd(beats, {"a-worker": time.time() + 3600})  # a worker process beats
        game_id, _ = finished_match(client)
        for _ in range(20):  # the web tier leaves the archive to the workers
            assert client.get("/readyz").status_code == 200
            time.sleep(0.1)
        assert data.zrange(ARCHIVE_PENDING, 0, -1) == [game_id.encode()]
        data.delete(beats)  # the last worker process stopped

        def drained() -> bool:
            assert client.get("/readyz").status_code == 200
            return data.zcard(ARCHIVE_PENDING) == 0

        until(drained, "drain by the web tier", patience=30)
        assert _archived(archiver) == 1
    finally:
        data.close()
        close_app(app)


def _metric(text: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    assert found, name
    return float(found.group(1))


def test_the_backlog_is_on_readyz_and_metrics(database_url: str,
                                               own_redis: EmbeddedRedis) -> None:
    app = _app(own_redis.url, database_url, SIXTYSIX_ARCHIVE_PENDING_WARN=0)
    try:
        client = app.test_client()
        archiver: Archiver = app.extensions["sixtysix"].archiver
        finished_match(client)
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json["status"] == "degraded"
        assert ready.json["archive"]["status"] == "backlog"
        assert ready.json["archive"]["pending"] == 1
        assert ready.json["archive"]["oldest_pending_seconds"] >= 0
        metrics = client.get("/metrics").get_data(as_text=True)
        assert _metric(metrics, "sixtysix_archive_pending") == 1
        assert _metric(metrics, "sixtysix_archive_oldest_pending_seconds") >= 0
        writes = _metric(metrics, "sixtysix_archive_writes_total")
        assert archiver.drain() == 1
        metrics = client.get("/metrics").get_data(as_text=True)
        assert _metric(metrics, "sixtysix_archive_pending") == 0
        assert _metric(metrics, "sixtysix_archive_writes_total") == writes + 1
        ready = client.get("/readyz").json
        assert ready["archive"] == {"status": "ok", "pending": 0, "oldest_pending_seconds": 0}
    finally:
        close_app(app)


def test_a_game_that_cannot_be_read_does_not_hold_up_the_others(
        database_url: str, own_redis: EmbeddedRedis) -> None:
    app = _app(own_redis.url, database_url)
    data = redis.Redis.from_url(own_redis.url)
    try:
        archiver: Archiver = app.extensions["sixtysix"].archiver
        game_id, _ = finished_match(app.test_client())
        broken = "brokengame0123"
        data.hset(game_key(broken), mapping={"v": 1, "state": "not json", "meta": "{}",
                                             "n": 1, "recent": "[]", ARCHIVED_FIELD: 0})
        data.zadd(ARCHIVE_PENDING, {broken: 1})  # the oldest note
        assert archiver.drain() == 1  # the finished game behind it is written
        assert _archived(archiver) == 1
        assert data.zrange(ARCHIVE_PENDING, 0, -1) == [broken.encode()]
        assert (data.zscore(ARCHIVE_PENDING, broken) or 0) > 1  # tried again after others
        assert data.zscore(ARCHIVE_PENDING, game_id) is None
    finally:
        data.close()
        close_app(app)
