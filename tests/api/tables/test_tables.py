"""Tables: create, list with cursors, join, leave, view, start, rematch, expiry, bad input."""

from __future__ import annotations

import json
import random
import time

import pytest
import redis
from flask.testing import FlaskClient
from redis.crc import key_slot

from api.app import close_app, create_app
from api.games.store import GameStore
from api.keys import events_key, game_key, idem_key, notify_channel, table_key, write_key
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import assert_problem, bearer
from tests.api.lobby_helpers import (
    join,
    new_player,
    new_table,
    play_to_end,
    seat_tokens,
    table,
)

TWO: list[dict[str, str]] = [{"kind": "player"}, {"kind": "open"}]


@pytest.mark.parametrize(("body", "field"), [
    ({"seats": [{"kind": "open"}, {"kind": "open"}]}, "seats"),
    ({"seats": [{"kind": "player"}, {"kind": "player"}]}, "seats"),
    ({"seats": [{"kind": "player"}]}, "seats"),
    ({"seats": [{"kind": "player"}, {"kind": "computer", "level": "genius"}]}, "seats.1.level"),
    # no longer offered (docs/strength.md): not for a new table
    ({"seats": [{"kind": "player"}, {"kind": "computer", "level": "expert"}]}, "seats.1.level"),
    ({"seats": [{"kind": "player"}, {"kind": "open", "level": "easy"}]}, "seats.1.level"),
    ({"seats": TWO, "rules": {"no_such_rule": 1}}, "rules.no_such_rule"),
    ({"seats": TWO, "match_points": 4}, "match_points"),
    ({"seats": TWO, "variant": "chess"}, "variant"),
    ({"seats": TWO, "visibility": "secret"}, "visibility"),
    ({"seats": TWO, "settings": {"think_time_s": 5}}, "settings.think_time_s"),
    ({"seats": TWO, "settings": {"think_time_s": 121}}, "settings.think_time_s"),
    ({"seats": TWO, "settings": {"on_timeout": "wait"}}, "settings.on_timeout"),
    ({"seats": TWO, "settings": {"speed": 3}}, "settings.speed"),
    ({"seats": [{"kind": "human"}, {"kind": "open"}]}, "seats.0.kind"),
    ({}, "seats"),
])
def test_bad_tables_are_422_naming_the_field(client: FlaskClient, body: dict[str, object],
                                             field: str) -> None:
    _, ann = new_player(client, "Ann")
    problem = assert_problem(client.post("/v1/tables", json=body, headers=bearer(ann)), 422,
                             "validation-error")
    assert field in problem["errors"], problem


def test_creating_needs_a_player_token(client: FlaskClient) -> None:
    assert_problem(client.post("/v1/tables", json={"seats": TWO}), 401, "unauthorized")
    assert_problem(client.post("/v1/tables", json={"seats": TWO}, headers=bearer("x" * 43)),
                   401, "unauthorized")


