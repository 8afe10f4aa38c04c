"""The 32-card pack over HTTP (docs/rules.md §13): published in GET /v1/rules, taken by games
and tables, refused where it does not apply, and a whole 32-card match against the computer
whose record replays identically."""

from __future__ import annotations

import random

import redis
from flask.testing import FlaskClient

from engine.replay import replay
from tests.api.helpers import act, assert_problem, create, view
from tests.api.lobby_helpers import new_player, new_table, table

SEVENS_AND_EIGHTS = {f"{r}{s}" for r in "78" for s in "CSHD"}


def test_the_rules_publish_deck_and_ten_rank(client: FlaskClient) -> None:
    body = client.get("/v1/rules").json
    assert body is not None
    options = {o["name"]: o for o in body["options"]}
    three = ["sixty-six", "three-hand", "four-hand"]
    assert [options["deck"][k] for k in ("type", "default", "allowed", "variants")] == [
        "integer", 24, [24, 32], three]
    assert [options["ten_rank"][k] for k in ("type", "default", "allowed", "variants")] == [
        "string", "high", ["high", "low"], three]
    assert all(len(options[n]["description"]) > 40 for n in ("deck", "ten_rank"))


def test_a_32_card_match_against_the_computer_plays_to_the_end(client: FlaskClient) -> None:
    created = create(client, rules={"deck": 32}, match_points=3,
                     seats=[{"kind": "human"}, {"kind": "computer", "level": "strong"}])
    game_id, token = created["game_id"], created["seats"][0]["token"]
    current = view(client, game_id, token)
    assert current["rules"]["deck"] == 32
    assert len(current["hand"]) == 6
    assert current["talon_size"] in (20, 18)  # 18 when the computer led and both drew
    seen: set[str] = set()
    rng = random.Random(7)
    while current["status"] != "match_over":
        seen.update(current["hand"])
        response = act(client, game_id, token, rng.choice(current["legal_actions"]))
        assert response.status_code == 200, response.json
        current = response.json
    assert seen & SEVENS_AND_EIGHTS
    record = client.get(f"/v1/games/{game_id}/record").json
    assert record is not None and record["rules"]["deck"] == 32
    assert all(len(h["deck"]) == 32 for h in record["hands"])
    done = replay(record)
    assert done.state.score == record["result"]["score"]
    assert max(record["result"]["score"]) >= 3


def test_deck_32_is_refused_where_it_does_not_apply(client: FlaskClient,
                                                    redis_client: redis.Redis) -> None:
    response = client.post("/v1/games", json={"variant": "schnapsen", "rules": {"deck": 32}})
    problem = assert_problem(response, 422, "validation-error")
    assert "rules.deck" in problem["errors"]
    response = client.post("/v1/games", json={"rules": {"ten_rank": "low"}})
    problem = assert_problem(response, 422, "validation-error")
    assert "rules.ten_rank" in problem["errors"]
    response = client.post("/v1/games", json={"rules": {"deck": 36}})
    assert "rules.deck" in assert_problem(response, 422, "validation-error")["errors"]
    assert not redis_client.keys("sixtysix:game:*")


def test_a_three_hand_table_takes_32_cards(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    created = new_table(client, ann, variant="three-hand",
                        seats=[{"kind": "player"}, {"kind": "open"}, {"kind": "open"}],
                        rules={"deck": 32})
    assert table(client, created["table_id"], ann)["rules"]["deck"] == 32
