"""The local cluster comes up, ``redis+cluster://`` connects, and one game's keys share a slot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from redis.cluster import RedisCluster

from api.keys import INDEXED_KEY, player_key
from api.players.store import NameTaken, Player, PlayerStore
from api.runtime.redis_connect import connect
from tests.cluster.conftest import MASTERS, LocalCluster

pytestmark = pytest.mark.cluster

# Touches two keys of one game, as a multi-key save would: both must be on the caller's slot.
TWO_KEY_SCRIPT = """
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}
"""


@pytest.fixture
def cluster_client(redis_cluster: LocalCluster) -> Iterator[RedisCluster]:
    client = connect(redis_cluster.url, socket_timeout=2.0)
    assert isinstance(client, RedisCluster)
    try:
        yield client
    finally:
        client.close()


def test_cluster_is_up_with_three_masters(cluster_client: RedisCluster) -> None:
    info = cluster_client.cluster_info()
    assert info["cluster_state"] == "ok"
    assert int(info["cluster_slots_assigned"]) == 16384
    assert len(cluster_client.get_primaries()) == MASTERS


def test_connect_reaches_every_node_from_one_startup_node(redis_cluster: LocalCluster) -> None:
    host, port = redis_cluster.startup_nodes[0]
    client = connect(f"redis+cluster://{host}:{port}")
    assert isinstance(client, RedisCluster)
    try:
        ports = {node.port for node in client.get_primaries()}
        assert ports == {p for _, p in redis_cluster.startup_nodes}
    finally:
        client.close()


def test_keys_of_one_game_share_a_slot_and_games_spread(cluster_client: RedisCluster) -> None:
    owners = set()
    for number in range(60):
        game_id = f"g{number:04d}"
        game_key, idem_key = f"sixtysix:game:{{{game_id}}}", f"sixtysix:idem:{{{game_id}}}:k"
        slot = cluster_client.keyslot(game_key)
        assert cluster_client.keyslot(idem_key) == slot
        cluster_client.set(game_key, number)
        owner = cluster_client.get_node_from_key(game_key)
        assert owner is not None
        direct = redis.Redis(host=owner.host, port=owner.port)
        try:  # the key really lives on the master that owns its slot
            assert direct.get(game_key) == str(number).encode()
        finally:
            direct.close()
        owners.add(owner.port)
    assert len(owners) == MASTERS


def test_lua_script_touches_two_keys_of_one_game(cluster_client: RedisCluster) -> None:
    script = cluster_client.register_script(TWO_KEY_SCRIPT)
    keys = ["sixtysix:game:{lua1}", "sixtysix:idem:{lua1}:k"]
    assert script(keys=keys, args=["state", "reply"]) == [b"state", b"reply"]
    assert cluster_client.get(keys[1]) == b"reply"


def test_lua_script_across_two_games_is_refused_by_the_server(
    cluster_client: RedisCluster,
) -> None:
    keys = ["sixtysix:game:{lua-a}", "sixtysix:game:{lua-b}"]
    assert cluster_client.keyslot(keys[0]) != cluster_client.keyslot(keys[1])
    owner = cluster_client.get_node_from_key(keys[0])
    assert owner is not None
    direct = redis.Redis(host=owner.host, port=owner.port)
    try:  # sent straight to the node, past redis-py's own check
        with pytest.raises(redis.ResponseError, match="same slot"):
            direct.eval(TWO_KEY_SCRIPT, 2, *keys, "x", "y")
    finally:
        direct.close()


def test_players_stored_before_the_skeleton_index_are_indexed_on_every_node(
        cluster_client: RedisCluster) -> None:
    """Players spread over the masters; the first creation scans them all, so a look-alike
    of any of them is taken."""
    cluster_client.delete(INDEXED_KEY)  # as before the index: the players are scanned
    names = [f"Old{chr(ord('a') + i)}name" for i in range(12)]
    for i, name in enumerate(names):
        cluster_client.hset(player_key(f"legacy{i:06d}"), mapping={
            "name": name, "kind": "human", "created_at": 1, "token_sha256": f"{i:064x}"})
    owners = {cluster_client.get_node_from_key(player_key(f"legacy{i:06d}")).name
              for i in range(len(names))}
    assert len(owners) > 1
    store = PlayerStore(cluster_client)
    for i, name in enumerate(names):
        poser = name.replace("O", "\u041e")  # a Cyrillic capital O
        with pytest.raises(NameTaken):
            store.create(Player(f"poser{i:07d}", poser, "human", 1, f"{i + 100:064x}", {}))
    assert cluster_client.get(INDEXED_KEY) == b"1"
