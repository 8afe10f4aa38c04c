"""A lobby match on the local three-master Redis Cluster, through two app instances.

Players are made on one instance, the table on the other, the joins race through both, and
the match is played alternating between them, then a chat message is sent through one and read
through the other. The table, its game and the game's event log share one slot (one master
holds them all, the write records of saves and messages too), so the join that starts the game
is one script, as is each save.
"""

from __future__ import annotations

import random
import threading

import pytest
from redis.cluster import RedisCluster

from api.clients.client import ApiError, SixtySixClient
from api.keys import events_key, game_key, player_key, table_key
from api.runtime.redis_connect import connect
from tests.cluster.conftest import LocalCluster
from tests.cluster.test_cluster_games import _play_match

pytestmark = pytest.mark.cluster


def test_a_lobby_match_on_the_cluster(instances: tuple[SixtySixClient, SixtySixClient],
                                      redis_cluster: LocalCluster) -> None:
    client_a, client_b = instances
    suffix = random.randrange(10**6)
    made = [client_a.create_player(f"Cl {suffix} {i}") for i in range(3)]
    on_a = [client_a.with_token(p["token"]) for p in made]
    on_b = [client_b.with_token(p["token"]) for p in made]
    table = on_b[0].create_table([{"kind": "player"}, {"kind": "open"}, {"kind": "open"}],
                                 "three-hand", match_points=3, visibility="private")
    table_id, code = table["table_id"], table["invite_code"]
    assert code
    outcomes: list[object] = [None, None]

    def join(i: int) -> None:
        try:
            outcomes[i] = (on_a if i else on_b)[i + 1].join_table(table_id, invite_code=code)
        except ApiError as error:  # pragma: no cover - the assertion below reports it
            outcomes[i] = error

    threads = [threading.Thread(target=join, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(isinstance(o, ApiError) for o in outcomes), outcomes
    started = on_a[0].table(table_id)
    assert started["status"] == "playing"
    game_id = started["game_id"]
    assert game_id is not None
    seats: dict[int, str] = {}
    for player in on_b:
        you = player.table(table_id)["you"]
        assert you is not None and you["token"]
        seats[you["seat"]] = you["token"]
    seat_a = [client_a.with_token(seats[s]) for s in sorted(seats)]
    seat_b = [client_b.with_token(seats[s]) for s in sorted(seats)]
    final = _play_match(seat_a, seat_b, game_id, random.Random(5))
    assert final["status"] == "match_over"
    assert on_b[0].table(table_id)["status"] == "finished"
    assert sum(p.me()["stats"]["three-hand"]["played"] for p in on_a) == 3
    assert sum(p.me()["stats"]["three-hand"]["won"] for p in on_a) == 1
    finished = on_a[1].my_games("finished")["games"]
    assert [g["game_id"] for g in finished] == [game_id]
    # the standings, written in their own slots ({leaderboard}, {ratings}, each player's)
    board = client_b.leaderboard(variant="three-hand")["entries"]
    assert {e["player_id"] for e in board} <= {p["player_id"] for p in made}
    points = final["match"]["points"]
    places = [1 + sum(1 for q in points if q > p) for p in points]
    assert sum(e["points"] for e in board) == sum(points) + sum(
        (30, 15, 5)[place - 1] for place in places)  # every hand once, and the places
    rated = client_a.ratings("three-hand")["ratings"]
    assert sorted(r["id"] for r in rated) == sorted(p["player_id"] for p in made)
    assert all(r["matches"] == 1 for r in rated)
    history = on_b[0].player_games(made[0]["player_id"])["games"]  # his own: private too
    assert [g["game_id"] for g in history] == [game_id]
    assert client_b.player_games(made[0]["player_id"])["games"] == []  # others: not private
    # a spectator with the invite code, through the other instance; without it a 404
    watched = client_b.watch(game_id, code)
    assert watched["seat"] is None and watched["status"] == "match_over"
    with pytest.raises(ApiError) as missing:
        client_b.watch(game_id)
    assert missing.value.status == 404
    # a chat message after the match, through one instance, read through the other
    said = seat_a[0].chat(game_id, "gg")
    heard = [e for e in seat_b[1].all_events(game_id) if e["type"] == "chat"]
    assert heard == [{"type": "chat", **said}]
    cluster = connect(redis_cluster.url)
    assert isinstance(cluster, RedisCluster)
    try:
        slot = cluster.keyslot(table_key(table_id))
        assert cluster.keyslot(game_key(game_id)) == slot
        assert cluster.keyslot(events_key(game_id)) == slot
        assert cluster.ttl(player_key(made[0]["player_id"])) == -1
    finally:
        cluster.close()
