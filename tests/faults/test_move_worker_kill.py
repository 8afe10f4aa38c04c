"""A worker process SIGKILLed while it thinks about a strong computer's move loses nothing:
the move is not saved, the dead worker's lease runs out, the next request touching the game
(a long-poll here) enqueues the move again, a new worker plays it and the match completes."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from api.clients.client import SixtySixClient
from api.games.store import GameStore
from api.keys import lease_key
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from api.worker.run import WorkerPool
from engine.replay import replay
from tests.conftest import worker_env
from tests.waiting import until

ATTEMPTS = 6


@pytest.fixture
def own(tmp_path: Path) -> Iterator[tuple[EmbeddedRedis, str]]:
    """A Redis of its own (no session workers on it) and the API on it without workers."""
    with EmbeddedRedis(tmp_path, appendonly=False) as server, LocalServer(
            server.url, workers=0) as api:
        yield server, api.url


def _human_turn(me: SixtySixClient, game_id: str) -> dict[str, Any]:
    """The view once the human is to act (or the match is over), long-polling meanwhile: a
    move lost with a killed worker is enqueued again by these requests once its lease ends."""
    view = me.view(game_id)
    deadline = time.monotonic() + 120
    while not view["legal_actions"] and view["status"] not in ("match_over", "aborted"):
        assert time.monotonic() < deadline, "the computer never moved"
        view = me.view(game_id, after_version=view["version"], wait=5)
    return view


def _wait_for(check: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(check) and check():
            return True
        time.sleep(0.005)
    return False


@pytest.mark.slow
def _restarted(pool: WorkerPool) -> None:
    """Supervise the pool as serve does until its killed worker runs again (after its pause)."""
    def started() -> bool:
        pool.check()
        return pool.children[0] is not None

    until(started, "the killed worker started again")


def test_a_worker_killed_mid_move_loses_nothing(own: tuple[EmbeddedRedis, str]) -> None:
    server, url = own
    data = redis.Redis.from_url(server.url)
    store = GameStore(data, 600)
    pool = WorkerPool(1, worker_env(server.url), lambda line: print(line, file=sys.stderr),
                      scheduler=False).start()
    try:
        client = SixtySixClient(url)
        game = client.create_game(seats=[{"kind": "human"},
                                         {"kind": "computer", "level": "strong"}],
                                  first_dealer=1, match_points=3)
        game_id, token = game["game_id"], game["seats"][0]["token"]
        me = client.with_token(token)
        view = me.view(game_id)
        killed = False
        for _ in range(ATTEMPTS):
            assert view["legal_actions"]
            answer = requests.post(f"{url}/v1/games/{game_id}/actions",
                                   json=view["legal_actions"][0],
                                   headers={"Authorization": f"Bearer {token}",
                                            "Prefer": "respond-async"}, timeout=10).json()
            if answer["status"] != "playing" or answer["to_act"] != 1:
                view = _human_turn(me, game_id)  # the human acts again (won the trick...)
                continue
            # the worker took the job and thinks: SIGKILL it before it saves
            if not _wait_for(lambda: data.exists(lease_key(game_id)), 10):
                view = _human_turn(me, game_id)
                continue  # the move was made before the lease was seen
            pid = pool.children[0].pid
            os.kill(pid, signal.SIGKILL)
            pool.children[0].wait()
            if store.version(game_id) == answer["version"]:  # killed mid-move: not saved
                killed = True
                assert data.exists(lease_key(game_id))  # the dead worker's lease stands
                _restarted(pool)  # a new worker process is started
                view = _human_turn(me, game_id)  # once the lease runs out the move is redone
                break
            _restarted(pool)
            view = _human_turn(me, game_id)
        assert killed, f"no kill fell inside a move in {ATTEMPTS} attempts"
        while view["status"] not in ("match_over", "aborted"):
            me.act(game_id, view["legal_actions"][0], if_match=view["version"])
            view = _human_turn(me, game_id)
        assert view["status"] == "match_over"
        record = requests.get(f"{url}/v1/games/{game_id}/record", timeout=10).json()
        assert replay(record).state.over  # every move once: the record replays
    finally:
        pool.stop()
        data.close()
