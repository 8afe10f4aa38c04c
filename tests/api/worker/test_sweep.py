"""The sweep of a worker process and a server without a task queue, on real Redis."""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from rq.job import Job, JobStatus

from api.games.service import create_game, game_view
from api.games.store import Game
from api.keys import AWAITING, DEADLINES
from api.live import clock
from api.runtime.redis_server import EmbeddedRedis
from api.worker.jobs import WorkerContext
from api.worker.queue import SERIALIZER, move_job_id
from api.worker.run import SWEEP_INTERVAL, WorkerPool, build_context, sweep, sweep_clocks
from tests.api.helpers import DECK
from tests.conftest import worker_env
from tests.waiting import until

BODY = {"variant": "sixty-six", "rules": {}, "deck": DECK, "first_dealer": 1,
        "settings": {"point_counter": True, "hint_66": False, "auto_continue": False}}
COMPUTER_LEADS = [{"kind": "computer", "level": "random"}, {"kind": "human"}]
HUMAN_LEADS = [{"kind": "human"}, {"kind": "computer", "level": "random"}]
#: Seconds a worker process takes to start at most (on a 2-core machine under other tests).
WORKER_START = 25.0


@pytest.fixture
def own(tmp_path: Path) -> Iterator[str]:
    """A Redis of its own: no worker takes what the sweep enqueues."""
    with EmbeddedRedis(tmp_path, appendonly=False) as server:
        yield server.url


def test_the_sweep_enqueues_a_lost_move_once_and_forgets_settled_games(own: str) -> None:
    ctx = build_context(own, own)
    waiting, _ = create_game(ctx.store, {**BODY, "seats": COMPUTER_LEADS})
    settled, _ = create_game(ctx.store, {**BODY, "seats": HUMAN_LEADS})
    long_ago = time.time() - 60
    ctx.own.redis.zadd(AWAITING, {waiting.game_id: long_ago, settled.game_id: long_ago})
    assert sweep(ctx) == 1  # the computer's move had no job: enqueued
    assert ctx.own.moves.job_ids == [move_job_id(waiting.game_id, 1)]
    assert ctx.own.redis.zscore(AWAITING, settled.game_id) is None  # a human is to act
    ctx.own.redis.zadd(AWAITING, {waiting.game_id: long_ago})
    assert sweep(ctx) == 0  # its job still waits in the queue: nothing more
    ctx.own.moves.empty()
    ctx.queue.take_lease(waiting.game_id, 1)
    assert sweep(ctx) == 0  # a worker holds it
    ctx.queue.drop_lease(waiting.game_id)
    assert sweep(ctx) == 1
    asked = ctx.own.redis.zscore(AWAITING, waiting.game_id)
    assert asked is not None
    ctx.queue.settled(waiting.game_id, asked - 1)  # a job that began before this ask
    assert ctx.own.redis.zscore(AWAITING, waiting.game_id) == asked  # keeps it
    ctx.queue.settled(waiting.game_id, asked)
    assert ctx.own.redis.zscore(AWAITING, waiting.game_id) is None