def test_the_lobby_lists_public_open_tables_newest_first_with_a_cursor(
        client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    made = [new_table(client, ann, seats=TWO)["table_id"] for _ in range(3)]
    made.append(new_table(client, ann, variant="schnapsen", seats=TWO)["table_id"])
    new_table(client, ann, seats=TWO, visibility="private")
    seen, cursor = [], None
    while True:
        page = client.get("/v1/tables", query_string={"limit": 2, **(
            {"cursor": cursor} if cursor else {})}).json
        assert page is not None and len(page["tables"]) <= 2
        seen += [t["table_id"] for t in page["tables"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == made[::-1]
    only = client.get("/v1/tables?variant=schnapsen").json["tables"]  # type: ignore[index]
    assert [t["table_id"] for t in only] == [made[3]]
    assert only[0]["seats"][0]["name"] == "Ann" and only[0]["open_seats"] == 1
    assert "invite_code" not in only[0]
    assert_problem(client.get("/v1/tables?status=closed"), 422, "validation-error")


def test_join_start_and_seat_tokens(client: FlaskClient, redis_client: redis.Redis) -> None:
    ann_id, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    _, cid = new_player(client, "Cid")
    made = new_table(client, ann, variant="three-hand", seats=[
        {"kind": "open"}, {"kind": "player"}, {"kind": "open"}])
    table_id = made["table_id"]
    assert made["status"] == "open" and made["you"] == {"seat": 1, "game_id": None,
                                                       "token": None}
    assert_problem(client.post(f"/v1/tables/{table_id}/join", json={"seat": 1},
                               headers=bearer(bob)), 409, "table-conflict")
    assert_problem(client.post(f"/v1/tables/{table_id}/join", json={"seat": 3},
                               headers=bearer(bob)), 422, "validation-error")
    assert_problem(client.post(f"/v1/tables/{table_id}/join", json={},
                               headers=bearer(ann)), 409, "table-conflict")  # seated already
    joined = join(client, bob, table_id, seat=2)
    assert joined["you"]["seat"] == 2 and joined["status"] == "open"
    assert table(client, table_id)["you"] is None
    started = join(client, cid, table_id)
    assert started["status"] == "playing" and started["you"]["seat"] == 0
    game_id = started["game_id"]
    assert game_id == f"{table_id}.1" and started["games"] == [game_id]
    assert started["you"]["token"] and started["expires_at"] is None
    # the table and every key of its game share a slot (a save's keys: one script)
    slot = key_slot(table_key(table_id).encode())
    for key in (game_key(game_id), events_key(game_id), write_key(game_id, "w1"),
                idem_key(game_id, "k"), notify_channel(game_id)):
        assert key_slot(key.encode()) == slot, key
    # each seated player gets his own token; others none
    _, tokens = seat_tokens(client, table_id, [ann, bob, cid])
    assert len(set(tokens.values())) == 3
    for seat, token in tokens.items():
        view = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
        assert view is not None and view["seat"] == seat
    assert table(client, table_id)["you"] is None
    game = GameStore(redis_client, 60).load(game_id)
    assert game.meta["table"]["players"][1] == ann_id
    # full and started: 409 with the reason
    _, dan = new_player(client, "Dan")
    problem = assert_problem(client.post(f"/v1/tables/{table_id}/join", json={},
                                         headers=bearer(dan)), 409, "table-conflict")
    assert "playing" in problem["reason"]
    assert_problem(client.post(f"/v1/tables/{table_id}/leave", headers=bearer(ann)), 409,
                   "table-conflict")
    # no longer listed as open, listed as playing
    assert client.get("/v1/tables").json["tables"] == []  # type: ignore[index]
    playing = client.get("/v1/tables?status=playing").json["tables"]  # type: ignore[index]
    assert [t["table_id"] for t in playing] == [table_id]


def test_computers_open_at_the_start(client: FlaskClient, redis_client: redis.Redis) -> None:
    _, ann = new_player(client, "Ann")
    for _ in range(6):  # the cut for the deal decides who leads: sometimes a computer
        made = new_table(client, ann, seats=[{"kind": "player"},
                                             {"kind": "computer", "level": "easy"}])
        assert made["status"] == "playing"
        game = GameStore(redis_client, 60).load(made["game_id"])
        # the start saves the deal (version 1); a worker plays the computer's lead, which
        # may already be saved (version 2)
        assert game.version in (1, 2)
        view = client.get(f"/v1/games/{made['game_id']}",
                          headers=bearer(made["you"]["token"])).json
        assert view is not None
        if not view["legal_actions"]:  # the computer leads: its move comes from a worker
            assert view["to_act"] == 1
            for _ in range(3):  # a meld and a lead are two saves: wait for both
                if view["legal_actions"]:
                    break
                view = client.get(f"/v1/games/{made['game_id']}?after_version={view['version']}"
                                  "&wait=10", headers=bearer(made["you"]["token"])).json
                assert view is not None and view["version"] > 1
        assert view["legal_actions"]  # Ann is to act


def test_leave_frees_the_seat_and_the_last_one_closes(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    table_id = new_table(client, ann, variant="four-hand", seats=[
        {"kind": "player"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}])["table_id"]
    join(client, bob, table_id, seat=3)
    left = client.post(f"/v1/tables/{table_id}/leave", headers=bearer(bob)).json
    assert left is not None and left["seats"][3] == {"seat": 3, "kind": "open"}
    assert left["you"] is None
    assert_problem(client.post(f"/v1/tables/{table_id}/leave", headers=bearer(bob)), 409,
                   "table-conflict")
    closed = client.post(f"/v1/tables/{table_id}/leave", headers=bearer(ann)).json
    assert closed is not None and closed["status"] == "closed"
    assert client.get("/v1/tables").json["tables"] == []  # type: ignore[index]
    assert_problem(client.post(f"/v1/tables/{table_id}/join", json={}, headers=bearer(bob)),
                   409, "table-conflict")


def test_private_tables_need_the_invite_code(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    made = new_table(client, ann, seats=TWO, visibility="private")
    table_id, code = made["table_id"], made["invite_code"]
    assert len(code) >= 22  # 128 bits
    for headers, query in (({}, {}), (bearer(bob), {}), ({}, {"invite_code": code[::-1]})):
        problem = assert_problem(client.get(f"/v1/tables/{table_id}", headers=headers,
                                            query_string=query), 404, "table-not-found")
        assert code not in str(problem)
    assert_problem(client.post(f"/v1/tables/{table_id}/join", json={"invite_code": "wrong"},
                               headers=bearer(bob)), 404, "table-not-found")
    assert_problem(client.post(f"/v1/tables/{table_id}/join", json={}, headers=bearer(bob)),
                   404, "table-not-found")
    seen = table(client, table_id, invite_code=code)
    assert seen["invite_code"] is None and seen["you"] is None
    by_header = client.get(f"/v1/tables/{table_id}", headers={"X-Invite-Code": code})
    assert by_header.status_code == 200
    started = join(client, bob, table_id, invite_code=code)
    assert started["status"] == "playing" and started["invite_code"] == code


def test_unknown_tables_are_404(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    for table_id in ("nosuchtable1", "short", "x" * 80):
        assert_problem(client.get(f"/v1/tables/{table_id}"), 404, "table-not-found")
        for verb in ("join", "leave", "rematch"):
            assert_problem(client.post(f"/v1/tables/{table_id}/{verb}", json={},
                                       headers=bearer(ann)), 404, "table-not-found")


def test_open_tables_expire(client: FlaskClient, redis_client: redis.Redis) -> None:
    _, ann = new_player(client, "Ann")
    table_id = new_table(client, ann, seats=TWO)["table_id"]
    assert 3500 < redis_client.ttl(table_key(table_id)) <= 3600
    redis_client.pexpire(table_key(table_id), 1)
    while redis_client.exists(table_key(table_id)):
        time.sleep(0.01)
    assert_problem(client.get(f"/v1/tables/{table_id}"), 404, "table-not-found")
    assert client.get("/v1/tables").json["tables"] == []  # type: ignore[index]


def test_the_open_ttl_is_configurable(redis_server: EmbeddedRedis,
                                      redis_client: redis.Redis) -> None:
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                      "RATELIMIT_ENABLED": False, "SIXTYSIX_TABLE_OPEN_TTL": 120})
    client = app.test_client()
    _, ann = new_player(client, "Ann")
    made = new_table(client, ann, seats=TWO)
    assert 100 < redis_client.ttl(table_key(made["table_id"])) <= 120
    _, bob = new_player(client, "Bob")
    join(client, bob, made["table_id"])
    assert redis_client.ttl(table_key(made["table_id"])) > 120  # started: the game's TTL
    close_app(app)


def test_rematch_continues_the_dealer_rotation_and_keeps_the_history(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    ann_id, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    _, eve = new_player(client, "Eve")
    table_id = new_table(client, ann, match_points=3, seats=TWO)["table_id"]
    join(client, bob, table_id)
    assert_problem(client.post(f"/v1/tables/{table_id}/rematch", headers=bearer(ann)), 409,
                   "table-conflict")  # the match is not over
    rng = random.Random(2)
    games = []
    for _ in range(2):
        game_id, tokens = seat_tokens(client, table_id, [ann, bob])
        games.append(game_id)
        play_to_end(client, game_id, tokens, rng)
        done = table(client, table_id, ann)
        assert done["status"] == "finished"
        assert_problem(client.post(f"/v1/tables/{table_id}/rematch", headers=bearer(eve)),
                       409, "table-conflict")
        asked = client.post(f"/v1/tables/{table_id}/rematch", headers=bearer(ann)).json
        assert asked is not None and asked["rematch"] == [0] and asked["status"] == "finished"
        again = client.post(f"/v1/tables/{table_id}/rematch", headers=bearer(ann)).json
        assert again is not None and again["rematch"] == [0]
        last = GameStore(redis_client, 60).load(game_id).state.dealer
        started = client.post(f"/v1/tables/{table_id}/rematch", headers=bearer(bob)).json
        assert started is not None and started["status"] == "playing"
        assert started["games"] == [*games, started["game_id"]]
        first = GameStore(redis_client, 60).load(started["game_id"]).state.dealer
        assert first == (last + 1) % 2
    stats = client.get(f"/v1/players/{ann_id}").json["stats"]  # type: ignore[index]
    assert stats["sixty-six"]["played"] == 2


def test_a_table_opened_with_a_level_no_longer_offered_starts_with_its_successor(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    """A table opened with an ``expert`` seat before ``expert`` was no longer offered starts
    its game with that seat playing as ``strong`` (engine.ai.RETIRED)."""
    _, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    made = new_table(client, ann, variant="three-hand", seats=[
        {"kind": "player"}, {"kind": "computer", "level": "strong"}, {"kind": "open"}])
    key = table_key(made["table_id"])
    doc = json.loads(redis_client.hget(key, "doc") or b"{}")
    doc["seats"][1]["level"] = "expert"  # as it was stored before
    redis_client.hset(key, "doc", json.dumps(doc))
    started = join(client, bob, made["table_id"])
    assert started["status"] == "playing"
    game = GameStore(redis_client, 60).load(started["game_id"])
    assert game.meta["seats"][1]["level"] == "strong"
