"""The cap on a player's open tables (``SIXTYSIX_MAX_OPEN_TABLES``): one more is a 409 that
names the cap, the open tables and how to free one; leaving, starting and expiring free a
place; concurrent creations never pass the cap."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from api.config import DEFAULTS
from api.http.examples_lobby import TABLE_ID
from api.keys import table_key
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import assert_problem, bearer, configured
from tests.api.lobby_helpers import join, new_player, new_table, same_problem
from tests.waiting import until

OPEN_TABLE: dict[str, Any] = {"seats": [{"kind": "player"}, {"kind": "open"}]}


@pytest.fixture
def capped(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[FlaskClient]:
    with configured(redis_server.url, SIXTYSIX_MAX_OPEN_TABLES=3) as client:
        yield client


def _create(client: FlaskClient, token: str, **body: Any) -> Any:
    return client.post("/v1/tables", json={**OPEN_TABLE, **body}, headers=bearer(token))


def test_the_default_cap_is_ten_open_tables_and_one_more_is_a_409_saying_how_to_free_one(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    assert DEFAULTS["SIXTYSIX_MAX_OPEN_TABLES"] == 10
    _, token = new_player(client, "Ann")
    opened = [new_table(client, token, **OPEN_TABLE)["table_id"] for _ in range(10)]
    problem = assert_problem(_create(client, token), 409, "too-many-open-tables")
    assert problem["max_open_tables"] == 10
    assert problem["open_tables"] == sorted(opened)
    assert "leav" in problem["detail"] and "10" in problem["detail"]
    assert len(list(redis_client.scan_iter("sixtysix:table:*"))) == 10  # nothing saved


def test_leaving_or_starting_frees_a_place(capped: FlaskClient) -> None:
    _, ann = new_player(capped, "Ann")
    _, bob = new_player(capped, "Bob")
    first, second, _ = (new_table(capped, ann, **OPEN_TABLE)["table_id"] for _ in range(3))
    assert_problem(_create(capped, ann), 409, "too-many-open-tables")
    assert capped.post(f"/v1/tables/{first}/leave", headers=bearer(ann)).status_code == 200
    new_table(capped, ann, **OPEN_TABLE)
    assert_problem(_create(capped, ann), 409, "too-many-open-tables")
    assert join(capped, bob, second)["status"] == "playing"
    new_table(capped, ann, **OPEN_TABLE)
    assert_problem(_create(capped, ann), 409, "too-many-open-tables")


def test_an_expired_table_frees_its_place(redis_server: EmbeddedRedis,
                                          redis_client: redis.Redis) -> None:
    with configured(redis_server.url, SIXTYSIX_MAX_OPEN_TABLES=1,
                    SIXTYSIX_TABLE_OPEN_TTL=1) as client:
        _, ann = new_player(client, "Ann")
        opened = new_table(client, ann, **OPEN_TABLE)["table_id"]
        assert_problem(_create(client, ann), 409, "too-many-open-tables")
        until(lambda: not redis_client.exists(table_key(opened)), "the open table expires", 30)
        until(lambda: _create(client, ann).status_code == 201, "its place is free", 30)


def test_the_documented_example_is_what_the_server_answers(
        redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    with configured(redis_server.url, SIXTYSIX_MAX_OPEN_TABLES=1) as client:
        _, ann = new_player(client, "Ann")
        opened = new_table(client, ann, **OPEN_TABLE)["table_id"]
        same_problem(_create(client, ann), "too_many_open_tables", **{TABLE_ID: opened})


def test_a_table_that_starts_at_once_is_no_open_one(capped: FlaskClient) -> None:
    _, ann = new_player(capped, "Ann")
    for _ in range(3):
        new_table(capped, ann, **OPEN_TABLE)
    against_computer = {"seats": [{"kind": "player"}, {"kind": "computer", "level": "easy"}]}
    assert _create(capped, ann, **against_computer).status_code == 201
    _, bob = new_player(capped, "Bob")
    assert _create(capped, bob).status_code == 201  # each player has his own cap


def test_concurrent_creations_never_pass_the_cap(capped: FlaskClient,
                                                 redis_client: redis.Redis) -> None:
    _, ann = new_player(capped, "Ann")
    app = capped.application
    barrier = threading.Barrier(8)
    statuses: list[int] = []

    def create() -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(_create(client, ann).status_code)

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] * 3 + [409] * 5
    assert len(list(redis_client.scan_iter("sixtysix:table:*"))) == 3
