"""The archive of finished games over SQLite and PostgreSQL: its schema is the migrations'
head, a game is written once, and a finished game's every read answers as before once Redis
has let it go (each seat and a spectator: no hidden card more or less)."""

from __future__ import annotations

import redis
from sqlalchemy import func, select

from api.app import close_app, create_app
from api.archive.migrations import differences
from api.archive.schema import finished_games
from api.archive.store import Archive
from api.archive.sweep import Archiver
from api.keys import ARCHIVE_PENDING, events_key, game_key
from tests.api.archive.helpers import answers, finished_match
from tests.api.helpers import bearer
from tests.conftest import EmbeddedRedis

#: The grace of these tests' archived games, seconds.
GRACE = 120


def _app_config(redis_url: str, database_url: str) -> dict[str, object]:
    return {"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": False,
            "DATABASE_URL": database_url, "SIXTYSIX_ARCHIVE_GRACE": GRACE,
            "SIXTYSIX_ARCHIVE_WEB_DRAIN": 0}


def test_the_migrations_head_is_the_schema(database_url: str) -> None:
    archive = Archive.open(database_url)
    try:
        assert differences(archive.engine) == []
        Archive.open(database_url).close()  # at the head: opening again changes nothing
    finally:
        archive.close()


def test_a_finished_game_reads_the_same_from_the_archive(
        database_url: str, redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    app = create_app(_app_config(redis_server.url, database_url))
    try:
        client = app.test_client()
        game_id, tokens = finished_match(client)
        before = answers(client, game_id, tokens)
        assert redis_client.zrange(ARCHIVE_PENDING, 0, -1) == [game_id.encode()]
        archiver: Archiver = app.extensions["sixtysix"].archiver
        assert archiver.drain() == 1
        assert redis_client.zcard(ARCHIVE_PENDING) == 0
        assert 0 < redis_client.ttl(game_key(game_id)) <= GRACE
        assert 0 < redis_client.ttl(events_key(game_id)) <= GRACE
        redis_client.delete(game_key(game_id), events_key(game_id))
        assert answers(client, game_id, tokens) == before
        redis_client.zadd(ARCHIVE_PENDING, {game_id: 1})  # noted again: written once all the same
        assert archiver.drain() == 0
        with archiver.archive.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(finished_games)).scalar() == 1
    finally:
        close_app(app)


def test_chat_after_the_archive_is_archived_too(
        database_url: str, redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    app = create_app(_app_config(redis_server.url, database_url))
    try:
        client = app.test_client()
        game_id, tokens = finished_match(client)
        archiver: Archiver = app.extensions["sixtysix"].archiver
        assert archiver.drain() == 1
        posted = client.post(f"/v1/games/{game_id}/chat", json={"text": "Well played!"},
                             headers=bearer(tokens[1]))
        assert posted.status_code == 201, posted.json
        before = answers(client, game_id, tokens)
        assert archiver.drain() == 1  # the kept row replaced: it has the message
        assert archiver.drain() == 0
        redis_client.delete(game_key(game_id), events_key(game_id))
        after = answers(client, game_id, tokens)
        assert after == before
        assert "Well played!" in str(after)
    finally:
        close_app(app)


def test_a_game_gone_from_redis_and_the_archive_is_not_found(
        database_url: str, redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    app = create_app(_app_config(redis_server.url, database_url))
    try:
        response = app.test_client().get("/v1/games/nosuchgame0123")
        assert response.status_code == 404
        assert response.mimetype == "application/problem+json"
    finally:
        close_app(app)
