"""Players: creation with a token shown once, names, profiles, token kinds, counts once."""

from __future__ import annotations

import random
import threading

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api.games.tokens import digest
from api.keys import player_key
from tests.api.helpers import assert_problem, bearer, two_humans
from tests.api.lobby_helpers import join, new_player, new_table, play_to_end, seat_tokens


def test_a_player_gets_a_token_once_stored_only_as_its_digest(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    response = client.post("/v1/players", json={"name": "Ann"})
    assert response.status_code == 201
    body = response.json
    assert body is not None
    token = body["token"]
    assert len(token) == 43 and body["name"] == "Ann" and body["kind"] == "human"
    assert response.headers["Location"] == f"/v1/players/{body['player_id']}"
    assert response.headers["Cache-Control"] == "no-store"
    stored = {k: redis_client.dump(k) for k in redis_client.keys("*")}
    assert not any(token.encode() in (v or b"") for v in stored.values())
    assert redis_client.hget(player_key(body["player_id"]), "token_sha256") == \
        digest(token).encode()
    assert redis_client.ttl(player_key(body["player_id"])) == -1  # a player never expires
    me = client.get("/v1/players/me", headers=bearer(token))
    assert me.status_code == 200
    assert me.json is not None and "token" not in me.json
    assert me.json["stats"]["sixty-six"] == {"played": 0, "won": 0}
    public = client.get(f"/v1/players/{body['player_id']}").json
    assert public == me.json


@pytest.mark.parametrize("name", ["ann", "ANN", "Ann"])
def test_names_are_unique_without_regard_to_case(client: FlaskClient, name: str) -> None:
    new_player(client, "Ann")
    problem = assert_problem(client.post("/v1/players", json={"name": name}), 409, "name-taken")
    assert "taken" in problem["detail"]


@pytest.mark.parametrize("name", ["An\x00n", "Ann\n", "An\x1bn", "   ", "     ", "ab",
                                  "x" * 21, "Ann!", "<b>Ann</b>", "Ann\u3164", "\u3164\u3164\u3164",
                                  "An\u200bn", "\u202eAnn", "Ann\u2028", "An\u115fn"])
def test_bad_names_are_422(client: FlaskClient, name: str) -> None:
    problem = assert_problem(client.post("/v1/players", json={"name": name}), 422,
                             "validation-error")
    assert "name" in problem["errors"]


def test_good_names(client: FlaskClient) -> None:
    for name in ("Ann-Marie", "Bob_2", "Zoë Müller", "abc", "x" * 20):
        new_player(client, name)


def test_a_name_is_trimmed_of_spaces_and_normalised(client: FlaskClient) -> None:
    created = client.post("/v1/players", json={"name": "\u3000 Zoe\u0308 "}).json
    assert created is not None and created["name"] == "Zoë"


def test_bad_kind_and_missing_name(client: FlaskClient) -> None:
    assert_problem(client.post("/v1/players", json={"name": "Ann", "kind": "robot"}), 422,
                   "validation-error")
    assert_problem(client.post("/v1/players", json={}), 422, "validation-error")


def test_unknown_player_is_404(client: FlaskClient) -> None:
    for player_id in ("nobody123456", "x", "a" * 200):
        assert_problem(client.get(f"/v1/players/{player_id}"), 404, "player-not-found")


def test_player_and_seat_tokens_are_not_interchangeable(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    game_id, game_tokens = two_humans(client)
    # a seat token is no player token
    assert_problem(client.get("/v1/players/me", headers=bearer(game_tokens[0])), 401,
                   "unauthorized")
    assert_problem(client.post("/v1/tables", json={"seats": [{"kind": "player"},
                                                             {"kind": "open"}]},
                               headers=bearer(game_tokens[0])), 401, "unauthorized")
    # a player token is no seat token, not even at his own table's game
    table = new_table(client, ann, seats=[{"kind": "player"}, {"kind": "open"}])
    join(client, bob, table["table_id"])
    table_game, seats = seat_tokens(client, table["table_id"], [ann, bob])
    for game in (game_id, table_game):
        assert_problem(client.get(f"/v1/games/{game}", headers=bearer(ann)), 401,
                       "unauthorized")
        assert_problem(client.post(f"/v1/games/{game}/actions", json={"type": "close"},
                                   headers=bearer(ann)), 401, "unauthorized")
    assert client.get(f"/v1/games/{table_game}", headers=bearer(seats[0])).status_code == 200
    assert_problem(client.get("/v1/players/me", headers=bearer(seats[0])), 401, "unauthorized")
    assert_problem(client.get("/v1/players/me"), 401, "unauthorized")


def test_bots_are_marked(client: FlaskClient) -> None:
    bot_id, bot = new_player(client, "RoboBob", kind="bot")
    assert client.get(f"/v1/players/{bot_id}").json["kind"] == "bot"  # type: ignore[index]
    table = new_table(client, bot, seats=[{"kind": "player"}, {"kind": "open"}])
    assert table["seats"][0]["bot"] is True
    listed = client.get("/v1/tables").json["tables"]  # type: ignore[index]
    assert listed[0]["seats"][0]["bot"] is True


def test_a_match_is_counted_once_however_often_it_is_recorded(
        app: Flask, client: FlaskClient, redis_client: redis.Redis) -> None:
    ann_id, ann = new_player(client, "Ann")
    bob_id, bob = new_player(client, "Bob")
    table = new_table(client, ann, match_points=3, seats=[{"kind": "player"}, {"kind": "open"}])
    join(client, bob, table["table_id"])
    game_id, seats = seat_tokens(client, table["table_id"], [ann, bob])
    final = play_to_end(client, game_id, seats, random.Random(3))
    winner = final["match"]["set_winner"]
    services = app.extensions["sixtysix"]
    game = services.games.load(game_id)
    threads = [threading.Thread(target=services.after_save, args=(game,)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    services.after_save(game)
    for seat, player_id in ((0, ann_id), (1, bob_id)):
        stats = client.get(f"/v1/players/{player_id}").json["stats"]  # type: ignore[index]
        assert stats["sixty-six"] == {"played": 1, "won": int(seat == winner)}
        assert sum(s["played"] for s in stats.values()) == 1
