"""A player's own account over SQLite and PostgreSQL: his export holds everything kept about
him, and his deletion leaves nothing that names him, in Redis or the database, while his
finished games stay for the others, his seats anonymous."""

from __future__ import annotations

import bz2
from typing import Any

import redis
from flask import Flask
from sqlalchemy import select

from api.archive.schema import finished_games, player_results, players
from api.archive.sweep import Archiver
from api.players.accounts import ANONYMOUS
from tests.api.archive.test_players_db import _match
from tests.api.helpers import assert_problem, bearer
from tests.api.lobby_helpers import join, new_player, new_table, seat_tokens

NAME = "Zelda Quux"


def _redis_mentions(client: redis.Redis, *needles: str) -> list[str]:
    """The keys whose name or value holds one of ``needles``."""
    found = []
    for key in client.scan_iter(count=1000):
        kind = client.type(key).decode()
        value: Any = (client.get(key) if kind == "string" else client.hgetall(key)
                      if kind == "hash" else client.zrange(key, 0, -1) if kind == "zset"
                      else client.lrange(key, 0, -1) if kind == "list"
                      else client.smembers(key))
        blob = key.decode() + repr(value)
        if any(n in blob for n in needles):
            found.append(key.decode())
    return found


def test_export_then_delete_leaves_nothing_of_the_player(
        db_app: Flask, redis_client: redis.Redis) -> None:
    client = db_app.test_client()
    zelda_id, zelda = new_player(client, NAME)
    bob_id, bob = new_player(client, "Bob")
    archiver: Archiver = db_app.extensions["sixtysix"].archiver
    first = _match(client, zelda, bob, 3)
    assert archiver.drain() == 1
    second = _match(client, zelda, bob, 4)  # not yet archived
    response = client.get(f"/v1/players/{zelda_id}/export", headers=bearer(zelda))
    assert response.status_code == 200, response.json
    exported: Any = response.json
    assert [g["game_id"] for g in exported["history"]] == [second, first]
    assert exported["games"] == {"active": [], "finished": [second, first]}
    assert exported["profile"]["name"] == NAME
    assert sum(s["played"] for s in exported["profile"]["stats"].values()) == 2
    assert zelda not in response.get_data(as_text=True)
    assert "token_sha256" not in response.get_data(as_text=True)
    assert_problem(client.get(f"/v1/players/{zelda_id}/export", headers=bearer(bob)), 403,
                   "not-your-player")
    assert_problem(client.delete(f"/v1/players/{zelda_id}", headers=bearer(bob)), 403,
                   "not-your-player")
    assert_problem(client.delete(f"/v1/players/{zelda_id}"), 401, "unauthorized")
    bob_stats = client.get(f"/v1/players/{bob_id}").json["stats"]  # type: ignore[index]

    assert client.delete(f"/v1/players/{zelda_id}", headers=bearer(zelda)).status_code == 204

    assert_problem(client.get(f"/v1/players/{zelda_id}"), 404, "player-not-found")
    assert_problem(client.get("/v1/players/me", headers=bearer(zelda)), 401, "unauthorized")
    assert client.get(f"/v1/players/{bob_id}").json["stats"] == bob_stats  # type: ignore
    history: Any = client.get(f"/v1/players/{bob_id}/games").json
    assert [g["game_id"] for g in history["games"]] == [second, first]
    for game in history["games"]:
        zelda_seat = game["seats"][1 - game["seat"]]
        assert (zelda_seat["name"], zelda_seat["player_id"]) == (ANONYMOUS, None)
    for game_id in (first, second):
        record = client.get(f"/v1/games/{game_id}/record")
        assert record.status_code == 200, record.json
        assert ANONYMOUS in record.get_data(as_text=True)
        assert NAME not in record.get_data(as_text=True)
    assert _redis_mentions(redis_client, zelda_id, NAME) == []
    with archiver.archive.engine.connect() as conn:
        assert conn.execute(select(players).where(players.c.player_id == zelda_id)).first() \
            is None
        assert conn.execute(select(player_results).where(
            player_results.c.player_id == zelda_id)).first() is None
        rows = conn.execute(select(finished_games.c.seats, finished_games.c.body)).all()
        assert len(rows) == 2
        for seats, body in rows:
            text = repr(seats) + bz2.decompress(body).decode()
            assert zelda_id not in text and NAME not in text
        left = repr(conn.execute(select(player_results.c.entry)).all())
        assert zelda_id not in left and NAME not in left
    new_player(client, NAME)  # the name is free again


def test_a_player_at_a_game_in_play_is_not_deleted(db_app: Flask) -> None:
    client = db_app.test_client()
    ann_id, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    table = new_table(client, ann, seats=[{"kind": "player"}, {"kind": "open"}])
    join(client, bob, table["table_id"])
    game_id, _ = seat_tokens(client, table["table_id"], [ann, bob])
    busy = assert_problem(client.delete(f"/v1/players/{ann_id}", headers=bearer(ann)), 409,
                          "player-busy")
    assert busy["game_id"] == game_id
    assert client.get(f"/v1/players/{ann_id}").status_code == 200
