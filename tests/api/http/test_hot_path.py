"""The shortcuts of the request hot path keep the behaviour of the long way round.

The store's Redis use (presence read with the game), the request summary shared by the log
line and the metrics, the cached log timestamp, compact JSON answers, and the cached rule sets
of state serialization.
"""

from __future__ import annotations

import datetime
import json
import time
from collections.abc import Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api.games.store import GameStore
from api.http import observability
from api.http.observability import Answered, timestamp
from api.keys import game_key
from api.runtime.redis_server import EmbeddedRedis
from engine import Rules, Settings, from_json, new_game, to_json
from engine.serialize import to_dict
from tests.api.helpers import DECK, HAND_0, HAND_1, act, bearer, configured, two_humans


def test_the_store_reconnects_after_the_pool_was_closed(redis_client: redis.Redis) -> None:
    store = GameStore(redis_client, ttl=60)
    state, events = new_game(Rules(), first_dealer=0)
    game = store.create("g1", state, {"seats": []}, events)
    redis_client.connection_pool.disconnect()  # what closing the app's client does
    assert store.load("g1").version == game.version


def test_the_store_survives_connections_the_server_closed(redis_client: redis.Redis) -> None:
    """The pool checks a connection before lending it; a client keeping one connection outside
    the pool (to save the pool's CPU) would skip that and fail one request here."""
    store = GameStore(redis_client, ttl=60)
    state, events = new_game(Rules(), first_dealer=0)
    store.create("g2", state, {"seats": []}, events)
    redis_client.client_kill_filter(_type="normal", skipme=True)
    assert store.load("g2").version == 1


def test_presence_lives_in_the_game_hash_and_loads_with_it(redis_client: redis.Redis) -> None:
    store = GameStore(redis_client, ttl=60, presence_window=30)
    state, events = new_game(Rules(), first_dealer=0)
    store.create("g3", state, {"seats": [{}, {}]}, events)
    store.presence.seen("g3", 1, now=time.time())
    assert redis_client.hexists(game_key("g3"), "seen:1")
    assert redis_client.keys("sixtysix:presence:*") == []
    assert store.load("g3").connected == [False, True]
    assert store.progress_and_presence("g3", 2) == (1, len(events), [False, True])
    store.presence.seen("g3", 0, now=time.time() - 31, force=True)  # outside the window
    assert store.load("g3").connected == [False, True]


def test_presence_never_makes_a_hash_for_a_game_that_is_gone(redis_client: redis.Redis) -> None:
    store = GameStore(redis_client, ttl=60)
    store.presence.seen("gone", 0)
    assert not redis_client.exists(game_key("gone"))


def _scripts_run(client: redis.Redis) -> int:
    return int(client.info("commandstats").get("cmdstat_evalsha", {}).get("calls", 0))


@pytest.fixture
def alone() -> Iterator[tuple[FlaskClient, redis.Redis]]:
    """An app on a Redis of its own, and a client of it: no worker nor scheduler runs a
    script there (the session's scheduler refreshes its lock with one whenever it likes), so
    the server's count of scripts run is the app's."""
    with EmbeddedRedis(appendonly=False) as server, configured(server.url) as client:
        admin = redis.Redis.from_url(server.url)
        yield client, admin
        admin.close()


def test_an_action_notes_its_seat_in_its_save(
        alone: tuple[FlaskClient, redis.Redis]) -> None:
    """The seat's presence rides in the save's script: one script, not two."""
    client, redis_client = alone
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    redis_client.hdel(game_key(game_id), "seen:0", "seen:1")
    before = _scripts_run(redis_client)
    assert act(client, game_id, tokens[0], {"type": "play", "card": HAND_0[0]}).status_code == 200
    assert _scripts_run(redis_client) - before == 1
    assert redis_client.hexists(game_key(game_id), "seen:0")


def test_a_refused_action_notes_its_seat_too(client: FlaskClient,
                                             redis_client: redis.Redis) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    redis_client.hdel(game_key(game_id), "seen:0", "seen:1")
    assert act(client, game_id, tokens[1], {"type": "play", "card": HAND_1[0]}).status_code == 409
    assert redis_client.hexists(game_key(game_id), "seen:1")
    assert not redis_client.hexists(game_key(game_id), "seen:0")


def test_listeners_get_the_answered_request(app: Flask, client: FlaskClient) -> None:
    seen: list[Answered] = []
    observability.listen(app, seen.append)
    game_id, tokens = two_humans(client)
    client.get(f"/v1/games/{game_id}", headers=bearer(tokens[1]))
    act(client, game_id, tokens[0], {"type": "continue"})
    client.get("/v1/games/nope")
    created, viewed, refused, missing = seen
    assert (created.method, created.route, created.status, created.game_id) == (
        "POST", "/v1/games", 201, game_id)
    assert (viewed.route, viewed.status, viewed.game_id) == ("/v1/games/<game_id>", 200, game_id)
    assert (refused.route, refused.status) == ("/v1/games/<game_id>/actions", 409)
    assert (missing.status, missing.game_id) == (404, None)
    assert all(a.seconds >= 0 for a in seen)


def test_log_timestamps_are_iso_8601_utc_milliseconds() -> None:
    for created in (0.0, 1_700_000_000.0005, 1_700_000_000.999, 1_767_225_599.5):
        expected = datetime.datetime.fromtimestamp(created, datetime.UTC).isoformat(
            timespec="milliseconds")
        assert timestamp(created) == expected
    assert timestamp(1_700_000_001.25) == "2023-11-14T22:13:21.250+00:00"  # a new second


def test_answers_are_compact_json(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    response = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0]))
    text = response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    assert text == json.dumps(json.loads(text), separators=(",", ":"))


def test_stored_rules_and_settings_are_copies_of_the_cache() -> None:
    rules = Rules.make("sixty-six", {"match_points": 11})
    state, _ = new_game(rules, Settings(point_counter=True), first_dealer=0)
    first = to_dict(state)
    first["opt"]["match_points"] = 3
    first["set"].clear()
    again = to_dict(state)
    assert again["opt"] == {"match_points": 11} and again["set"] == {"point_counter": True}
    loaded = from_json(to_json(state))
    assert loaded.rules == rules and loaded.settings == state.settings
    assert to_json(loaded) == to_json(state)
