"""The task queue spread over shards: games go to the shard their id hashes to, each shard's
worker processes answer its games, a shard's worker killed mid-move leaves its game to the
shard's sweep, and a shard whose Redis is down leaves the other shards' games going while its
own games' writes are refused with 503 before anything is saved. Real redis-servers (the games'
and two queue shards) and a real pool of worker processes (:class:`WorkerPool`)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from rq.job import Job

from api.games.store import GameStore
from api.keys import AWAITING, lease_key
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from api.worker.queue import LEASE_SECONDS, move_job_id
from api.worker.routing import shard_index
from api.worker.run import SWEEP_INTERVAL, WorkerPool
from api.worker.tier import SETTLE, WATCH_CACHE
from tests.waiting import until

SHARDS = 2
ASYNC = {"Prefer": "respond-async"}


@dataclass
class Tier:
    url: str  # the API
    games: redis.Redis
    servers: list[EmbeddedRedis]  # the queue's shards
    shards: list[redis.Redis]
    pool: WorkerPool


@pytest.fixture(scope="module")
def tier(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tier]:
    """The API and a pool of worker processes (one per shard, and a scheduler per shard) on
    a games' Redis and two queue shards; the pool's dead processes are restarted."""
    root: Path = tmp_path_factory.mktemp("shards")
    servers = [EmbeddedRedis(root / name, appendonly=False).start()
               for name in ("games", "a", "b")]
    queue = " ".join(s.url for s in servers[1:])
    # strong moves take seconds: a worker can be killed in one
    env = {**os.environ, "REDIS_URL": servers[0].url, "QUEUE_URL": queue,
           "SIXTYSIX_THINK_SCALE": "16", "SIXTYSIX_REPLY_TARGET": "60"}
    stop = threading.Event()
    pool = WorkerPool(1, env, print).start()

    def supervise() -> None:
        while not stop.wait(0.2):
            pool.check()

    watcher = threading.Thread(target=supervise, daemon=True)
    watcher.start()
    try:
        with LocalServer(servers[0].url, {"QUEUE_URL": queue}, workers=0) as api:
            yield Tier(api.url, redis.Redis.from_url(servers[0].url), servers[1:],
                       [redis.Redis.from_url(s.url) for s in servers[1:]], pool)
    finally:
        stop.set()
        watcher.join()
        pool.stop()
        for server in servers:
            server.stop()


def _computer_leads(url: str, level: str = "random") -> dict[str, Any]:
    """A game whose computer (seat 1) leads: its first move is a job on its shard."""
    body = {"seats": [{"kind": "human"}, {"kind": "computer", "level": level}],
            "first_dealer": 0}
    created = requests.post(f"{url}/v1/games", json=body, headers=ASYNC, timeout=30)
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def _on_shard(url: str, shard: int, level: str = "random") -> dict[str, Any]:
    """A new game (computer to lead) whose id hashes to ``shard``."""
    for _ in range(40):
        game = _computer_leads(url, level)
        if shard_index(game["game_id"], SHARDS) == shard:
            return game
    raise AssertionError(f"no game on shard {shard} in 40 creations")


def _view(url: str, game: dict[str, Any], after: int | None = None,
          wait: float = 10) -> requests.Response:
    params = {} if after is None else {"after_version": after, "wait": wait}
    return requests.get(f"{url}/v1/games/{game['game_id']}", params=params, timeout=30,
                        headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})


def _answered(url: str, game: dict[str, Any]) -> dict[str, Any]:
    """The human's view once the computer has answered, long-polling version after version."""
    seen: dict[str, Any] = {"version": game["version"], "legal_actions": []}
    deadline = time.monotonic() + 30
    while not seen["legal_actions"] and time.monotonic() < deadline:
        seen = _view(url, game, seen["version"]).json()
    return seen


