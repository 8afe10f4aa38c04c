"""POST /v1/games and GET /v1/games/{id}: creation, validation, views, ETags, long-poll."""

from __future__ import annotations

import threading
import uuid

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api.games import rated
from engine.ai import LEVELS
from engine.ai.catalogue import THINK_BUDGETS
from tests.api.helpers import (
    CREATE_KEY,
    DECK,
    HAND_0,
    HAND_1,
    act,
    assert_problem,
    bearer,
    create,
    two_humans,
    view,
)


def test_create_default_game_has_one_human_and_a_random_computer(client: FlaskClient) -> None:
    response = client.post("/v1/games", json={})
    assert response.status_code == 201
    body = response.json
    assert body is not None
    assert body["variant"] == "sixty-six"
    assert (body["rated"], body["unrated_reason"]) == (False, rated.ANONYMOUS)  # no player
    # the answer comes after the computer's opening moves when it leads (each action a save
    # of its own: a meld, an exchange, then its card)
    after = client.get(f"/v1/games/{body['game_id']}",
                       headers={"Authorization": f"Bearer {body['seats'][0]['token']}"}).json
    assert after is not None and after["legal_actions"]
    assert body["version"] == after["version"]
    assert (after["version"] == 1) == (after["trick"] == [])
    human, computer = body["seats"]
    assert human == {"seat": 0, "kind": "human", "name": "Player 1", "level": None,
                     "token": human["token"]}
    assert len(human["token"]) >= 43
    assert computer["kind"] == "computer" and computer["level"] == "random"
    assert computer["token"] is None
    assert response.headers["Location"] == f"/v1/games/{body['game_id']}"
    assert response.headers["ETag"] == f'"{body["version"]}"'


def test_explicit_deck_deals_it_and_makes_the_game_unrated(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    seat0, seat1 = view(client, game_id, tokens[0]), view(client, game_id, tokens[1])
    assert sorted(seat0["hand"]) == sorted(HAND_0)
    assert sorted(seat1["hand"]) == sorted(HAND_1)
    assert seat0["trump_card"] == "AH" and seat0["trump_suit"] == "H"
    assert seat0["rated"] is False and seat0["dealer"] == 1 and seat0["to_act"] == 0
    assert seat0["seat"] == 0 and seat1["seat"] == 1


def test_a_computer_on_lead_plays_before_the_creation_answers(client: FlaskClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "computer", "level": "random"}],
                     first_dealer=0)
    seat0 = view(client, created["game_id"], created["seats"][0]["token"])
    assert seat0["to_act"] == 0
    assert [t["seat"] for t in seat0["trick"]] == [1]
    assert "card_played" in [e["type"] for e in seat0["events"]]


def test_views_show_seats_without_tokens_and_the_spectator_sees_no_hand(
        client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, settings={"point_counter": True, "hint_66": True})
    seat = view(client, game_id, tokens[0])
    assert seat["seats"] == [  # seat 1 has not been seen yet; seat 0 asks now
        {"seat": 0, "kind": "human", "name": "Ann", "level": None, "connected": True},
        {"seat": 1, "kind": "human", "name": "Bob", "level": None, "connected": False},
    ]
    assert seat["settings"] == {"point_counter": True, "hint_66": True, "auto_continue": False}
    assert "points" in seat and "can_declare_66" in seat
    assert {"game_id", "version", "variant", "rules", "status", "dealer", "to_act", "hand",
            "trump_suit", "trump_card", "talon_size", "closed_by", "trick", "last_trick",
            "known_cards", "legal_actions", "match", "settlement", "events"} <= set(seat)
    spectator = view(client, game_id)
    assert spectator["seat"] is None and spectator["hand"] is None
    assert spectator["legal_actions"] == []
    assert all("cards" not in e for e in spectator["events"])


def test_etag_and_if_none_match(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    first = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0]))
    assert first.headers["ETag"] == '"1"'
    again = client.get(f"/v1/games/{game_id}",
                       headers={**bearer(tokens[0]), "If-None-Match": '"1"'})
    assert again.status_code == 304 and again.headers["ETag"] == '"1"'
    assert not again.get_data()
    stale = client.get(f"/v1/games/{game_id}", headers={"If-None-Match": '"0"'})
    assert stale.status_code == 200


@pytest.mark.parametrize(("given", "status"), [
    ('"1"', 304), ('W/"1"', 304), ("*", 304), ('"0", W/"1"', 304), (' "1" ', 304),
    ('"0"', 200), ('W/"0"', 200), ("", 200), ('"1', 400), ("1", 400), ('"1" "0"', 400),
    ('*, "1"', 400)])
