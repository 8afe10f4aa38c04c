"""Players and their histories in the archive's database (SQLite and PostgreSQL): a player is
written there at his creation and Redis only caches him; a finished match's results go into
the database with the archived game, listed once, and leave Redis; every read answers as
before, also in the seconds between a match's end and its archive."""

from __future__ import annotations

import random
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from api.app import close_app, create_app
from api.archive.schema import player_results, players
from api.archive.sweep import Archiver
from api.keys import (
    games_key,
    history_key,
    name_key,
    player_key,
    results_key,
    skeleton_key,
    token_key,
)
from api.players.store import CACHE_TTL
from tests.api.helpers import assert_problem, bearer
from tests.api.lobby_helpers import join, new_player, new_table, play_to_end, seat_tokens
from tests.conftest import EmbeddedRedis
from tests.postgres import Postgres


def _count(app: Flask, table: Any) -> int:
    engine = app.extensions["sixtysix"].archiver.archive.engine
    with engine.connect() as conn:
        found: int = conn.execute(select(func.count()).select_from(table)).scalar_one()
        return found


def test_a_player_is_in_the_database_and_redis_only_caches_him(
        db_app: Flask, redis_client: redis.Redis) -> None:
    client = db_app.test_client()
    ann_id, ann = new_player(client, "Ann")
    assert _count(db_app, players) == 1
    assert 0 < redis_client.ttl(player_key(ann_id)) <= CACHE_TTL
    services = db_app.extensions["sixtysix"]
    stored = services.players.load(ann_id)
    assert 0 < redis_client.ttl(token_key(stored.token_sha256)) <= CACHE_TTL
    assert not redis_client.exists(name_key("Ann"), skeleton_key("Ann"))
    profile = client.get(f"/v1/players/{ann_id}").json
    me = client.get("/v1/players/me", headers=bearer(ann)).json
    redis_client.flushdb()  # the cache gone: read from the database, and cached again
    assert client.get("/v1/players/me", headers=bearer(ann)).json == me
    assert redis_client.exists(player_key(ann_id))
    redis_client.delete(player_key(ann_id))
    assert client.get(f"/v1/players/{ann_id}").json == profile
    for taken in ("ANN", "Аnn"):  # case, a Cyrillic capital A
        response = client.post("/v1/players", json={"name": taken})
        assert_problem(response, 409, "name-taken")
    assert_problem(client.get("/v1/players/me", headers=bearer("x" * 43)), 401,
                   "unauthorized")
    assert _count(db_app, players) == 1


def _match(client: FlaskClient, ann: str, bob: str, seed: int) -> str:
    table = new_table(client, ann, match_points=3, seats=[{"kind": "player"}, {"kind": "open"}])
    join(client, bob, table["table_id"])
    game_id, seats = seat_tokens(client, table["table_id"], [ann, bob])
    play_to_end(client, game_id, seats, random.Random(seed))
    return game_id


def _pages(client: FlaskClient, path: str, headers: dict[str, str], **query: Any,
           ) -> list[Any]:
    """A list whole, then page by page (one a page)."""
    out: list[Any] = [client.get(path, query_string=query, headers=headers).json]
    cursor = None
    while True:
        more = {"limit": 1, **({"cursor": cursor} if cursor else {})}
        page: Any = client.get(path, query_string={**query, **more}, headers=headers).json
        out.append(page)
        cursor = page["next_cursor"]
        if cursor is None:
            return out


def _reads(client: FlaskClient, player_ids: list[str], tokens: list[str]) -> list[Any]:
    """The histories (as anyone and as the player), the player's finished games at tables
    (each whole and paged by one) and profiles."""
    out: list[Any] = []
    for player_id, token in zip(player_ids, tokens, strict=True):
        for headers in ({}, bearer(token)):
            out.append(_pages(client, f"/v1/players/{player_id}/games", headers))
        out.append(_pages(client, "/v1/players/me/games", bearer(token), status="finished"))
        out.append(client.get(f"/v1/players/{player_id}").json)
        out.append(client.get("/v1/players/me", headers=bearer(token)).json)
    return out


def test_a_history_reads_the_same_before_and_after_its_archive(
        db_app: Flask, redis_client: redis.Redis) -> None:
    client = db_app.test_client()
    ann_id, ann = new_player(client, "Ann")
    bob_id, bob = new_player(client, "Bob")
    first = _match(client, ann, bob, 3)
    archiver: Archiver = db_app.extensions["sixtysix"].archiver
    assert archiver.drain() == 1
    second = _match(client, ann, bob, 4)  # ended, not yet archived
    before = _reads(client, [ann_id, bob_id], [ann, bob])
    listed = [g["game_id"] for g in before[0][0]["games"]]
    assert listed == [second, first]
    assert [g["game_id"] for g in before[2][0]["games"]] == [second, first]
    played = sum(s["played"] for s in before[3]["stats"].values())
    assert played == 2
    assert redis_client.hlen(results_key(ann_id)) == 1  # the second match only
    assert archiver.drain() == 1
    assert _count(db_app, player_results) == 4
    for player_id in (ann_id, bob_id):  # a finished match leaves nothing of the players
        assert not redis_client.exists(history_key(player_id), results_key(player_id),
                                       games_key(player_id, "finished"))
    assert _reads(client, [ann_id, bob_id], [ann, bob]) == before
    services = db_app.extensions["sixtysix"]
    services.after_save(services.games.load(second))  # recorded again: listed once
    assert _reads(client, [ann_id, bob_id], [ann, bob]) == before
    assert archiver.drain() == 0
    assert not redis_client.exists(history_key(ann_id), games_key(ann_id, "finished"))
    assert _reads(client, [ann_id, bob_id], [ann, bob]) == before
    assert _count(db_app, player_results) == 4


def test_with_the_database_down_a_new_player_is_503_and_a_known_one_plays_on(
        postgres_server: Postgres, postgres_url: str, redis_server: EmbeddedRedis,
        redis_client: redis.Redis) -> None:
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                      "RATELIMIT_ENABLED": False, "DATABASE_URL": postgres_url})
    try:
        client = app.test_client()
        ann_id, ann = new_player(client, "Ann")
        postgres_server.stop()
        try:
            response = client.post("/v1/players", json={"name": "Bob"})
            assert_problem(response, 503, "archive-unavailable")
            assert response.headers["Retry-After"] == "5"
            table = new_table(client, ann, seats=[{"kind": "player"}, {"kind": "open"}])
            assert table["seats"][0]["player_id"] == ann_id  # his token: read from the cache
            response = client.get(f"/v1/players/{ann_id}")  # his counts: in the database
            assert_problem(response, 503, "archive-unavailable")
        finally:
            postgres_server.start()
        new_player(client, "Bob")  # the name was not held by the failed attempt
    finally:
        close_app(app)
