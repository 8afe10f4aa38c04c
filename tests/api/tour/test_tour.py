"""The Route-66 tour over HTTP: stations, opening in order, a lost match replayed, a won one
stamped (the player's moves chosen by the normal computer from his own view), 404 and 409."""

from __future__ import annotations

from typing import Any

import redis
from flask.testing import FlaskClient

from api.games.computers import COMPUTER_LEVELS
from api.games.think import FULL
from api.keys import tour_key
from api.tour.stations import STATIONS
from api.tour.store import TourStore
from tests.api.helpers import act, assert_problem, bearer, view
from tests.api.lobby_helpers import new_player
from tests.api.rank_helpers import profile

CITIES = ["Chicago", "St. Louis", "Tulsa", "Oklahoma City", "Amarillo", "Albuquerque",
          "Flagstaff", "Santa Monica"]
#: Attempts at winning Chicago (normal against easy to 3 won every match of an arena run).
ATTEMPTS = 8


def _tour(client: FlaskClient, token: str) -> dict[str, Any]:
    response = client.get("/v1/tour", headers=bearer(token))
    assert response.status_code == 200, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    return out


def _start(client: FlaskClient, token: str, station: str) -> dict[str, Any]:
    response = client.post(f"/v1/tour/{station}/start", headers=bearer(token))
    assert response.status_code == 201, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    assert response.headers["Location"] == out["game"] == f"/v1/games/{out['game_id']}"
    return out


def _open(tour: dict[str, Any]) -> list[str]:
    return [s["station"] for s in tour["stations"] if s["open"]]


def _play_well(client: FlaskClient, game_id: str, token: str) -> dict[str, Any]:
    """Play the player's seat with the normal computer's choices until the match is over."""
    normal = COMPUTER_LEVELS["normal"]
    for _ in range(500):
        seen = view(client, game_id, token)
        if seen["status"] == "match_over":
            return seen
        if not seen["legal_actions"]:  # the opponent moves (on the worker tier): wait for it
            client.get(f"/v1/games/{game_id}?after_version={seen['version']}&wait=10",
                       headers=bearer(token))
            continue
        choice = normal.choose(seen, FULL)
        assert act(client, game_id, token, choice.as_dict()).status_code == 200
    raise AssertionError("the match did not end")


def test_the_stations_run_from_chicago_to_santa_monica() -> None:
    assert [s.city for s in STATIONS] == CITIES
    assert [s.level for s in STATIONS] == ["easy"] * 2 + ["normal"] * 4 + ["strong"] * 2
    assert len({s.diner for s in STATIONS}) == 8 and len({s.opponent for s in STATIONS}) == 8
    assert {s.variant for s in STATIONS} == {"sixty-six", "schnapsen", "three-hand",
                                             "four-hand"}


def test_only_chicago_is_open_at_first(client: FlaskClient) -> None:
    assert_problem(client.get("/v1/tour"), 401, "unauthorized")
    _, token = new_player(client, "Traveller")
    tour = _tour(client, token)
    assert (tour["stamps"], tour["next"], _open(tour)) == (0, "chicago", ["chicago"])
    assert [s["city"] for s in tour["stations"]] == CITIES
    assert all(s["stamped_at"] is None and s["game"] is None for s in tour["stations"])
    problem = assert_problem(client.post("/v1/tour/st-louis/start", headers=bearer(token)),
                             409, "station-not-open")
    assert problem["station"] == "st-louis" and "Chicago" in problem["detail"]
    problem = assert_problem(client.post("/v1/tour/route-67/start", headers=bearer(token)),
                             404, "station-not-found")
    assert problem["station"] == "route-67"
    assert_problem(client.post("/v1/tour/chicago/start"), 401, "unauthorized")


