"""The archive's database, over SQLite (a file per test) and the session's PostgreSQL (its
tables dropped after each test)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from sqlalchemy import create_engine, text

from api.app import close_app, create_app
from api.archive.schema import metadata
from tests.conftest import EmbeddedRedis
from tests.postgres import Postgres


@pytest.fixture
def postgres_url(postgres_server: Postgres) -> Iterator[str]:
    """The session's PostgreSQL, its archive tables dropped after the test."""
    yield postgres_server.url
    engine = create_engine(postgres_server.url)
    try:
        with engine.begin() as conn:
            metadata.drop_all(conn)
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty archive database's URL: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'archive.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def db_app(database_url: str, redis_server: EmbeddedRedis, redis_client: redis.Redis,
           ) -> Iterator[Flask]:
    """The app on the session's Redis (emptied) and an empty database: SQLite, then
    PostgreSQL."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                      "RATELIMIT_ENABLED": False, "DATABASE_URL": database_url})
    yield app
    close_app(app)
