"""Shared fixtures: one real redis-server per test session, a clean database per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api.app import create_app
from api.redis_server import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """A real ``redis-server`` on a free loopback port, without persistence."""
    data_dir: Path = tmp_path_factory.mktemp("redis")
    with EmbeddedRedis(data_dir=data_dir, appendonly=False) as server:
        yield server


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
def app(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[Flask]:
    """The API on the session server, with a clean database (``redis_client`` flushes it);
    rate limits off (tests/api/test_limits.py tests them)."""
    application = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                              "RATELIMIT_ENABLED": False})
    yield application
    application.extensions["sixtysix"].waiter.close()
    application.extensions["sixtysix"].store.redis.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
