"""The sweep of a worker process and a server without a task queue, on real Redis."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask

from api.redis_server import EmbeddedRedis
from api.service import create_game
from api.worker.queue import AWAITING, move_job_id
from api.worker.run import build_context, sweep
from tests.api.helpers import DECK

BODY = {"variant": "sixty-six", "rules": {}, "deck": DECK, "first_dealer": 1,
        "settings": {"point_counter": True, "hint_66": False, "auto_continue": False}}
COMPUTER_LEADS = [{"kind": "computer", "level": "random"}, {"kind": "human"}]
HUMAN_LEADS = [{"kind": "human"}, {"kind": "computer", "level": "random"}]


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
    ctx.queue.redis.zadd(AWAITING, {waiting.game_id: long_ago, settled.game_id: long_ago})
    assert sweep(ctx) == 1  # the computer's move had no job: enqueued
    assert ctx.queue.moves.job_ids == [move_job_id(waiting.game_id, 1)]
    assert ctx.queue.redis.zscore(AWAITING, settled.game_id) is None  # a human is to act
    ctx.queue.redis.zadd(AWAITING, {waiting.game_id: long_ago})
    assert sweep(ctx) == 0  # its job still waits in the queue: nothing more
    ctx.queue.moves.empty()
    ctx.queue.take_lease(waiting.game_id, 1)
    assert sweep(ctx) == 0  # a worker holds it
    ctx.queue.drop_lease(waiting.game_id)
    assert sweep(ctx) == 1
    asked = ctx.queue.redis.zscore(AWAITING, waiting.game_id)
    assert asked is not None
    ctx.queue.settled(waiting.game_id, asked - 1)  # a job that began before this ask
    assert ctx.queue.redis.zscore(AWAITING, waiting.game_id) == asked  # keeps it
    ctx.queue.settled(waiting.game_id, asked)
    assert ctx.queue.redis.zscore(AWAITING, waiting.game_id) is None


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
