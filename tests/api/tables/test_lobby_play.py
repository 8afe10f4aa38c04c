"""Whole matches at tables over HTTP: three- and four-hand with any mix of players and
computers, joins racing for the last seats on a live server, spectators, "my games"."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from api.clients.client import ApiError, SixtySixClient
from tests.api.helpers import assert_problem, bearer
from tests.api.lobby_helpers import join, new_player, new_table, play_to_end, seat_tokens, table

CPU: dict[str, str] = {"kind": "computer", "level": "random"}
OPEN: dict[str, str] = {"kind": "open"}
ME: dict[str, str] = {"kind": "player"}


@pytest.mark.parametrize(("variant", "seats"), [
    ("four-hand", [ME, CPU, OPEN, CPU]),   # two players, partners (0 + 2)
    ("four-hand", [ME, OPEN, CPU, CPU]),   # two players, opponents
    ("three-hand", [ME, OPEN, OPEN]),     # three players
    ("three-hand", [OPEN, CPU, ME]),     # two players and a computer
])
def test_a_table_plays_to_the_end(client: FlaskClient, variant: str,
                                  seats: list[dict[str, str]]) -> None:
    names = ["Ann", "Bob", "Cid"]
    players = [new_player(client, name) for name in names[:sum(s["kind"] != "computer"
                                                              for s in seats)]]
    table_id = new_table(client, players[0][1], variant=variant, match_points=3,
                         seats=seats)["table_id"]
    for _, token in players[1:]:
        join(client, token, table_id)
    game_id, tokens = seat_tokens(client, table_id, [t for _, t in players])
    final = play_to_end(client, game_id, tokens, random.Random(len(seats) + len(players)))
    assert final["status"] == "match_over"
    winner = final["match"]["set_winner"]
    assert table(client, table_id)["status"] == "finished"
    for player_id, token in players:
        seat = next(s["seat"] for s in table(client, table_id)["seats"]
                    if s.get("player_id") == player_id)
        won = (seat % 2 if variant == "four-hand" else seat) == winner
        stats = client.get(f"/v1/players/{player_id}").json["stats"]  # type: ignore[index]
        assert stats[variant] == {"played": 1, "won": int(won)}
        finished = client.get("/v1/players/me/games?status=finished",
                              headers=bearer(token)).json
        assert finished is not None and [g["game_id"] for g in finished["games"]] == [game_id]
        active = client.get("/v1/players/me/games", headers=bearer(token)).json
        assert active == {"games": [], "next_cursor": None}


def test_racing_joins_give_one_seat_each(live_url: str, redis_client: redis.Redis) -> None:
    with SixtySixClient(live_url) as anon:
        host = anon.with_token(anon.create_player("Host")["token"])
        racers = [anon.with_token(anon.create_player(f"Racer {i}")["token"]) for i in range(8)]
        for round_no in range(3):
            table_id = host.create_table([ME, OPEN, OPEN, OPEN], "four-hand")["table_id"]
            barrier = threading.Barrier(len(racers))
            outcomes: list[Any] = [None] * len(racers)

            def run(i: int, table_id: str = table_id, barrier: threading.Barrier = barrier,
                    outcomes: list[Any] = outcomes) -> None:
                barrier.wait(timeout=10)
                try:
                    outcomes[i] = racers[i].join_table(table_id)
                except ApiError as error:
                    outcomes[i] = error

            threads = [threading.Thread(target=run, args=(i,)) for i in range(len(racers))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
                assert not thread.is_alive()
            won = [o for o in outcomes if not isinstance(o, ApiError)]
            lost = [o for o in outcomes if isinstance(o, ApiError)]
            assert len(won) == 3, (round_no, outcomes)
            assert {e.status for e in lost} == {409}
            seats = [o["you"]["seat"] for o in won]
            assert sorted(seats) == [1, 2, 3]
            final = host.table(table_id)
            assert final["status"] == "playing"
            ids = [s["player_id"] for s in final["seats"]]
            assert len(set(ids)) == 4
            winners = {racers[i].me()["player_id"] for i, o in enumerate(outcomes)
                       if not isinstance(o, ApiError)}
            assert set(ids[1:]) == winners
            # every winner holds a working seat token of the one game
            for racer in (racers[i] for i, o in enumerate(outcomes)
                          if not isinstance(o, ApiError)):
                you = racer.table(table_id)["you"]
                assert you is not None and you["token"] and you["game_id"] == final["game_id"]
                view = racer.with_token(you["token"]).view(final["game_id"])
                assert view["seat"] == you["seat"]


def test_spectators_of_public_and_private_tables(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    public = new_table(client, ann, seats=[ME, CPU])
    view = client.get(f"/v1/games/{public['game_id']}").json
    assert view is not None and view["seat"] is None and view["hand"] is None
    assert client.get(f"/v1/games/{public['game_id']}/events").status_code == 200
    assert table(client, public["table_id"])["spectators"] == 1
    client.get(f"/v1/games/{public['game_id']}", environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert table(client, public["table_id"])["spectators"] == 2

    private = new_table(client, bob, seats=[ME, CPU], visibility="private")
    game, code = private["game_id"], private["invite_code"]
    other_seat = public["you"]["token"]
    for headers, query in (({}, {}), ({}, {"invite_code": "nope"}),
                           ({"X-Invite-Code": code[::-1]}, {})):
        assert_problem(client.get(f"/v1/games/{game}", headers=headers, query_string=query),
                       404, "game-not-found")
        assert_problem(client.get(f"/v1/games/{game}/events", headers=headers,
                                  query_string=query), 404, "game-not-found")
    assert_problem(client.get(f"/v1/games/{game}", headers=bearer(other_seat)), 404,
                   "game-not-found")  # another game's seat token is no pass, and tells nothing
    assert_problem(client.get(f"/v1/games/{game}", headers=bearer(ann)), 404, "game-not-found")
    by_query = client.get(f"/v1/games/{game}", query_string={"invite_code": code})
    assert by_query.status_code == 200 and by_query.json["hand"] is None  # type: ignore[index]
    by_header = client.get(f"/v1/games/{game}/events", headers={"X-Invite-Code": code})
    assert by_header.status_code == 200
    assert table(client, private["table_id"], bob)["spectators"] == 1
    # a seated player watches his own seat with his seat token, no code needed
    mine = client.get(f"/v1/games/{game}", headers=bearer(private["you"]["token"])).json
    assert mine is not None and mine["seat"] == 0 and mine["hand"]


def test_my_games_resume_with_the_player_token_alone(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    made = [new_table(client, ann, variant=v, seats=[ME, CPU, CPU][:n])
            for v, n in (("sixty-six", 2), ("schnapsen", 2), ("three-hand", 3))]
    # the computer's opening moves come from the worker tier: wait until Ann is to act
    mine = table(client, made[0]["table_id"], ann)["you"]["token"]
    view = client.get(f"/v1/games/{made[0]['game_id']}", headers=bearer(mine)).json
    for _ in range(9):
        assert view is not None
        if view["legal_actions"]:
            break
        view = client.get(f"/v1/games/{made[0]['game_id']}?after_version={view['version']}"
                          "&wait=10", headers=bearer(mine)).json
    seen, cursor = [], None
    while True:
        page = client.get("/v1/players/me/games", headers=bearer(ann), query_string={
            "limit": 2, **({"cursor": cursor} if cursor else {})}).json
        assert page is not None
        seen += page["games"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert [g["game_id"] for g in seen] == [t["game_id"] for t in reversed(made)]
    first = seen[-1]
    assert first["table_id"] == made[0]["table_id"] and first["variant"] == "sixty-six"
    assert first["opponents"] == [{"seat": 1, "name": "Computer (random)", "kind": "computer"}]
    assert first["your_turn"] is True and first["to_act"] == [0]
    # resume: the seat token comes from the table
    you = table(client, first["table_id"], ann)["you"]
    view = client.get(f"/v1/games/{first['game_id']}", headers=bearer(you["token"])).json
    assert view is not None and view["legal_actions"]
    assert_problem(client.get("/v1/players/me/games?status=lost", headers=bearer(ann)), 422,
                   "validation-error")
