"""``sixtysix admin migrate`` over SQLite and PostgreSQL: the Redis-only layout (written by
a server without a database, as before the database held players and histories) moves into
the database once; every read answers as before; a second run moves nothing."""

from __future__ import annotations

from typing import Any

import redis
from flask.testing import FlaskClient
from sqlalchemy import select

from api.admin.migrate import migrate_env
from api.app import close_app, create_app
from api.archive.schema import players
from api.keys import (
    INDEXED_KEY,
    events_key,
    game_key,
    history_key,
    name_key,
    player_key,
    results_key,
    skeleton_key,
)
from api.players.store import CACHE_TTL
from tests.api.archive.test_players_db import _match, _reads
from tests.api.lobby_helpers import new_player
from tests.conftest import EmbeddedRedis


def _records(client: FlaskClient, game_ids: list[str]) -> list[Any]:
    return [client.get(f"/v1/games/{g}/record").json for g in game_ids]


def test_migrate_moves_the_redis_layout_once(
        database_url: str, redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    config = {"TESTING": True, "REDIS_URL": redis_server.url, "RATELIMIT_ENABLED": False}
    old = create_app(config)  # no database: the Redis-only layout
    try:
        client = old.test_client()
        ann_id, ann = new_player(client, "Ann")
        bob_id, bob = new_player(client, "Bob")
        gone = _match(client, ann, bob, 3)
        kept = _match(client, ann, bob, 4)
        redis_client.delete(game_key(gone), events_key(gone))  # Redis let it go: history only
        before = _reads(client, [ann_id, bob_id], [ann, bob])
        record = _records(client, [kept])
    finally:
        close_app(old)
    assert [g["game_id"] for g in before[0][0]["games"]] == [kept, gone]
    assert redis_client.exists(name_key("Ann"), skeleton_key("Bob"), INDEXED_KEY) == 3
    assert redis_client.ttl(player_key(ann_id)) == -1
    env = {"REDIS_URL": redis_server.url, "DATABASE_URL": database_url}
    said: list[str] = []
    moved = migrate_env(env, said.append)
    standings = moved.pop("standings")
    assert moved == {"players": 2, "finished games": 1, "histories": 2}
    assert standings > 0  # the two matches' ratings, markers and boards
    assert said == ["migrate: players: 2 moved", "migrate: finished games: 1 moved",
                    "migrate: histories: 2 moved", f"migrate: standings: {standings} moved"]
    for player_id in (ann_id, bob_id):
        assert not redis_client.exists(history_key(player_id), results_key(player_id))
        assert 0 < redis_client.ttl(player_key(player_id)) <= CACHE_TTL
        assert not any(k.startswith((b"played:", b"won:"))
                       for k in redis_client.hkeys(player_key(player_id)))
    assert not redis_client.exists(name_key("Ann"), skeleton_key("Bob"), INDEXED_KEY)
    assert migrate_env(env, said.append) == {"players": 0, "finished games": 0, "histories": 0,
                                             "standings": 0}
    new = create_app({**config, "DATABASE_URL": database_url})
    try:
        client = new.test_client()
        assert _reads(client, [ann_id, bob_id], [ann, bob]) == before
        redis_client.delete(game_key(kept), events_key(kept), player_key(ann_id))
        assert _records(client, [kept]) == record  # from the archive
        assert _reads(client, [ann_id, bob_id], [ann, bob]) == before
        response = client.post("/v1/players", json={"name": "ann"})
        assert response.status_code == 409, response.json
    finally:
        close_app(new)


def test_look_alikes_stored_before_the_skeleton_index_both_move(
        database_url: str, redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    config = {"TESTING": True, "REDIS_URL": redis_server.url, "RATELIMIT_ENABLED": False}
    old = create_app(config)
    try:
        client = old.test_client()
        bob_id, _ = new_player(client, "Bob")
        twin = old.extensions["sixtysix"].players.load(bob_id)
    finally:
        close_app(old)
    twin_id, twin_name = "Tw1nTw1nTw1n", "\u0412ob"  # a Cyrillic capital: Bob's look-alike
    redis_client.hset(player_key(twin_id), mapping={  # as a player stored before the index
        "name": twin_name, "kind": "human", "created_at": twin.created_at,
        "token_sha256": "0" * 64})
    redis_client.set(name_key(twin_name), twin_id)
    env = {"REDIS_URL": redis_server.url, "DATABASE_URL": database_url}
    assert migrate_env(env, lambda _: None)["players"] == 2
    new = create_app({**config, "DATABASE_URL": database_url})
    try:
        client = new.test_client()
        redis_client.flushdb()  # every read from the database
        for player_id, name in ((bob_id, "Bob"), (twin_id, twin_name)):
            profile: Any = client.get(f"/v1/players/{player_id}").json
            assert profile["name"] == name
        with new.extensions["sixtysix"].archiver.archive.engine.connect() as conn:
            keys = dict(conn.execute(select(players.c.player_id, players.c.skeleton_key)).all())
        assert sorted(keys[i] is None for i in (bob_id, twin_id)) == [False, True]  # one
        response = client.post("/v1/players", json={"name": "B\u043eb"})  # another look-alike
        assert response.status_code == 409, response.json
    finally:
        close_app(new)