def test_the_sweep_enqueues_a_lost_clock_job_and_bounds_its_work(
        own: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIXTYSIX_MIN_THINK_TIME_S", "1")
    ctx = build_context(own, own)
    timed = {**BODY, "seats": HUMAN_LEADS,
             "settings": {**BODY["settings"], "think_time_s": 1, "on_timeout": "forfeit"}}
    lost, _ = create_game(ctx.store, timed)
    kept, _ = create_game(ctx.store, timed)
    for game in (lost, kept):
        assert clock.schedule(ctx.queue, game.game_id, game.version, game.meta)
    assert ctx.own.redis.zscore(DEADLINES, lost.game_id) == lost.meta["clock"]["deadline"]
    base = clock.clock_job_id(lost.game_id, lost.version)
    Job.fetch(base, connection=ctx.own.redis, serializer=SERIALIZER).delete()
    assert sweep_clocks(ctx, late=0) == 0  # no deadline has passed yet
    later, _ = create_game(ctx.store, {**timed, "settings": {**timed["settings"],
                                                              "think_time_s": 60}})
    unclocked, _ = create_game(ctx.store, {**BODY, "seats": HUMAN_LEADS})
    ctx.own.redis.zadd(DEADLINES, {"gone-game-id": 1.0, later.game_id: 2.0,
                                     unclocked.game_id: 3.0})
    time.sleep(max(0.0, kept.meta["clock"]["deadline"] - time.time()) + 0.1)
    # the earliest noted first: with room for three, neither lost nor kept is looked at
    assert sweep_clocks(ctx, late=0, limit=3) == 0
    assert ctx.own.redis.zscore(DEADLINES, "gone-game-id") is None
    assert ctx.own.redis.zscore(DEADLINES, unclocked.game_id) is None  # no clock
    assert ctx.own.redis.zscore(DEADLINES, later.game_id) == later.meta["clock"]["deadline"]
    assert sweep_clocks(ctx, late=0) == 1  # lost had no job; kept's still waits
    swept = Job.fetch(f"{base}-swept", connection=ctx.own.redis, serializer=SERIALIZER)
    assert swept.args == [lost.game_id, lost.version]
    assert swept.get_status() == JobStatus.SCHEDULED  # due now: RQ's scheduler moves it
    assert sweep_clocks(ctx, late=0) == 0  # its job is in hand now
    swept.delete()
    Job.fetch(clock.clock_job_id(kept.game_id, kept.version), connection=ctx.own.redis,
              serializer=SERIALIZER).delete()
    assert sweep_clocks(ctx, late=0, limit=1) == 1  # one game per sweep, earliest first
    assert sweep_clocks(ctx, late=0, limit=1) == 0  # the earliest is in hand: only it seen
    assert sweep_clocks(ctx, late=0) == 1
    assert ctx.own.redis.zscore(DEADLINES, lost.game_id) is not None  # still due


def _taken_by_a_killed_worker(ctx: WorkerContext, job_id: str) -> None:
    """What a worker killed between taking ``job_id`` and starting it leaves: it popped the
    id off the queue's list (RQ's ``BLPOP``); the job stays ``queued``, in no list or
    registry."""
    assert ctx.own.redis.lpop(ctx.own.moves.key) == job_id.encode()
    job = Job.fetch(job_id, connection=ctx.own.redis, serializer=SERIALIZER)
    assert job.get_status() == JobStatus.QUEUED and ctx.own.moves.job_ids == []


def test_the_sweep_puts_a_move_job_taken_by_a_killed_worker_back_once(own: str) -> None:
    ctx = build_context(own, own)
    game, _ = create_game(ctx.store, {**BODY, "seats": COMPUTER_LEADS})
    job_id = move_job_id(game.game_id, game.version)
    ctx.queue.enqueue_move(game.game_id, game.version)
    _taken_by_a_killed_worker(ctx, job_id)
    # a request takes it as waiting: a live worker may be about to start it
    assert ctx.queue.move_in_hand(game.game_id, game.version)
    assert ctx.own.moves.job_ids == []
    ctx.own.redis.zadd(AWAITING, {game.game_id: time.time() - 60})  # asked long ago
    for _ in range(3):  # the first sweep puts it back; the others find it waiting
        assert sweep(ctx) == 0
        assert ctx.own.moves.job_ids == [job_id]
    assert ctx.own.redis.zscore(AWAITING, game.game_id) is not None  # not settled


def test_a_clock_job_taken_by_a_killed_worker_is_put_back_once(own: str) -> None:
    ctx = build_context(own, own)
    game, _ = create_game(ctx.store, {**BODY, "seats": HUMAN_LEADS})
    job_id = clock.clock_job_id(game.game_id, game.version)
    ctx.own.moves.enqueue(clock.CLOCK_JOB, game.game_id, game.version, job_id=job_id)
    _taken_by_a_killed_worker(ctx, job_id)
    for _ in range(3):  # the sweep's question: the first puts it back
        assert ctx.queue.clock_in_hand(game.game_id, game.version)
        assert ctx.own.moves.job_ids == [job_id]


def test_a_game_whose_move_job_a_killed_worker_took_gets_its_move_once(own: str) -> None:
    """The state a worker killed between ``BLPOP`` and starting the job leaves (1 game in 30
    under 36 kills stayed so for good): a real worker's sweep finds it and the computer moves,
    once, within a sweep's time of the worker's start."""
    ctx = build_context(own, own)
    game, _ = create_game(ctx.store, {**BODY, "seats": COMPUTER_LEADS})
    ctx.queue.enqueue_move(game.game_id, game.version)
    _taken_by_a_killed_worker(ctx, move_job_id(game.game_id, game.version))
    ctx.own.redis.zadd(AWAITING, {game.game_id: time.time() - 60})  # asked long ago
    pool = WorkerPool(1, worker_env(own), lambda line: print(line, file=sys.stderr),
                      scheduler=False).start()

    def moved() -> Game | None:
        found = ctx.store.load(game.game_id)
        return found if game_view(found, 1)["legal_actions"] else None

    try:  # a bound, not a performance figure: a sweep's interval and a worker's start
        after = until(moved, "the computer's move", SWEEP_INTERVAL + WORKER_START)
    finally:
        pool.stop()
    view = game_view(after, 1)
    assert [t["seat"] for t in view["trick"]] == [0]
    played = [e.event.data for e in ctx.store.all_events(after) if e.event.type == "card_played"]
    assert [e["seat"] for e in played] == [0]  # one computer move, not two
    assert ctx.own.moves.job_ids == []


def test_without_a_task_queue_a_game_with_computers_is_refused_unsaved(
        app: Flask, redis_client: redis.Redis) -> None:
    services = app.extensions["sixtysix"]
    app.extensions["sixtysix"] = dataclasses.replace(services, queue=None)
    client = app.test_client()
    response = client.post("/v1/games", json={"seats": COMPUTER_LEADS})
    assert response.status_code == 503
    assert response.json is not None and response.json["type"].endswith("/no-task-queue")
    assert not redis_client.keys("sixtysix:game:*")
    humans = client.post("/v1/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    assert humans.status_code == 201  # no computer: no queue needed
    app.extensions["sixtysix"] = services
