"""A finished table Redis lets go after its archived game's grace, read back from the
database (SQLite and PostgreSQL) as before, and played on by a rematch."""

from __future__ import annotations

import random
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from api.archive.schema import table_results
from api.archive.sweep import Archiver
from api.keys import table_key
from tests.api.helpers import bearer
from tests.api.lobby_helpers import join, new_player, new_table, play_to_end, seat_tokens, table

GRACE = 3600  # SIXTYSIX_ARCHIVE_GRACE's default, the db_app's


def _views(client: FlaskClient, table_id: str, tokens: list[str], invite: str) -> list[Any]:
    """The table as each seated player, an outsider with the invite code, and one without
    (a 404) see it."""
    out: list[Any] = [table(client, table_id, t) for t in tokens]
    out.append(table(client, table_id, invite_code=invite))
    missing = client.get(f"/v1/tables/{table_id}")
    out.append((missing.status_code, missing.json["type"]))  # type: ignore[index]
    return out


def test_a_finished_table_reads_the_same_once_redis_let_it_go(
        db_app: Flask, redis_client: redis.Redis) -> None:
    client = db_app.test_client()
    archiver: Archiver = db_app.extensions["sixtysix"].archiver
    players = [new_player(client, name)[1] for name in ("Ann", "Bob")]
    created = new_table(client, players[0], visibility="private",
                        seats=[{"kind": "player"}, {"kind": "open"}])
    table_id, invite = created["table_id"], created["invite_code"]
    join(client, players[1], table_id, invite_code=invite)
    game_id, tokens = seat_tokens(client, table_id, players)
    play_to_end(client, game_id, tokens, random.Random(5))
    before = _views(client, table_id, players, invite)
    assert before[0]["status"] == "finished" and before[0]["invite_code"] == invite
    archiver.store_standings()
    assert archiver.drain() == 1
    assert 0 < redis_client.ttl(table_key(table_id)) <= GRACE  # no longer the game's 7 days

    _let_go_reads_the_same(db_app, redis_client, table_id, before)
    assert _views(client, table_id, players, invite) == before

    rematch = [client.post(f"/v1/tables/{table_id}/rematch", headers=bearer(t))
               for t in players]
    assert [r.status_code for r in rematch] == [200, 200], rematch[-1].json
    assert rematch[0].json["rematch"] == [0]  # type: ignore[index]
    assert rematch[1].json["status"] == "playing"  # type: ignore[index]
    assert rematch[1].json["games"] == [game_id, f"{table_id}.2"]  # type: ignore[index]
    assert redis_client.ttl(table_key(table_id)) > GRACE

    second, tokens = seat_tokens(client, table_id, players)
    play_to_end(client, second, tokens, random.Random(8))
    ended = _views(client, table_id, players, invite)
    archiver.store_standings()
    assert archiver.drain() == 1
    assert 0 < redis_client.ttl(table_key(table_id)) <= GRACE
    _let_go_reads_the_same(db_app, redis_client, table_id, ended)
    assert _views(client, table_id, players, invite) == ended


def _let_go_reads_the_same(app: Flask, redis_client: redis.Redis, table_id: str,
                           views: list[Any]) -> None:
    """Remove the table from Redis (its grace passed): the store reads it back from the
    database, every field and its version as they were."""
    tables = app.extensions["sixtysix"].tables
    held = tables.live(table_id)
    redis_client.delete(table_key(table_id))
    read = tables.load(table_id)
    assert read.restored and (read.version, read.doc) == (held.version, held.doc)
    assert views[0]["games"] == held.doc.games


def test_a_rematch_asked_after_the_archive_is_kept_before_redis_lets_go(
        db_app: Flask, redis_client: redis.Redis) -> None:
    client = db_app.test_client()
    archiver: Archiver = db_app.extensions["sixtysix"].archiver
    players = [new_player(client, name)[1] for name in ("Cid", "Dee")]
    table_id = new_table(client, players[0], seats=[{"kind": "player"},
                                                   {"kind": "open"}])["table_id"]
    join(client, players[1], table_id)
    game_id, tokens = seat_tokens(client, table_id, players)
    play_to_end(client, game_id, tokens, random.Random(6))
    table(client, table_id)
    archiver.store_standings()
    archiver.drain()
    asked = client.post(f"/v1/tables/{table_id}/rematch", headers=bearer(players[0]))
    assert asked.status_code == 200, asked.json
    assert redis_client.ttl(table_key(table_id)) > GRACE  # changed: kept again first
    assert archiver.drain() == 0  # the game was written before; the table's doc now
    assert 0 < redis_client.ttl(table_key(table_id)) <= GRACE
    before = table(client, table_id, players[0])
    redis_client.delete(table_key(table_id))
    assert table(client, table_id, players[0]) == before
    assert before["rematch"] == [0]


def test_a_deleted_player_leaves_no_name_in_a_finished_table_redis_let_go(
        db_app: Flask, redis_client: redis.Redis) -> None:
    client = db_app.test_client()
    archiver: Archiver = db_app.extensions["sixtysix"].archiver
    (ann_id, ann), (zed_id, zed) = new_player(client, "Ann"), new_player(client, "Zelda Zed")
    table_id = new_table(client, ann, seats=[{"kind": "player"}, {"kind": "open"}])["table_id"]
    join(client, zed, table_id)
    game_id, tokens = seat_tokens(client, table_id, [ann, zed])
    play_to_end(client, game_id, tokens, random.Random(9))
    table(client, table_id)
    archiver.store_standings()
    archiver.drain()
    redis_client.delete(table_key(table_id))  # its grace passed: the database's doc answers

    assert client.delete(f"/v1/players/{zed_id}", headers=bearer(zed)).status_code == 204
    archiver.drain()
    redis_client.delete(table_key(table_id))
    seats = table(client, table_id, ann)["seats"]
    assert [(s["player_id"], s["name"]) for s in seats] == [(ann_id, "Ann"), (None, "Anonymous")]
    engine = archiver.archive.engine
    with engine.connect() as conn:
        doc = conn.execute(select(table_results.c.doc)).scalar_one()
    assert "Zelda" not in repr(doc) and zed_id not in repr(doc)
