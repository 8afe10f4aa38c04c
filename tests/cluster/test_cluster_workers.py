"""The worker tier on the cluster: games on the local three-master Redis Cluster, the task
queue on a server of its own (``QUEUE_URL``), and real worker processes (``python -m
api.worker.run``, with RQ's scheduler process) playing the computers and the clocks.

The web instance runs no worker of its own (``workers=0``): every computer move and every
clock's timeout below is a job a worker process took from the separate queue and saved on
the cluster.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator

import pytest
import redis
from rq.registry import FinishedJobRegistry

from api.clients.client import SixtySixClient
from api.games.store import GameStore
from api.keys import game_key
from api.runtime.local import LocalServer
from api.runtime.redis_connect import connect
from api.runtime.redis_server import EmbeddedRedis
from api.worker.queue import MOVES, SERIALIZER, move_job_id
from api.worker.run import WorkerPool
from engine import Event
from tests.cluster.conftest import LocalCluster
from tests.conftest import worker_env

pytestmark = pytest.mark.cluster

#: Seconds the tests wait at most for the workers (far above a move or a 1 s clock).
PATIENCE = 60.0
VS_COMPUTER = [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}]


@pytest.fixture(scope="module")
def queue_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """The task queue's Redis: a server apart from the cluster."""
    with EmbeddedRedis(tmp_path_factory.mktemp("queue"), appendonly=False) as server:
        yield server


@pytest.fixture(scope="module")
def tier(redis_cluster: LocalCluster, queue_server: EmbeddedRedis) -> Iterator[str]:
    """One web instance on the cluster with no worker threads, and one worker process with
    the scheduler, all on the separate queue: the instance's URL."""
    with (
        WorkerPool(1, worker_env(redis_cluster.url, queue_server.url),
                   lambda line: print(line, file=sys.stderr)),
        LocalServer(redis_cluster.url, {"QUEUE_URL": queue_server.url}, workers=0) as web,
    ):
        yield web.url


def test_a_match_against_the_computer_is_played_by_worker_processes(
        tier: str, redis_cluster: LocalCluster, queue_server: EmbeddedRedis) -> None:
    rng = random.Random(11)
    with SixtySixClient(tier) as client:
        game = client.create_game(seats=VS_COMPUTER, match_points=3,
                                  settings={"auto_continue": True})
        game_id = game["game_id"]
        me = client.with_token(game["seats"][0]["token"])
        view = me.view(game_id)
        for _ in range(500):
            if view["status"] == "match_over":
                break
            if not view["legal_actions"]:  # the computer's move: long-poll for it
                view = me.view(game_id, after_version=view["version"], wait=10)
                continue
            view = me.act(game_id, rng.choice(view["legal_actions"]))
        assert view["status"] == "match_over", view
        events = me.all_events(game_id)
    assert any(e["type"] == "card_played" and e["seat"] == 1 for e in events)
    # the game lives on the cluster, its move jobs went through the separate queue
    games = connect(redis_cluster.url)
    try:
        assert int(games.hget(game_key(game_id), "v") or 0) == view["version"]
    finally:
        games.close()
    queue = redis.Redis.from_url(queue_server.url)
    try:
        assert not queue.exists(game_key(game_id))
        assert queue.scard("rq:workers") >= 1  # the worker process registered here
        finished = FinishedJobRegistry(MOVES, connection=queue, serializer=SERIALIZER)
        prefix = move_job_id(game_id, 0).rpartition("-")[0] + "-"
        assert any(j.startswith(prefix) for j in finished.get_job_ids())
    finally:
        queue.close()


def test_a_clock_runs_out_on_the_cluster_with_no_request(
        tier: str, redis_cluster: LocalCluster, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock's delayed job is moved by the scheduler process and applied by the worker
    process to the cluster's game, while no request touches the game (it is read from the
    cluster directly: a request after the deadline would apply it itself)."""
    monkeypatch.setenv("SIXTYSIX_MIN_THINK_TIME_S", "1")
    with SixtySixClient(tier) as client:
        game = client.create_game(seats=VS_COMPUTER, first_dealer=1,  # Ann leads
                                  settings={"think_time_s": 1, "on_timeout": "forfeit"})
    store = GameStore(connect(redis_cluster.url), 600)
    try:
        start = store.load(game["game_id"])
        assert start.meta["clock"]["seat"] == 0
        end = time.monotonic() + PATIENCE
        timed_out: list[Event] = []
        while not timed_out and time.monotonic() < end:
            time.sleep(0.2)
            timed_out = [lg.event for lg in store.all_events(store.load(game["game_id"]))
                         if lg.event.data.get("timeout")]
        assert timed_out, "the clock never ran out"
        assert timed_out[0].type == "timeout" and timed_out[0].data["seat"] == 0
    finally:
        store.redis.close()
