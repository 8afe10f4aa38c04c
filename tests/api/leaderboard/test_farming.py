"""The farming attack of issue 23 against a real server with the shipped rate limits
(:mod:`tests.bench.farm_leaderboard`): two accounts of one person, the second resigning at once and
both asking for a rematch, gain nothing; honest play between two accounts still counts."""

from __future__ import annotations

import random
from typing import Any

import redis
import requests

from api.leaderboard.pairs import PAIR_LIMIT, unrated_reason
from api.leaderboard.scoring import LEAVE_PENALTY
from tests.api.rank_helpers import expected_points
from tests.bench.farm_leaderboard import farm

#: Rounds that stay within the shipped budget of tables and rematches per address (30 a
#: minute: 1 table + 2 rematches a round), two more than the pair's rated matches.
ROUNDS = PAIR_LIMIT + 2


def test_the_farmer_gains_nothing(limited_url: str, redis_client: redis.Redis) -> None:
    found = farm(limited_url, ROUNDS)
    assert (found.rounds, found.refused) == (ROUNDS, 0)
    # the first PAIR_LIMIT matches were rated, and too short to place anybody
    assert found.rated == PAIR_LIMIT and found.unrated == [unrated_reason()] * 2
    first, second = found.accounts["first"], found.accounts["second"]
    assert first == {"board": None, "rating": None}  # no points, no rank, no rating
    assert second["board"]["points"] == -LEAVE_PENALTY * PAIR_LIMIT
    assert second["rating"] is None  # too short to rate: neither account is rated


def _send(method: str, url: str, token: str | None = None, **body: Any) -> Any:
    answer = requests.request(method, url, json=body, timeout=30,
                              headers={"Authorization": f"Bearer {token}"} if token else {})
    assert answer.ok, answer.text
    return answer.json()


def test_honest_play_between_two_accounts_still_counts(limited_url: str,
                                                       redis_client: redis.Redis) -> None:
    players = [_send("POST", f"{limited_url}/v1/players", name=name) for name in ("Ann", "Bob")]
    table = _send("POST", f"{limited_url}/v1/tables", players[0]["token"], match_points=3,
                  seats=[{"kind": "player"}, {"kind": "open"}])
    table_url = f"{limited_url}/v1/tables/{table['table_id']}"
    _send("POST", f"{table_url}/join", players[1]["token"])
    seats = {}
    for player in players:
        you = _send("GET", table_url, player["token"])["you"]
        seats[you["seat"]] = (you["token"], player["player_id"])
    game_url = f"{limited_url}/v1/games/{you['game_id']}"
    rng = random.Random(23)
    while True:
        views = {seat: _send("GET", game_url, token) for seat, (token, _) in seats.items()}
        if views[0]["status"] == "match_over":
            break
        assert views[0]["rated"] and views[0]["unrated_reason"] is None
        seat = next(s for s, v in views.items() if v["legal_actions"])
        _send("POST", f"{game_url}/actions", seats[seat][0],
              **rng.choice(views[seat]["legal_actions"]))
    for seat, (_, player_id) in seats.items():
        mine = _send("GET", f"{limited_url}/v1/players/{player_id}")
        points = expected_points(views[0], "sixty-six", seat)
        assert mine["leaderboard"]["all"]["all"]["points"] == points
        assert mine["ratings"]["sixty-six"]["matches"] == 1
        assert mine["stats"]["sixty-six"]["played"] == 1
