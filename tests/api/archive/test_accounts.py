"""A player's own account over SQLite and PostgreSQL: his export holds everything kept about
him, and his deletion leaves nothing that names him, in Redis or the database, while his
finished games stay for the others, his seats anonymous."""

from __future__ import annotations

import bz2
import json
import threading
import time
from typing import Any

import redis
from flask import Flask
from sqlalchemy import Connection, Engine, delete, select

from api.accounts.service import ANONYMOUS
from api.archive.durable import drain_now, write_ratings
from api.archive.schema import (
    finished_games,
    forgotten_players,
    leaderboard_awards,
    leaderboard_hands,
    leaderboard_points,
    player_results,
    players,
    rated_matches,
    ratings,
    table_results,
    tour_stamps,
)
from api.archive.sweep import Archiver
from api.cli import main
from api.outbox import BOXES, push
from api.ratings.model import Rating
from api.ratings.store import rating_entry
from api.runtime.redis_server import EmbeddedRedis
from api.tour.store import TourStore
from tests.api.archive.test_players_db import _match
from tests.api.helpers import assert_problem, bearer
from tests.api.lobby_helpers import join, new_player, new_table, seat_tokens
from tests.api.rank_helpers import me

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


def _standings(conn: Connection, *needles: str) -> list[str]:
    """The rows of the standings' tables that hold one of ``needles``."""
    return [f"{table.name}: {row}" for table in (ratings, leaderboard_points,
                                                 leaderboard_hands, tour_stamps, table_results)
            for row in conn.execute(select(table)).all()
            if any(n in repr(tuple(row)) for n in needles)]


def _late(redis_client: redis.Redis, engine: Engine, noted: list[tuple[int, bytes]]) -> None:
    """The outboxes' entries ``noted`` before the deletion drained only after it, as if
    their matches' markers and tables' results were not in the database yet."""
    games = {e["game"] if "game" in e else e["game_id"] for _, raw in noted
             for e in [json.loads(raw)] if "game" in e or "game_id" in e}
    with engine.begin() as conn:
        conn.execute(delete(rated_matches))
        conn.execute(delete(leaderboard_awards))
        conn.execute(delete(table_results).where(table_results.c.game_id.in_(games)))
    for box, raw in noted:
        push(redis_client, BOXES[box], raw.decode())
    drain_now(redis_client, engine)


def test_export_then_delete_leaves_nothing_of_the_player(
        db_app: Flask, redis_client: redis.Redis, redis_server: EmbeddedRedis,
        database_url: str) -> None:
    client = db_app.test_client()
    zelda_id, zelda = new_player(client, NAME)
    bob_id, bob = new_player(client, "Bob")
    archiver: Archiver = db_app.extensions["sixtysix"].archiver
    tours: TourStore = db_app.extensions["sixtysix"].tour
    engine = archiver.archive.engine
    first = _match(client, zelda, bob, 3)
    assert archiver.drain() == 1
    second = _match(client, zelda, bob, 4)  # not yet archived
    assert tours.stamp(zelda_id, "vienna")
    noted = [(i, raw) for i, box in enumerate(BOXES)
             for raw in redis_client.lrange(box.key, 0, -1) if zelda_id.encode() in raw]
    assert {i for i, _ in noted} == {0, 1, 2}  # ratings, leaderboard, tour and tables
    response = client.get(f"/v1/players/{zelda_id}/export", headers=bearer(zelda))
    assert response.status_code == 200, response.json
    exported: Any = response.json
    assert [g["game_id"] for g in exported["history"]] == [second, first]
    assert exported["games"] == {"active": [], "finished": [second, first]}
    assert exported["profile"]["name"] == NAME
    assert sum(s["played"] for s in exported["profile"]["stats"].values()) == 2
    assert zelda not in response.get_data(as_text=True)
    assert "token_sha256" not in response.get_data(as_text=True)
    kept = exported["stored"]  # the outboxes drained first
    assert [(r["variant"], r["kind"], r["matches"]) for r in kept["ratings"]] == [
        ("sixty-six", "human", 2)]
    assert {(r["period"] == "all", r["variant"]) for r in kept["leaderboard_points"]} == {
        (True, "all"), (True, "sixty-six"), (False, "all"), (False, "sixty-six")}
    assert {r["variant"]: r["hands_won"] for r in kept["leaderboard_hands"]} == {
        v: n for v, n in exported["profile"]["hands_won"].items() if n}
    assert [r["station"] for r in kept["tour_stamps"]] == ["vienna"]
    assert exported["tour_stamped_at"]["vienna"] == kept["tour_stamps"][0]["stamped_at"]
    assert sorted(r["game_id"] for r in kept["table_results"]) == sorted([first, second])
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
    with engine.connect() as conn:
        assert _standings(conn, zelda_id) == []
        assert _standings(conn, bob_id)  # Bob's stay
        assert conn.execute(select(forgotten_players)).all()[0].id_sha256 != zelda_id
        results = conn.execute(select(table_results.c.players)).scalars().all()
        assert sorted(p is None for r in results for p in r) == [False, False, True, True]
    _late(redis_client, engine, noted)  # nor do his changes noted before, drained after
    with engine.connect() as conn:
        assert _standings(conn, zelda_id) == []
        assert len(conn.execute(select(table_results)).all()) == 2
    assert main(["admin", "rebuild", "--redis-url", redis_server.url,
                 "--database-url", database_url]) == 0
    assert _redis_mentions(redis_client, zelda_id, NAME) == []
    assert client.get(f"/v1/players/{bob_id}").json["stats"] == bob_stats  # type: ignore
    assert me(client, bob)["ratings"]["sixty-six"]["matches"] == 2  # his, back from the DB
    with engine.connect() as conn:
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


def test_a_drain_under_way_at_the_deletion_leaves_nothing_of_him(db_app: Flask) -> None:
    client = db_app.test_client()
    zelda_id, zelda = new_player(client, NAME)
    archiver: Archiver = db_app.extensions["sixtysix"].archiver
    engine = archiver.archive.engine
    entry = json.loads(rating_entry("rate", "sixty-six", [("g.1", "match:1")],
                                    [(("human", zelda_id), Rating(27.0, 7.0, 1))]))
    answers: list[int] = []
    with engine.connect() as drain:
        with drain.begin():  # a drain that asked who is forgotten before the deletion
            write_ratings(drain, [entry])
            deleting = threading.Thread(target=lambda: answers.append(client.delete(
                f"/v1/players/{zelda_id}", headers=bearer(zelda)).status_code))
            deleting.start()
            time.sleep(0.5)
            assert deleting.is_alive()  # waits for the drain's transaction
        deleting.join(10)
    assert answers == [204]
    with engine.connect() as conn:
        assert _standings(conn, zelda_id) == []
        assert conn.execute(select(rated_matches)).all()  # the match's marker stays
