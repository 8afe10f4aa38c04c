"""The archive's backup and restore as docs/operations.md ("Backup and restore") gives them,
run as written while the service serves: SQLite's ``sqlite3 <file> ".backup <copy>"`` and
PostgreSQL's ``pg_dump --format=custom`` / ``pg_restore`` into a new database. A game archived
before the backup reads back from the restored database the same as before, once Redis has
let it go; games finished and archived during the backup do not disturb it."""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis
from flask import Flask
from sqlalchemy.engine import make_url

from api.app import close_app, create_app
from api.archive.sweep import Archiver
from api.keys import events_key, game_key
from tests.api.archive.helpers import answers, finished_match
from tests.conftest import EmbeddedRedis
from tests.postgres import Postgres


def _app(redis_url: str, database_url: str) -> Flask:
    return create_app({"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": False,
                       "DATABASE_URL": database_url, "SIXTYSIX_ARCHIVE_GRACE": 120})


def _archiver(app: Flask) -> Archiver:
    archiver: Archiver = app.extensions["sixtysix"].archiver
    return archiver


@contextmanager
def _serving(app: Flask) -> Iterator[list[str]]:
    """Matches played to their end and archived in a thread while the block runs (the ids
    archived so far); at least one before it ends."""
    done, archived = threading.Event(), []
    failed: list[BaseException] = []

    def play() -> None:
        client = app.test_client()
        try:
            while not done.is_set() or not archived:
                game_id, _ = finished_match(client)
                _archiver(app).drain()
                archived.append(game_id)
        except BaseException as exc:  # reported by the test
            failed.append(exc)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    try:
        yield archived
    finally:
        done.set()
        thread.join(120)
    assert not failed, failed
    assert archived


def _archived_game(app: Flask) -> tuple[str, list[str], list[Any]]:
    """A finished match in the archive: its id, tokens and what its readers read."""
    client = app.test_client()
    game_id, tokens = finished_match(client)
    assert _archiver(app).drain() == 1
    return game_id, tokens, answers(client, game_id, tokens)


def _read_back(redis_url: str, redis_client: redis.Redis, database_url: str,
               game: tuple[str, list[str], list[Any]]) -> None:
    """The game of ``game`` reads the same from ``database_url`` once Redis lets it go."""
    game_id, tokens, before = game
    redis_client.delete(game_key(game_id), events_key(game_id))
    app = _app(redis_url, database_url)
    try:
        assert answers(app.test_client(), game_id, tokens) == before
    finally:
        close_app(app)


def _libpq(url: str) -> str:
    """SQLAlchemy's URL of a PostgreSQL database as libpq's tools take it."""
    return url.replace("postgresql+psycopg://", "postgresql://")


def _run(*argv: str | Path) -> str:
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, (argv, done.stderr)
    return done.stdout


def test_a_sqlite_archive_backed_up_while_serving_restores_its_games(
        tmp_path: Path, redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    live, backup = tmp_path / "archive.sqlite3", tmp_path / "archive-backup.sqlite3"
    app = _app(redis_server.url, f"sqlite:///{live}")
    try:
        game = _archived_game(app)
        with _serving(app):
            _run("sqlite3", live, f".backup {backup}")
    finally:
        close_app(app)
    restored = tmp_path / "restored" / "archive.sqlite3"
    restored.parent.mkdir()
    shutil.copy(backup, restored)  # the restore: the copy in the file's place, served stopped
    assert _run("sqlite3", restored, "PRAGMA integrity_check;").strip() == "ok"
    _read_back(redis_server.url, redis_client, f"sqlite:///{restored}", game)


def test_a_postgresql_archive_dumped_while_serving_restores_its_games(
        tmp_path: Path, redis_server: EmbeddedRedis, redis_client: redis.Redis,
        postgres_server: Postgres, postgres_url: str) -> None:
    dump = tmp_path / "archive.dump"
    libpq = _libpq(postgres_url)
    app = _app(redis_server.url, postgres_url)
    try:
        game = _archived_game(app)
        with _serving(app):
            _run(postgres_server.bin / "pg_dump", "--format=custom", f"--dbname={libpq}",
                 f"--file={dump}")
    finally:
        close_app(app)
    _run(postgres_server.bin / "createdb", f"--maintenance-db={libpq}", "restored")
    restored = make_url(postgres_url).set(database="restored")
    try:
        _run(postgres_server.bin / "pg_restore", "--no-owner",
             f"--dbname={_libpq(restored.render_as_string(hide_password=False))}", dump)
        _read_back(redis_server.url, redis_client,
                   restored.render_as_string(hide_password=False), game)
    finally:
        _run(postgres_server.bin / "dropdb", f"--maintenance-db={libpq}", "restored")