def test_games_spread_over_the_shards_and_each_shard_answers_its_own(tier: Tier) -> None:
    games = [_on_shard(tier.url, shard) for shard in range(SHARDS) for _ in range(2)]
    for game in games:
        view = _answered(tier.url, game)
        assert view["legal_actions"] and view["version"] > game["version"]
        own = shard_index(game["game_id"], SHARDS)
        job = move_job_id(game["game_id"], game["version"])
        # the move job ran on the game's shard, and never touched the other one
        assert Job.exists(job, connection=tier.shards[own])
        assert not Job.exists(job, connection=tier.shards[1 - own])
        assert tier.shards[1 - own].zscore(AWAITING, game["game_id"]) is None


def test_a_shard_worker_killed_mid_move_leaves_the_move_to_its_sweep(tier: Tier) -> None:
    game = _on_shard(tier.url, 1, level="strong")
    lease = lease_key(game["game_id"])
    until(lambda: tier.shards[1].exists(lease), "shard 1's worker takes the move", 30, 0.01)
    [worker] = [c for c, cmd in zip(tier.pool.children, tier.pool.commands, strict=True)
                if c is not None and cmd[-2:] == ["--shard", "1"] and "--scheduler" not in cmd]
    worker.send_signal(signal.SIGKILL)
    killed = time.monotonic()
    store = GameStore(tier.games, 60)
    assert store.version(game["game_id"]) == game["version"]  # the move died with it
    # nobody touches the game: the restarted worker's sweep finds it once the lease is over
    until(lambda: store.version(game["game_id"]) > game["version"],
          "shard 1's sweep enqueues the move again", LEASE_SECONDS + 4 * SWEEP_INTERVAL + 30)
    assert time.monotonic() - killed >= LEASE_SECONDS - 2  # not before the lease ran out
    # strong at 16 times its work may take most of its minute's deadline for a meld and a lead
    until(lambda: _view(tier.url, game).json()["legal_actions"], "the human is to act", 90, 0.5)


def test_a_shard_down_stops_only_its_own_games(tier: Tier) -> None:
    up, down = _on_shard(tier.url, 0), _on_shard(tier.url, 1)
    for game in (up, down):
        assert _answered(tier.url, game)["legal_actions"]
    tier.servers[1].stop()
    time.sleep(WATCH_CACHE + 0.5)  # the web tier's watch reads the shard again
    token = {"Authorization": f"Bearer {down['seats'][0]['token']}"}
    before = _view(tier.url, down).json()
    refused = requests.post(f"{tier.url}/v1/games/{down['game_id']}/actions", headers=token,
                            json=before["legal_actions"][0], timeout=30)
    assert refused.status_code == 503, refused.text
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.headers["Retry-After"]
    assert refused.json()["type"].endswith("/store-unavailable")
    assert GameStore(tier.games, 60).version(down["game_id"]) == before["version"]  # unsaved
    # the other shard's games go on: a move, and the computer's reply
    mine = {"Authorization": f"Bearer {up['seats'][0]['token']}"}
    view = _view(tier.url, up).json()
    acted = requests.post(f"{tier.url}/v1/games/{up['game_id']}/actions", headers=mine,
                          json=view["legal_actions"][0], timeout=30)
    assert acted.status_code == 200, acted.text
    assert acted.json()["version"] > view["version"]
    fresh = _on_shard(tier.url, 0)  # new games go on too (a computer leads: its move)
    assert _answered(tier.url, fresh)["legal_actions"]

    def missing() -> list[str]:
        ready = requests.get(f"{tier.url}/readyz", timeout=10)
        assert ready.status_code == 200  # the web tier serves on
        found: list[str] = ready.json()["missing"]
        return found

    until(lambda: missing() == ["workers@1", "scheduler@1"], "/readyz names shard 1",
          SETTLE + 10)
    scraped = requests.get(f"{tier.url}/metrics", timeout=10).text
    assert 'sixtysix_queue_up{shard="0"} 1.0' in scraped
    assert 'sixtysix_queue_up{shard="1"} 0.0' in scraped
    assert 'sixtysix_queue_workers{shard="0"} 1.0' in scraped  # the pool's one per shard
    assert 'sixtysix_queue_jobs{queue="moves",shard="0"}' in scraped
    assert 'sixtysix_queue_workers{shard="1"}' not in scraped  # a down shard's: left out
