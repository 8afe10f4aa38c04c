"""Event streams on a Redis Cluster: two app instances; a game's stream is open on one while
the game is played through the other, for games on every master. The streaming instance
subscribes to each game it streams (sharded on Redis 7: on the game's master) and hears the
saves of every master; a ticket issued by one instance opens a stream on the other; presence
is read with the game from its slot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from redis.cluster import RedisCluster

from api.keys import game_key
from api.runtime.local import LocalServer
from api.runtime.redis_connect import connect
from tests.api.sse import Sse
from tests.cluster.conftest import MASTERS, LocalCluster

pytestmark = pytest.mark.cluster

MAX_GAMES = 60  # games are created until every master holds one; 60 misses one master
# with odds of about 3 * (2/3)**60, one in 10**10


@pytest.fixture(scope="module")
def urls(redis_cluster: LocalCluster) -> Iterator[tuple[str, str]]:
    with (LocalServer(redis_cluster.url, {"SIXTYSIX_STREAM_HEARTBEAT": 0.2}) as a,
          LocalServer(redis_cluster.url) as b):
        yield a.url, b.url


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_streams_on_one_instance_follow_games_saved_through_the_other(
        urls: tuple[str, str], redis_cluster: LocalCluster) -> None:
    streaming, acting = urls
    games: list[dict[str, Any]] = []
    masters: set[str] = set()
    cluster = connect(redis_cluster.url)
    assert isinstance(cluster, RedisCluster)
    try:
        for _ in range(MAX_GAMES):
            if len(masters) == MASTERS:
                break
            game = requests.post(f"{acting}/v1/games", timeout=10, json={
                "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
            master = cluster.get_node_from_key(game_key(game["game_id"])).name
            if master not in masters:
                masters.add(master)
                games.append(game)
    finally:
        cluster.close()
    assert len(masters) == MASTERS
    for game in games:
        game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        ticket = requests.post(f"{acting}/v1/games/{game_id}/stream-ticket", timeout=10,
                               headers=_bearer(tokens[1])).json()["ticket"]
        stream = Sse(requests.get(f"{streaming}/v1/games/{game_id}/stream?ticket={ticket}",
                                  stream=True, timeout=(5, 5)))
        try:
            first = stream.next()
            assert first.event == "view" and first.data["seat"] == 1
            seen_by_other = requests.get(f"{acting}/v1/games/{game_id}", timeout=10).json()
            assert [s["connected"] for s in seen_by_other["seats"]] == [False, True]
            views = [requests.get(f"{acting}/v1/games/{game_id}", headers=_bearer(t),
                                  timeout=10).json() for t in tokens]
            seat = next(i for i, v in enumerate(views) if v["legal_actions"])
            requests.post(f"{acting}/v1/games/{game_id}/actions", timeout=10,
                          json=views[seat]["legal_actions"][0],
                          headers=_bearer(tokens[seat])).raise_for_status()
            got = stream.until("view")
        finally:
            stream.close()
        assert got[0].event == "game_event" and got[0].data["seat"] == seat
        assert got[-1].data["version"] == 2
