"""``sixtysix admin migrate`` over SQLite and PostgreSQL: the Redis-only layout (written by
a server without a database, as before the database held players and histories) moves into
the database once; every read answers as before; a second run moves nothing."""

from __future__ import annotations

from typing import Any

import redis
from flask.testing import FlaskClient

from api.admin.migrate import run
from api.app import close_app, create_app
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
    assert run(env, said.append) == {"players": 2, "finished games": 1, "histories": 2}
    assert said == ["migrate: players: 2 moved", "migrate: finished games: 1 moved",
                    "migrate: histories: 2 moved"]
    for player_id in (ann_id, bob_id):
        assert not redis_client.exists(history_key(player_id), results_key(player_id))
        assert 0 < redis_client.ttl(player_key(player_id)) <= CACHE_TTL
        assert not any(k.startswith((b"played:", b"won:"))
                       for k in redis_client.hkeys(player_key(player_id)))
    assert not redis_client.exists(name_key("Ann"), skeleton_key("Bob"), INDEXED_KEY)
    assert run(env, said.append) == {"players": 0, "finished games": 0, "histories": 0}
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
