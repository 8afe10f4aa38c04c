"""Seat tokens of table games: minted on the player's first fetch, stored only as a digest and
a copy sealed under his player token, the same token on every later fetch and device."""

from __future__ import annotations

import random
import threading

import redis
from flask import Flask
from flask.testing import FlaskClient

from api.games.store import GameStore
from api.games.tokens import digest, seal, sealing_key, unseal
from api.keys import game_key, table_key
from tests.api.helpers import bearer
from tests.api.lobby_helpers import (
    join,
    new_player,
    new_table,
    play_to_end,
    stored_values,
    table,
)

TWO: list[dict[str, str]] = [{"kind": "player"}, {"kind": "open"}]


def _store(redis_client: redis.Redis) -> GameStore:
    return GameStore(redis_client, 3600)


def _started(client: FlaskClient, **body: object) -> tuple[str, str, str, dict[str, object]]:
    """A two-seat table started by Bob's join: Ann's and Bob's player tokens, the join."""
    _, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    made = new_table(client, ann, seats=TWO, match_points=3, **body)
    joined = join(client, bob, made["table_id"], **(
        {"invite_code": made["invite_code"]} if made["invite_code"] else {}))
    return ann, bob, made["table_id"], joined


def test_a_seat_has_no_token_until_its_player_fetches_it(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    ann, bob, table_id, joined = _started(client)
    game_id = joined["game_id"]
    assert isinstance(game_id, str)
    seats = _store(redis_client).load(game_id).meta["seats"]
    # Bob's join answer minted Bob's (seat 1); Ann has not asked yet, so seat 0 has none.
    assert seats[0]["token_sha256"] is None
    assert seats[1]["token_sha256"] == digest(joined["you"]["token"])  # type: ignore[index]
    assert redis_client.hget(game_key(game_id), "seat_token:0") is None
    first = table(client, table_id, ann)["you"]["token"]
    assert first and client.get(f"/v1/games/{game_id}", headers=bearer(first)).json["seat"] == 0
    # later fetches, e.g. from another device with the same player token: the same token
    assert table(client, table_id, ann)["you"]["token"] == first
    assert table(client, table_id, bob)["you"]["token"] == joined["you"]["token"]  # type: ignore[index]
    assert _store(redis_client).load(game_id).meta["seats"][0]["token_sha256"] == digest(first)


def test_no_redis_value_holds_a_seat_token_readable(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    ann, bob, table_id, joined = _started(client, visibility="private")
    game_id = joined["game_id"]
    tokens = [table(client, table_id, t)["you"]["token"] for t in (ann, bob)]
    assert all(tokens)
    values = stored_values(redis_client)
    assert table_key(table_id) in values and game_key(str(game_id)) in values
    for key, value in values.items():
        for secret in (*tokens, ann, bob):
            assert secret not in value, key
    # the sealed copy opens with a key from the raw player token, not from its digest
    sealed = redis_client.hget(game_key(str(game_id)), "seat_token:0")
    assert sealed is not None
    sha256, _, copy = sealed.decode().partition(":")
    context = f"seat-token:{game_id}:0"
    assert sha256 == digest(tokens[0]) and unseal(copy, sealing_key(ann), context) == tokens[0]
    assert seal(tokens[0], sealing_key(digest(ann)), context) != copy


def test_racing_first_fetches_get_one_token(app: Flask, client: FlaskClient,
                                            redis_client: redis.Redis) -> None:
    ann, _, table_id, joined = _started(client)
    threads = 8
    barrier = threading.Barrier(threads)
    seen: list[str] = []

    def fetch() -> None:
        own = app.test_client()
        barrier.wait()
        seen.append(own.get(f"/v1/tables/{table_id}", headers=bearer(ann)).json["you"]["token"])

    workers = [threading.Thread(target=fetch) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(seen) == threads and len(set(seen)) == 1 and seen[0]
    meta = _store(redis_client).load(str(joined["game_id"])).meta
    assert meta["seats"][0]["token_sha256"] == digest(seen[0])


def test_the_store_keeps_the_first_claim_of_a_seat(redis_client: redis.Redis,
                                                   client: FlaskClient) -> None:
    _, _, _, joined = _started(client)
    store = _store(redis_client)
    game_id = str(joined["game_id"])
    assert store.claim_seat_token(game_id, 0, "a" * 64, "0f") == ("a" * 64, "0f")
    assert store.claim_seat_token(game_id, 0, "b" * 64, "1e") == ("a" * 64, "0f")
    assert store.claim_seat_token("nosuchgame", 0, "b" * 64, "1e") is None
    assert not redis_client.exists(game_key("nosuchgame"))


def test_a_meta_write_keeps_minted_tokens(client: FlaskClient,
                                          redis_client: redis.Redis) -> None:
    """A hint rewrites the game's meta; a token minted before or after it keeps working."""
    ann, _, table_id, joined = _started(client, settings={
        "point_counter": False, "hint_66": True, "auto_continue": False})
    game_id = joined["game_id"]
    bob_token = joined["you"]["token"]  # type: ignore[index]
    bob_moves = client.get(f"/v1/games/{game_id}", headers=bearer(bob_token)).json[
        "legal_actions"]
    mover = bob_token if bob_moves else table(client, table_id, ann)["you"]["token"]
    hinted = client.post(f"/v1/games/{game_id}/hint", headers=bearer(mover))
    assert hinted.status_code == 200, hinted.json
    ann_token = table(client, table_id, ann)["you"]["token"]
    for token, seat in ((ann_token, 0), (bob_token, 1)):
        assert client.get(f"/v1/games/{game_id}", headers=bearer(token)).json["seat"] == seat
    assert _store(redis_client).load(str(game_id)).meta["hinted_hands"]


def test_a_rematch_mints_new_tokens_and_the_old_ones_stay(client: FlaskClient) -> None:
    ann, bob, table_id, joined = _started(client)
    first_game = joined["game_id"]
    old = {0: table(client, table_id, ann)["you"]["token"],
           1: joined["you"]["token"]}  # type: ignore[index]
    play_to_end(client, str(first_game), old, random.Random(3))
    for token in (ann, bob):
        client.post(f"/v1/tables/{table_id}/rematch", headers=bearer(token))
    again = table(client, table_id, ann)
    assert again["status"] == "playing" and again["game_id"] != first_game
    new = again["you"]["token"]
    assert new and new != old[0]
    assert client.get(f"/v1/games/{again['game_id']}", headers=bearer(new)).json["seat"] == 0
    assert client.get(f"/v1/games/{again['game_id']}", headers=bearer(old[0])).status_code == 401
    assert client.get(f"/v1/games/{first_game}", headers=bearer(old[0])).json["seat"] == 0
