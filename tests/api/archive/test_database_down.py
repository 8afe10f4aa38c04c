"""With the archive's PostgreSQL stopped, live play goes on and finishing a game succeeds; its
archive waits, noted, and lands once the database is back, once; reading an archived game
meanwhile is a 503 problem, never a 404 or a 500. The web app and a worker start with the
database down (it is migrated once it answers), and ``/readyz`` says so with a 200."""

from __future__ import annotations

from pathlib import Path

import redis

from api.app import close_app, create_app
from api.archive.sweep import Archiver
from api.keys import ARCHIVE_PENDING, events_key, game_key
from api.worker.run import archive_finished, build_context
from tests.api.archive.helpers import answers, finished_match
from tests.api.helpers import assert_problem, bearer
from tests.conftest import EmbeddedRedis
from tests.postgres import Postgres


def test_a_game_finished_while_the_database_is_down_is_archived_once_it_is_back(
        postgres_server: Postgres, postgres_url: str, redis_server: EmbeddedRedis,
        redis_client: redis.Redis) -> None:
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                      "RATELIMIT_ENABLED": False, "DATABASE_URL": postgres_url,
                      "SIXTYSIX_ARCHIVE_WEB_DRAIN": 0})
    try:
        client = app.test_client()
        archiver: Archiver = app.extensions["sixtysix"].archiver
        postgres_server.stop()
        try:
            game_id, tokens = finished_match(client)  # every action answered 200
            before = answers(client, game_id, tokens)
            assert archiver.drain() == 0
            assert redis_client.zrange(ARCHIVE_PENDING, 0, -1) == [game_id.encode()]
            assert redis_client.ttl(game_key(game_id)) > 3600  # kept until archived
        finally:
            postgres_server.start()
        assert archiver.drain() == 1
        assert redis_client.zcard(ARCHIVE_PENDING) == 0
        redis_client.delete(game_key(game_id), events_key(game_id))
        postgres_server.stop()
        try:
            response = client.get(f"/v1/games/{game_id}", headers={})
            assert_problem(response, 503, "archive-unavailable")
        finally:
            postgres_server.start()
        assert answers(client, game_id, tokens) == before
    finally:
        close_app(app)


def test_processes_start_with_the_database_down_and_archive_once_it_is_up(
        postgres_server: Postgres, postgres_url: str, tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path, appendonly=False) as server:  # its sweep scans only this game
        _start_with_the_database_down(postgres_server, postgres_url, server,
                                      redis.Redis.from_url(server.url))


def _start_with_the_database_down(postgres_server: Postgres, postgres_url: str,
                                  redis_server: EmbeddedRedis,
                                  redis_client: redis.Redis) -> None:
    postgres_server.stop()
    try:
        app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                          "RATELIMIT_ENABLED": False, "DATABASE_URL": postgres_url,
                          "SIXTYSIX_ARCHIVE_WEB_DRAIN": 0})
        worker = build_context(redis_server.url, redis_server.url, database_url=postgres_url)
    except BaseException:
        postgres_server.start()
        raise
    try:
        client = app.test_client()
        try:
            ready = client.get("/readyz")
            assert ready.status_code == 200  # the web pod stays in: live play goes on
            assert ready.json["status"] == "degraded"
            assert ready.json["archive"]["status"] == "unavailable"
            game_id, tokens = finished_match(client)  # every action answered 200
            assert client.get("/readyz").json["archive"]["pending"] == 1
            response = client.get("/v1/games/gamenotinredis0", headers={})
            assert_problem(response, 503, "archive-unavailable")
            assert response.headers["Retry-After"] == "5"
            assert archive_finished(worker) == 0
        finally:
            postgres_server.start()
        assert client.get("/readyz").json["archive"]["status"] == "ok"  # migrated now
        assert archive_finished(worker) == 1
        redis_client.delete(game_key(game_id), events_key(game_id))
        assert client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).status_code == 200
        assert client.get("/v1/games/gamenotinredis0").status_code == 404
    finally:
        close_app(app)
        assert worker.archiver is not None
        worker.archiver.archive.close()
        worker.store.redis.close()
        worker.queue.close()
        redis_client.close()
