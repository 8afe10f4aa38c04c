"""The process holding RQ's scheduler lock is SIGKILLed just before a clock's deadline: the
deadline still fires within a few seconds (issue M item 2; it fired 58.6 s late while the
dead holder's lock lived on for its 61 s). Real Redis, a real pool of worker processes and
scheduler, the holder found by RQ's lock key; the lateness is read from the game's own
clock (the deadline it had and the one the timeout's save set)."""

from __future__ import annotations

import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient
from rq.job import Job
from rq.scheduler import RQScheduler

from api.app import close_app, create_app
from api.games.store import GameStore
from api.live.clock import clock_job_id
from api.runtime.redis_server import EmbeddedRedis
from api.worker.queue import MOVES, Shard
from api.worker.run import POLL_INTERVAL, WorkerPool
from tests.api.helpers import DECK, create
from tests.conftest import worker_env
from tests.waiting import until

TWO_HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
#: Think time of the games, seconds: the holder is killed in the last second before it.
THINK_S = 3
#: Most seconds a deadline may fire late with its scheduler killed (tolerance 2 s, and a
#: loaded machine's margin).
LATE_BOUND = 3.0
#: Holders killed in turn (the second is whichever took over from the first).
KILLS = 2


@pytest.fixture
def own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
        ) -> Iterator[tuple[redis.Redis, FlaskClient, WorkerPool]]:
    """A Redis of its own with a supervised pool (2 workers and the scheduler) and the API."""
    monkeypatch.setenv("SIXTYSIX_MIN_THINK_TIME_S", "1")
    with EmbeddedRedis(tmp_path, appendonly=False) as server, WorkerPool(
            2, worker_env(server.url), lambda line: print(line, file=sys.stderr)) as pool:
        done = threading.Event()
        supervisor = threading.Thread(target=_supervise, args=(pool, done), daemon=True)
        supervisor.start()
        app = create_app({"TESTING": True, "REDIS_URL": server.url,
                          "RATELIMIT_ENABLED": False})
        data = redis.Redis.from_url(server.url)
        try:
            yield data, app.test_client(), pool
        finally:
            done.set()
            supervisor.join()
            close_app(app)
            data.close()


def _supervise(pool: WorkerPool, done: threading.Event) -> None:
    """Restart the pool's dead processes as ``sixtysix worker`` does."""
    while not done.wait(POLL_INTERVAL):
        pool.check()


def _holder(data: redis.Redis, pool: WorkerPool) -> int:
    """The pid of the pool's process that holds RQ's scheduler lock of the moves queue."""
    def found() -> int | None:
        name = data.get(RQScheduler.get_locking_key(MOVES))
        pid = None if name is None else data.hget(f"rq:scheduler:{name.decode()}", "pid")
        alive = {c.pid for c in pool.running()}
        return int(pid) if pid is not None and int(pid) in alive else None

    return until(found, "a process of the pool holding the scheduler lock")


def test_a_deadline_fires_on_time_when_the_schedulers_holder_is_killed(
        own: tuple[redis.Redis, FlaskClient, WorkerPool]) -> None:
    data, client, pool = own
    store = GameStore(data, 600)
    registry = Shard(data).moves.scheduled_job_registry
    late: list[float] = []
    for _ in range(KILLS):
        holder = _holder(data, pool)
        made = create(client, seats=TWO_HUMANS, deck=DECK, first_dealer=1,
                      settings={"think_time_s": THINK_S, "timeout_level": "random"})
        game = store.load(made["game_id"])
        deadline = game.meta["clock"]["deadline"]
        job_id = clock_job_id(game.game_id, game.version)
        # RQ keeps due times in whole seconds: kill before the second the job is due in
        time.sleep(max(0.0, math.floor(deadline) - 0.3 - time.time()))
        os.kill(holder, signal.SIGKILL)
        assert registry.get_scheduled_time(job_id)  # still waits for a scheduler
        assert Job.exists(job_id, connection=data)

        def fired(game_id: str = game.game_id, version: int = game.version) -> bool:
            return store.version(game_id) > version

        until(fired, "the timeout's save", patience=90)
        after = store.load(game.game_id).meta["clock"]
        assert after["kind"] == "move" and after["expiries"] == [1, 0]  # it moved for Ann
        late.append(after["deadline"] - THINK_S - deadline)  # the save started the next
    print(f"deadlines fired late by {', '.join(f'{s:.2f}' for s in late)} s")
    assert max(late) <= LATE_BOUND, late
