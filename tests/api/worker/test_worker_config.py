"""A worker process reads the web tier's configuration (:mod:`api.config`): a game whose last
save is a computer's move lives ``SIXTYSIX_GAME_TTL`` seconds, not the default 7 days."""

from __future__ import annotations

import time
from pathlib import Path

import redis

from api.app import close_app, create_app
from api.keys import events_key, game_key
from api.runtime.redis_server import EmbeddedRedis
from api.worker.run import WorkerPool
from tests.api.helpers import DECK, create
from tests.conftest import worker_env

#: Seconds a game lives after a save of the web tier, and of the worker (configured apart so
#: that the TTL tells whose save was the last).
WEB_TTL = 4000
WORKER_TTL = 5000
#: Seconds the worker process has to start and make the computer's move.
MOVE_WITHIN = 60.0


def test_a_game_a_worker_saves_lives_the_configured_ttl(tmp_path: Path) -> None:
    lines: list[str] = []
    with EmbeddedRedis(data_dir=tmp_path, appendonly=False) as own, \
            WorkerPool(1, {**worker_env(own.url), "SIXTYSIX_GAME_TTL": str(WORKER_TTL)},
                       lines.append, scheduler=False):
        app = create_app({"TESTING": True, "REDIS_URL": own.url, "RATELIMIT_ENABLED": False,
                          "SIXTYSIX_GAME_TTL": WEB_TTL, "SIXTYSIX_COMPUTER_WAIT": 0.0})
        store = redis.Redis.from_url(own.url)
        try:
            # seat 0 deals, so the computer (seat 1) leads: its move is the worker's save
            created = create(app.test_client(), deck=DECK, first_dealer=0, seats=[
                {"kind": "human"}, {"kind": "computer", "level": "random"}])
            game_id = created["game_id"]
            deadline = time.monotonic() + MOVE_WITHIN
            while store.ttl(game_key(game_id)) <= WEB_TTL and time.monotonic() < deadline:
                time.sleep(0.2)
            view = app.test_client().get(f"/v1/games/{game_id}").json
            assert view is not None and len(view["trick"]) == 1, (view, lines)  # it led
            for key in (game_key(game_id), events_key(game_id)):
                assert WEB_TTL < store.ttl(key) <= WORKER_TTL
        finally:
            store.close()
            close_app(app)