def test_a_lost_station_is_replayed_and_a_won_one_stamped(client: FlaskClient) -> None:
    player_id, token = new_player(client, "Traveller")
    started = _start(client, token, "chicago")
    seen = view(client, started["game_id"], started["token"])
    assert (seen["variant"], seen["match"]["target"]) == ("sixty-six", 3)
    assert [(s["kind"], s["level"]) for s in seen["seats"]] == [("human", None),
                                                              ("computer", "easy")]
    assert seen["seats"][1]["name"] == "Mabel (easy)" and seen["rated"]
    assert act(client, started["game_id"], started["token"],
               {"type": "resign"}).status_code == 200  # lost
    tour = _tour(client, token)
    assert (tour["stamps"], _open(tour)) == (0, ["chicago"])
    assert tour["stations"][0]["game"] == {"game_id": started["game_id"],
                                           "token": started["token"]}
    for _ in range(ATTEMPTS):  # replayed until won
        started = _start(client, token, "chicago")
        final = _play_well(client, started["game_id"], started["token"])
        tour = _tour(client, token)
        if final["match"]["set_winner"] == 0:
            break
        assert tour["stamps"] == 0 and _open(tour) == ["chicago"]
    else:
        raise AssertionError(f"the normal computer lost Chicago {ATTEMPTS} times")
    chicago = tour["stations"][0]
    assert chicago["stamped_at"] is not None and chicago["game"]["game_id"] == started["game_id"]
    assert (tour["stamps"], tour["next"], _open(tour)) == (1, "st-louis",
                                                           ["chicago", "st-louis"])
    assert profile(client, player_id)["tour"] == {"stamps": 1, "stamped": ["chicago"]}
    history = client.get(f"/v1/players/{player_id}/games").json
    assert history is not None and history["games"][0]["tour_station"] == "chicago"
    again = _start(client, token, "chicago")  # a stamped station can be played again
    assert act(client, again["game_id"], again["token"], {"type": "resign"}).status_code == 200
    assert _tour(client, token)["stations"][0]["stamped_at"] == chicago["stamped_at"]
    louis = _start(client, token, "st-louis")
    assert view(client, louis["game_id"], louis["token"])["variant"] == "schnapsen"
    assert_problem(client.post("/v1/tour/tulsa/start", headers=bearer(token)), 409,
                   "station-not-open")


def test_every_station_seats_its_opponents(client: FlaskClient,
                                           redis_client: redis.Redis) -> None:
    player_id, token = new_player(client, "Traveller")
    tours = TourStore(redis_client)
    for station in STATIONS:  # stamped directly: this test is about the seats
        tours.stamp(player_id, station.slug)
    assert _open(_tour(client, token)) == [s.slug for s in STATIONS]
    for station in STATIONS:
        started = _start(client, token, station.slug)
        seen = view(client, started["game_id"], started["token"])
        assert (seen["variant"], seen["match"]["target"]) == (station.variant,
                                                              station.match_points)
        levels = [s["level"] for s in seen["seats"]]
        if station.variant == "four-hand":
            assert levels == [None, station.level, "normal", station.level]
        else:
            assert levels == [None] + [station.level] * (len(levels) - 1)
        names = [s["name"] for i, s in enumerate(seen["seats"])
                 if i and not (station.variant == "four-hand" and i == 2)]
        assert names == [f"{n} ({station.level})" for n in station.names]


def test_the_tour_view_records_a_result_its_save_missed(client: FlaskClient,
                                                        redis_client: redis.Redis) -> None:
    player_id, token = new_player(client, "Traveller")
    started = _start(client, token, "chicago")
    assert act(client, started["game_id"], started["token"],
               {"type": "resign"}).status_code == 200
    stored = redis_client.hgetall(tour_key(player_id))
    assert stored and not any(started["token"].encode() in v for v in stored.values())
    assert _tour(client, token)["stations"][0]["game"]["token"] == started["token"]  # unsealed
    games = f"/v1/players/{player_id}/games"
    assert [g["game_id"] for g in client.get(games).json["games"]] == [  # type: ignore[index]
        started["game_id"]]
    for key in redis_client.scan_iter("sixtysix:player-history:*"):
        redis_client.delete(key)  # as if the hook after the resignation had failed
    assert client.get(games).json["games"] == []  # type: ignore[index]
    _tour(client, token)
    entry = client.get(games).json["games"][0]  # type: ignore[index]
    assert (entry["game_id"], entry["result"], entry["tour_station"]) == (
        started["game_id"], "lost", "chicago")
