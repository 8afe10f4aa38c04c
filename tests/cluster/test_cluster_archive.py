"""The archive on a Redis Cluster: a finished game's note lost is found by the reconcile's scan
over every master, and the drain (its lock, its scripts on the game's slot) writes it once."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from api.app import close_app, create_app
from api.archive.schema import finished_games
from api.archive.sweep import Archiver
from api.games.store import ARCHIVED_FIELD
from api.keys import ARCHIVE_PENDING, game_key
from tests.api.archive.helpers import finished_match
from tests.cluster.conftest import LocalCluster

pytestmark = pytest.mark.cluster


def test_a_lost_note_is_found_and_archived_on_a_cluster(
        redis_cluster: LocalCluster, queue_config: dict[str, str], tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "REDIS_URL": redis_cluster.url, **queue_config,
                      "RATELIMIT_ENABLED": False, "SIXTYSIX_ARCHIVE_WEB_DRAIN": 0,
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}"})
    try:
        archiver: Archiver = app.extensions["sixtysix"].archiver
        data = archiver.games.redis
        game_id, _ = finished_match(app.test_client())
        data.delete(ARCHIVE_PENDING)  # the process died between the save and its note
        assert archiver.reconcile() >= 1  # the session's other finished games too
        assert data.zscore(ARCHIVE_PENDING, game_id) is not None
        while data.zcard(ARCHIVE_PENDING):
            assert archiver.drain() > 0
        assert data.hget(game_key(game_id), ARCHIVED_FIELD) == data.hget(game_key(game_id), "n")
        with archiver.archive.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(finished_games).where(
                finished_games.c.game_id == game_id)).scalar() == 1
        assert archiver.reconcile() == 0
    finally:
        close_app(app)
