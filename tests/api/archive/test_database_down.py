"""With the archive's PostgreSQL stopped, live play goes on and finishing a game succeeds; its
archive waits, noted, and lands once the database is back, once; reading an archived game
meanwhile is a 503 problem, never a 404 or a 500."""

from __future__ import annotations

import redis

from api.app import close_app, create_app
from api.archive.sweep import Archiver
from api.keys import ARCHIVE_PENDING, events_key, game_key
from tests.api.archive.helpers import answers, finished_match
from tests.api.helpers import assert_problem
from tests.conftest import EmbeddedRedis
from tests.postgres import Postgres


def test_a_game_finished_while_the_database_is_down_is_archived_once_it_is_back(
        postgres_server: Postgres, postgres_url: str, redis_server: EmbeddedRedis,
        redis_client: redis.Redis) -> None:
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                      "RATELIMIT_ENABLED": False, "DATABASE_URL": postgres_url})
    try:
        client = app.test_client()
        archiver: Archiver = app.extensions["sixtysix"].archiver
        postgres_server.stop()
        try:
            game_id, tokens = finished_match(client)  # every action answered 200
            before = answers(client, game_id, tokens)
            assert archiver.drain() == 0
            assert redis_client.smembers(ARCHIVE_PENDING) == {game_id.encode()}
            assert redis_client.ttl(game_key(game_id)) > 3600  # kept until archived
        finally:
            postgres_server.start()
        assert archiver.drain() == 1
        assert redis_client.smembers(ARCHIVE_PENDING) == set()
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
