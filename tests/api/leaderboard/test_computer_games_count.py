"""Games against the computer count (seed 001: every game won counts), for a player who creates
them with his token; a game without a player says it never counts; the profile's matches
played and won come from one source, whatever started the match (table, tour, computer)."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from api.games import rated
from api.ratings.seed import shipped
from tests.api.helpers import DECK, act, assert_problem, bearer, create, view
from tests.api.lobby_helpers import SETTLE, new_player, play_to_end
from tests.api.rank_helpers import board, expected_points, me, profile
from tests.waiting import eventually

RANDOM = {"kind": "computer", "level": "random"}


def _create(client: FlaskClient, token: str, **body: object) -> dict[str, object]:
    response = client.post("/v1/games", json=body, headers=bearer(token))
    assert response.status_code == 201, response.json
    out: dict[str, object] = response.json  # type: ignore[assignment]
    return out


def test_a_game_without_a_player_says_it_never_counts(client: FlaskClient) -> None:
    created = create(client)
    assert (created["rated"], created["unrated_reason"]) == (False, rated.ANONYMOUS)
    seen = view(client, created["game_id"], created["seats"][0]["token"])
    assert (seen["rated"], seen["unrated_reason"]) == (False, rated.ANONYMOUS)
    _, token = new_player(client, "Dealer")
    given = _create(client, token, deck=DECK)
    assert (given["rated"], given["unrated_reason"]) == (False, rated.DECK)


def test_a_players_game_against_the_computer_counts(client: FlaskClient) -> None:
    player_id, token = new_player(client, "Solo")
    created = _create(client, token, match_points=3, seats=[
        {"kind": "human", "name": "Someone Else"}, RANDOM])
    assert (created["rated"], created["unrated_reason"]) == (True, None)
    seats = created["seats"]
    assert isinstance(seats, list) and seats[0]["name"] == "Solo"  # named after the player
    game_id = str(created["game_id"])
    final = play_to_end(client, game_id, {0: seats[0]["token"]}, random.Random(7))
    won = final["match"]["set_winner"] == 0
    points = expected_points(final, "sixty-six", 0)

    def counted() -> None:
        assert board(client) == {player_id: points}
        mine = me(client, token)
        assert mine["stats"]["sixty-six"] == {"played": 1, "won": int(won)}
        assert mine["ratings"]["sixty-six"]["matches"] == 1
        games = client.get(f"/v1/players/{player_id}/games").json["games"]  # type: ignore
        assert [(g["game_id"], g["rated"], g["result"]) for g in games] == [
            (game_id, True, "won" if won else "lost")]

    eventually(counted, SETTLE)
    levels = client.get("/v1/ratings?kind=computer").json["ratings"]  # type: ignore[index]
    assert {r["id"]: r["matches"] for r in levels} == {  # the levels are anchors
        level: r.matches for level, r in shipped()["sixty-six"].ratings.items()}


def test_a_players_game_with_another_human_seat_is_unrated(client: FlaskClient) -> None:
    _, token = new_player(client, "Solo")
    created = _create(client, token, seats=[{"kind": "human"}, {"kind": "human"}])
    assert (created["rated"], created["unrated_reason"]) == (False, rated.PEOPLE)


def test_a_token_that_is_no_players_is_a_401(client: FlaskClient) -> None:
    seat_token = create(client)["seats"][0]["token"]
    assert_problem(client.post("/v1/games", json={}, headers=bearer(seat_token)), 401,
                   "unauthorized")


def test_a_tour_match_counts_in_the_profile(client: FlaskClient) -> None:
    player_id, token = new_player(client, "Traveller")
    started = client.post("/v1/tour/chicago/start", headers=bearer(token)).json
    assert started is not None
    assert act(client, started["game_id"], started["token"],
               {"type": "resign"}).status_code == 200
    stats = profile(client, player_id)["stats"]
    assert stats["sixty-six"] == {"played": 1, "won": 0}
    # resigned before a hand was settled: listed and counted as played, too short to rate
    assert profile(client, player_id)["ratings"]["sixty-six"] is None
