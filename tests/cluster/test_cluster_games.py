"""Two app instances on one Redis Cluster: whole games played across both, and racing actions.

Each instance is ``create_app`` with the ``redis+cluster://`` URL, served over a real socket by
werkzeug in a thread (:class:`api.runtime.local.LocalServer`). Requests alternate between the
instances, so every step loads a game that the other instance saved.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from redis.cluster import RedisCluster

from api.clients.client import ApiError, SixtySixClient, View
from api.keys import events_key, game_id_of_channel, game_key, notify_channel
from api.live.notify import Subscriber
from api.runtime.redis_connect import connect
from tests.cluster.conftest import MASTERS, LocalCluster

pytestmark = pytest.mark.cluster

HUMANS: list[Any] = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
RACERS = 6  # threads per round, half through each instance
PLAYS = 12  # successful plays raced for on one game (6 tricks: the hand is not over)


@pytest.fixture
def cluster_client(redis_cluster: LocalCluster) -> Iterator[RedisCluster]:
    client = connect(redis_cluster.url)
    assert isinstance(client, RedisCluster)
    try:
        yield client
    finally:
        client.close()


def _seats(client: SixtySixClient, game: dict[str, Any]) -> list[SixtySixClient]:
    return [client.with_token(seat["token"]) for seat in game["seats"]]


def _play_match(
    on_a: list[SixtySixClient], on_b: list[SixtySixClient], game_id: str, rng: random.Random
) -> View:
    """Play to the end; each step views through one instance and acts through the other."""
    instances = [on_a, on_b]
    for step in range(2000):
        viewer, actor = instances[step % 2], instances[(step + 1) % 2]
        views = [seat.view(game_id) for seat in viewer]
        if views[0]["status"] == "match_over":
            return views[0]
        seat = next(i for i, v in enumerate(views) if v["legal_actions"])
        view = views[seat]
        after = actor[seat].act(game_id, rng.choice(view["legal_actions"]), view["version"])
        assert after["version"] == view["version"] + 1
    raise AssertionError(f"game {game_id} did not end within 2000 steps")


def test_whole_matches_alternate_between_instances(
    instances: tuple[SixtySixClient, SixtySixClient], cluster_client: RedisCluster
) -> None:
    client_a, client_b = instances
    rng = random.Random(7)
    owners = set()
    for _ in range(3):
        game = client_a.create_game(seats=HUMANS, match_points=3)
        game_id = game["game_id"]
        on_a = _seats(client_a, game)
        on_b = [client_b.with_token(seat.token) for seat in on_a]
        final = _play_match(on_a, on_b, game_id, rng)
        assert max(final["match"]["points"]) >= 3
        # Both instances agree on the final state, to the version and the event log.
        assert on_b[0].view(game_id)["version"] == final["version"]
        assert on_a[1].all_events(game_id) == on_b[1].all_events(game_id)
        # The game's keys share a slot: one master holds the whole game.
        slot = cluster_client.keyslot(game_key(game_id))
        assert cluster_client.keyslot(events_key(game_id)) == slot
        owner = cluster_client.get_node_from_key(game_key(game_id))
        assert owner is not None
        owners.add(owner.port)
        direct = redis.Redis(host=owner.host, port=owner.port)
        try:
            assert int(direct.hget(game_key(game_id), "v") or 0) == final["version"]
            assert int(direct.hget(game_key(game_id), "n") or 0) == len(
                on_a[0].all_events(game_id))
            assert direct.exists(events_key(game_id))
        finally:
            direct.close()
    assert 1 <= len(owners) <= MASTERS


def _race(
    actors: list[SixtySixClient], game_id: str, actions: list[dict[str, Any]]
) -> list[View | ApiError]:
    """All actors post their action at once (no If-Match); the outcome of each."""
    barrier = threading.Barrier(len(actors))
    outcomes: list[View | ApiError] = [ApiError(0, "", "not run", "")] * len(actors)

    def run(index: int) -> None:
        barrier.wait(timeout=10)
        try:
            outcomes[index] = actors[index].act(game_id, actions[index])
        except ApiError as error:
            outcomes[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actors))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive()
    return outcomes


def test_racing_actions_through_both_instances_lose_no_update(
    instances: tuple[SixtySixClient, SixtySixClient],
) -> None:
    client_a, client_b = instances
    game = client_a.create_game(seats=HUMANS)
    game_id = game["game_id"]
    on_a = _seats(client_a, game)
    on_b = [client_b.with_token(seat.token) for seat in on_a]
    rng = random.Random(11)
    applied: list[dict[str, Any]] = []
    while len(applied) < PLAYS:
        views = [seat.view(game_id) for seat in on_a]
        assert views[0]["status"] == "playing"  # PLAYS + 1 plays at most: the hand goes on
        seat = next(i for i, v in enumerate(views) if v["legal_actions"])
        before = views[seat]
        # Every racer plays a (possibly different) legal card for the seat to act.
        cards = [a for a in before["legal_actions"] if a["type"] == "play"]
        actions = [rng.choice(cards) for _ in range(RACERS)]
        actors = [(on_a if i % 2 == 0 else on_b)[seat] for i in range(RACERS)]
        outcomes = _race(actors, game_id, actions)
        # Several may succeed one after the other (a seat that wins a trick leads again), but
        # each success is its own version: none overwrote another.
        won = sorted(
            (o["version"], actions[i])
            for i, o in enumerate(outcomes)
            if not isinstance(o, ApiError)
        )
        assert [v for v, _ in won] == list(
            range(before["version"] + 1, before["version"] + 1 + len(won))
        )
        assert [o.status for o in outcomes if isinstance(o, ApiError)] == [409] * (
            RACERS - len(won)
        )
        assert on_b[seat].view(game_id)["version"] == won[-1][0]
        applied += [action for _, action in won]
    # The log holds exactly the successful plays, in version order, each once.
    played = [
        {"type": "play", "card": event["card"]}
        for event in on_b[1].all_events(game_id)
        if event["type"] == "card_played"
    ]
    assert played == applied


def test_change_notices_from_every_master_reach_one_subscriber(
    instances: tuple[SixtySixClient, SixtySixClient], cluster_client: RedisCluster
) -> None:
    """A web process subscribes to the games it watches: sharded (Redis 7), each on the master
    owning the game, so its notices come from every master; saves on any master reach it."""
    client_a, _ = instances
    subscriber = Subscriber(cluster_client)
    try:
        games: dict[str, dict[str, Any]] = {}
        owners: set[int] = set()
        while len(owners) < MASTERS:  # games until one lives on each master
            game = client_a.create_game(seats=HUMANS)
            owner = cluster_client.get_node_from_key(game_key(game["game_id"]))
            assert owner is not None
            owners.add(owner.port)
            games[game["game_id"]] = game
            subscriber.add(notify_channel(game["game_id"]))
        confirmed = 0
        deadline = time.monotonic() + 10
        while confirmed < len(games) and time.monotonic() < deadline:
            message = subscriber.read()
            confirmed += message is not None and message[0] in ("subscribe", "ssubscribe") and (
                message[1] != subscriber.own)
        assert confirmed == len(games)
        for game_id, game in games.items():  # a move in each: its version 2
            seats = _seats(client_a, game)
            views = [seat.view(game_id) for seat in seats]
            seat = next(i for i, v in enumerate(views) if v["legal_actions"])
            seats[seat].act(game_id, views[seat]["legal_actions"][0], views[seat]["version"])
        expected = dict.fromkeys(games, 2)
        seen: dict[str, int] = {}
        deadline = time.monotonic() + 10  # bounded: a lost notice fails the test, not hangs it
        while seen != expected and time.monotonic() < deadline:
            message = subscriber.read()
            if message is not None and message[0] in ("message", "smessage") and (
                    gid := game_id_of_channel(message[1])) in expected:
                seen[gid] = int(message[2])
        assert seen == expected
        if subscriber.shard:  # one connection to each master, each with its games
            assert len(subscriber.pubsub.node_pubsub_mapping) == MASTERS
    finally:
        subscriber.close()
