"""Active games per client address are capped (SIXTYSIX_MAX_GAMES_PER_ADDRESS): one more is a
403; a finished match (won, resigned or aborted) or an expired game frees its place."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api.app import close_app, create_app
from api.games.store import GameStore
from api.keys import game_key, owner_key
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import assert_problem, bearer, service_keys

CAP = 3
HUMANS = [{"kind": "human"}, {"kind": "human"}]
DEADLINE = 15.0  # seconds to wait for a real expiry (a bound, not a performance figure)


def _app(url: str, **config: Any) -> Flask:
    return create_app({"TESTING": True, "REDIS_URL": url, "RATELIMIT_ENABLED": False,
                       "SIXTYSIX_LOG_REQUESTS": 0, "SIXTYSIX_MAX_GAMES_PER_ADDRESS": CAP,
                       **config})


@pytest.fixture
def capped(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[Flask]:
    app = _app(redis_server.url)
    yield app
    close_app(app)


def _create(client: FlaskClient, address: str = "127.0.0.1", **headers: str) -> Any:
    return client.post("/v1/games", json={"seats": HUMANS, "match_points": 3,
                                          "settings": {"auto_continue": True}},
                       environ_base={"REMOTE_ADDR": address}, headers=headers)


def test_one_game_over_the_cap_is_a_403(capped: Flask, redis_client: redis.Redis) -> None:
    client = capped.test_client()
    for _ in range(CAP):
        assert _create(client).status_code == 201
    keys = service_keys(redis_client)
    keyed = {"Idempotency-Key": "cap-key-0123456789abcde"}
    for refused in (_create(client), _create(client, **keyed)):
        problem = assert_problem(refused, 403, "too-many-games")
        assert problem["max_games"] == CAP and "finish one" in problem["detail"]
    assert service_keys(redis_client) == keys  # no game, no idempotency marker left
    assert _create(client, "192.0.2.9").status_code == 201  # another address has its own
    # the address itself is not stored, only a digest of it
    assert not redis_client.keys("*127.0.0.1*")
    assert redis_client.zcard(owner_key("127.0.0.1")) == CAP


def _play_to_the_end(client: FlaskClient, created: dict[str, Any]) -> None:
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    for _ in range(5000):
        seat_view: Any = client.get(f"/v1/games/{game_id}").json
        if seat_view["status"] == "match_over":
            return
        seat = seat_view["to_act"]
        legal = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[seat])).json
        assert legal is not None
        action = next(a for a in legal["legal_actions"] if a["type"] != "declare")
        response = client.post(f"/v1/games/{game_id}/actions", json=action,
                               headers=bearer(tokens[seat]))
        assert response.status_code == 200, response.json
    raise AssertionError("the match did not end")


def test_a_finished_match_frees_its_place(capped: Flask) -> None:
    client = capped.test_client()
    games = [_create(client).json for _ in range(CAP)]
    assert_problem(_create(client), 403, "too-many-games")
    _play_to_the_end(client, games[0])
    assert _create(client).status_code == 201
    assert_problem(_create(client), 403, "too-many-games")


@pytest.mark.parametrize("end", ["abort", "resign"])
def test_an_aborted_or_resigned_game_frees_its_place(capped: Flask, end: str) -> None:
    client = capped.test_client()
    games = [_create(client).json for _ in range(CAP)]
    assert_problem(_create(client), 403, "too-many-games")
    ended = client.post(f"/v1/games/{games[0]['game_id']}/actions", json={"type": end},
                        headers=bearer(games[0]["seats"][0]["token"]))
    assert ended.status_code == 200 and ended.json["status"] in ("aborted", "match_over")
    assert _create(client).status_code == 201
    assert_problem(_create(client), 403, "too-many-games")


def test_an_expired_game_frees_its_place(redis_server: EmbeddedRedis,
                                         redis_client: redis.Redis) -> None:
    app = _app(redis_server.url, SIXTYSIX_GAME_TTL=1)  # a place is held 1.5 x 1 s, rounded
    client = app.test_client()
    try:
        for _ in range(CAP):
            assert _create(client).status_code == 201
        deadline = time.monotonic() + DEADLINE
        while (response := _create(client)).status_code == 403:
            assert time.monotonic() < deadline, "the places were never given back"
            time.sleep(0.2)
        assert response.status_code == 201
    finally:
        close_app(app)


def test_a_save_renews_a_place_that_runs_short(capped: Flask, redis_client: redis.Redis) -> None:
    client = capped.test_client()
    created: Any = _create(client).json
    store: GameStore = capped.extensions["sixtysix"].games
    game = store.load(created["game_id"])
    owner = game.meta["owner"]
    now = int(time.time())
    assert owner["until"] >= now + store.ttl  # held at least as long as the game lives
    owner["until"] = now  # as if created long ago: the next save renews it
    store.save(game, [], write_meta=True)
    renewed = redis_client.zscore(owner["key"], created["game_id"])
    assert renewed is not None and renewed >= now + store.ttl
    assert store.load(created["game_id"]).meta["owner"]["until"] == renewed
    assert redis_client.ttl(owner["key"]) >= store.ttl


def test_a_cap_of_0_is_no_cap(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    app = _app(redis_server.url, SIXTYSIX_MAX_GAMES_PER_ADDRESS=0)
    try:
        client = app.test_client()
        for _ in range(CAP + 2):
            assert _create(client).status_code == 201
        assert not redis_client.exists(owner_key("127.0.0.1"))  # nothing is counted
        game_id = _create(client).get_json()["game_id"]
        assert "owner" not in json.loads(redis_client.hget(game_key(game_id), "meta"))
    finally:
        close_app(app)