def test_if_none_match_is_read_as_rfc_9110_says(client: FlaskClient, given: str,
                                                status: int) -> None:
    """Weak comparison of a well-formed list; a malformed header is a 400 naming it."""
    game_id, _ = two_humans(client)
    answer = client.get(f"/v1/games/{game_id}", headers={"If-None-Match": given})
    assert answer.status_code == status, answer.get_data(as_text=True)
    if status == 400:
        assert "If-None-Match" in assert_problem(answer, 400, "bad-request")["errors"]


def test_long_poll_answers_at_once_when_newer_and_after_the_wait_when_not(
        client: FlaskClient) -> None:
    game_id, _ = two_humans(client)
    newer = client.get(f"/v1/games/{game_id}?after_version=0&wait=30")
    assert newer.status_code == 200 and newer.json is not None and newer.json["version"] == 1
    unchanged = client.get(f"/v1/games/{game_id}?after_version=1&wait=0.2")
    assert unchanged.status_code == 200 and unchanged.json is not None
    assert unchanged.json["version"] == 1


def test_long_poll_wakes_when_the_other_seat_acts(app: Flask, client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    to_act = view(client, game_id, tokens[0])
    results: list[int] = []

    def poll() -> None:
        response = app.test_client().get(f"/v1/games/{game_id}?after_version=1&wait=30",
                                         headers=bearer(tokens[1]))
        assert response.json is not None
        results.append(response.json["version"])

    waiter = threading.Thread(target=poll)
    waiter.start()
    assert act(client, game_id, tokens[0], to_act["legal_actions"][0]).status_code == 200
    waiter.join()
    assert results == [2]


def test_long_poll_wait_is_capped_at_30_seconds(client: FlaskClient) -> None:
    game_id, _ = two_humans(client)
    response = client.get(f"/v1/games/{game_id}?after_version=1&wait=31")
    body = assert_problem(response, 422, "validation-error")
    assert "wait" in body["errors"]


def test_idempotent_creation_replays_the_same_game_and_tokens(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer"}]}
    headers = {"Idempotency-Key": CREATE_KEY}
    first = client.post("/v1/games", json=body, headers=headers)
    second = client.post("/v1/games", json=body, headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.json == first.json
    assert second.headers["Idempotent-Replayed"] == "true"
    assert len(redis_client.keys("sixtysix:game:*")) == 1
    other = client.post("/v1/games", json={**body, "match_points": 3}, headers=headers)
    assert_problem(other, 422, "idempotency-key-reused")
    assert len(redis_client.keys("sixtysix:game:*")) == 1


@pytest.mark.parametrize("key", ["create-1", "k" * 21, "a 22-character key ok?", "é" * 22])
def test_a_guessable_creation_key_is_refused(client: FlaskClient, redis_client: redis.Redis,
                                             key: str) -> None:
    """A replay hands out the seat tokens: the key must be as hard to guess as they are."""
    response = client.post("/v1/games", json={}, headers={"Idempotency-Key": key})
    problem = assert_problem(response, 400, "bad-request")
    assert list(problem["errors"]) == ["Idempotency-Key"]
    assert "22" in problem["detail"]
    assert not redis_client.keys("sixtysix:*")


def test_a_uuid_is_a_creation_key(client: FlaskClient) -> None:
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post("/v1/games", json={}, headers=headers)
    assert first.status_code == 201
    assert client.post("/v1/games", json={}, headers=headers).json == first.json


def test_tokens_are_stored_only_as_digests(client: FlaskClient,
                                           redis_client: redis.Redis) -> None:
    created = client.post("/v1/games", json={}, headers={"Idempotency-Key": CREATE_KEY}).json
    assert created is not None
    token = created["seats"][0]["token"].encode()
    keys = redis_client.keys("*")
    stored = b"".join([*keys, *(redis_client.dump(key) or b"" for key in keys)])
    assert stored and token not in stored
    assert CREATE_KEY.encode() not in stored  # the record is filed under the key's digest


def test_invalid_creations_name_the_field(client: FlaskClient) -> None:
    cases = [
        ({"variant": "bridge"}, "variant"),
        ({"seats": [{"kind": "human"}]}, "seats"),
        ({"seats": [{"kind": "computer"}, {"kind": "computer"}]}, "seats"),
        ({"seats": [{"kind": "human"}, {"kind": "computer", "level": "grandmaster"}]},
         "seats.1.level"),
        ({"seats": [{"kind": "human", "level": "random"}, {"kind": "human"}]}, "seats.0.level"),
        ({"seats": [{"kind": "robot"}, {"kind": "human"}]}, "seats.0.kind"),
        ({"rules": {"close_min_talon": 9}}, "rules.close_min_talon"),
        ({"rules": {"no_such_option": 1}}, "rules.no_such_option"),
        ({"match_points": 5}, "match_points"),
        ({"match_points": 3, "rules": {"match_points": 7}}, "match_points"),
        ({"set_bummerl": 9}, "set_bummerl"),
        ({"deck": DECK[:-1]}, "deck"),
        ({"deck": [*DECK[:-1], "XX"]}, "deck"),
        ({"deck": [*DECK[:-1], "AC"]}, "deck"),
        ({"first_dealer": 2}, "first_dealer"),
        ({"settings": {"point_counter": "yes"}}, "settings.point_counter"),
    ]
    for body, field in cases:
        response = client.post("/v1/games", json=body)
        assert response.status_code == 422, body
        problem = assert_problem(response, 422, "validation-error")
        assert field in problem["errors"], (body, problem)


def test_more_players_need_more_seats(client: FlaskClient) -> None:
    created = create(client, variant="four-hand", seats=[
        {"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}, {"kind": "computer"}])
    seat0 = view(client, created["game_id"], created["seats"][0]["token"])
    assert seat0["variant"] == "four-hand" and len(seat0["hand"]) == 6
    assert seat0["to_act"] == 0


def test_unknown_game_is_404(client: FlaskClient) -> None:
    assert_problem(client.get("/v1/games/nope"), 404, "game-not-found")
    assert_problem(client.get("/v1/games/a%7Bb%7D"), 404, "game-not-found")


def test_unknown_token_is_401(client: FlaskClient) -> None:
    game_id, _ = two_humans(client)
    response = client.get(f"/v1/games/{game_id}", headers=bearer("forged"))
    assert_problem(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(client.get(f"/v1/games/{game_id}", headers={"Authorization": "Basic x"}),
                   401, "unauthorized")


def test_rules_list_variants_options_and_levels(client: FlaskClient) -> None:
    body = client.get("/v1/rules").json
    assert body is not None
    assert [v["name"] for v in body["variants"]] == [
        "sixty-six", "schnapsen", "three-hand", "four-hand", "tausendeins"]
    assert body["computer_levels"] == [
        {"name": name, "description": text, "think_median_ms": THINK_BUDGETS[name][0],
         "think_p99_ms": THINK_BUDGETS[name][1]} for name, text in LEVELS.items()]
    by_variant = body["computer_levels_by_variant"]
    assert list(by_variant) == [v["name"] for v in body["variants"]]
    assert [lv["name"] for lv in by_variant["four-hand"]] == list(LEVELS)
    strong = {v: next(lv for lv in levels if lv["name"] == "strong")
              for v, levels in by_variant.items()}
    assert strong["sixty-six"] == {"name": "strong", "plays_as": "strong",
                                   "exact_search": True, "think_median_ms": 500,
                                   "think_p99_ms": 1500, "work_units": 900_000,
                                   "cap_ms": 1400}
    assert strong["four-hand"]["plays_as"] == "strong"
    assert not strong["four-hand"]["exact_search"]
    assert (strong["tausendeins"]["plays_as"], strong["tausendeins"]["exact_search"]) == (
        "strong", True)
    assert all("expert" not in [lv["name"] for lv in levels] for levels in by_variant.values())
    by_deck = body["computer_levels_by_deck"]
    assert {v: list(packs) for v, packs in by_deck.items()} == {
        v["name"]: [str(d["deck"]) for d in v["decks"]] for v in body["variants"]}
    assert by_deck["sixty-six"]["24"] == by_variant["sixty-six"]
    strong32 = next(lv for lv in by_deck["sixty-six"]["32"] if lv["name"] == "strong")
    assert (strong32["plays_as"], strong32["exact_search"]) == ("strong", True)
    four32 = next(lv for lv in by_deck["four-hand"]["32"] if lv["name"] == "strong")
    assert (four32["plays_as"], four32["exact_search"]) == ("strong", False)
    assert {s["name"] for s in body["settings"]} == {
        "point_counter", "hint_66", "auto_continue", "think_time_s", "on_timeout",
        "timeout_level"}
    assert any(o["name"] == "close_min_talon" and o["default"] == 3 for o in body["options"])


def test_health_readiness_and_docs(client: FlaskClient) -> None:
    assert client.get("/healthz").json == {"status": "ok"}
    assert client.get("/readyz").json == {"status": "ok", "missing": []}
    for path in ("/docs", "/redoc"):
        page = client.get(path)
        assert page.status_code == 200 and b"openapi.json" in page.data
    spec = client.get("/openapi.json").json
    assert spec is not None and spec["info"]["title"] == "Sixty-Six"
