"""The worker's health check (``python -m api.worker.probe``, the compose ``worker`` service's
and the k8s worker pods' probe) against the session's real redis-server and worker processes."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import redis

from api.keys import tier_key
from api.runtime.redis_server import EmbeddedRedis
from api.worker.probe import probe_url
from api.worker.run import WorkerPool, queue_url
from api.worker.tier import BEAT_WINDOW, WORKERS, Heartbeat
from tests.conftest import ROOT, worker_env


def _probe(redis_url: str, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {**worker_env(redis_url), "SIXTYSIX_REDIS_TIMEOUT": "1"}
    return subprocess.run([sys.executable, "-m", "api.worker.probe", *flags], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)


def test_the_probe_passes_while_this_hosts_workers_beat(redis_server: EmbeddedRedis,
                                                        workers: WorkerPool) -> None:
    deadline = time.monotonic() + 30  # the session's workers may still be starting
    while (done := _probe(redis_server.url)).returncode and time.monotonic() < deadline:
        time.sleep(0.5)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok: ") and socket.gethostname() in done.stdout


def test_the_probe_fails_without_a_fresh_beat_of_this_host(tmp_path: Path) -> None:
    """On a server of its own (no session worker beats there): no beat, another host's beat
    and a beat older than the window all fail; this host's own beat passes, and fails again
    once it stops."""
    with EmbeddedRedis(data_dir=tmp_path, appendonly=False) as server:
        _fresh_beats_only(server.url, redis.Redis.from_url(server.url))


def _fresh_beats_only(url: str, redis_client: redis.Redis) -> None:
    assert _probe(url).returncode == 1
    now = time.time()
    redis_client.zadd(tier_key(WORKERS), {"another-host:1:ab": now,
                                          f"{socket.gethostname()}:1:ab": now - BEAT_WINDOW - 1})
    failed = _probe(url)
    assert failed.returncode == 1 and failed.stdout.startswith("no worker process of")
    with Heartbeat(redis_client, WORKERS):
        assert _probe(url).returncode == 0
    assert _probe(url).returncode == 1


def test_an_unreachable_redis_fails_unless_told_it_may() -> None:
    with socket.socket() as sock:  # a loopback port nothing listens on
        sock.bind(("127.0.0.1", 0))
        url = f"redis://127.0.0.1:{sock.getsockname()[1]}/0"
    down = _probe(url)
    assert down.returncode == 1 and down.stdout.startswith("redis unreachable")
    assert _probe(url, "--redis-down-ok").returncode == 0



def test_the_probe_asks_the_redis_the_workers_beat_in() -> None:
    for env in ({}, {"REDIS_URL": "redis://r:1/2"}, {"REDIS_URL": "redis://r/0", "QUEUE_URL": ""},
                {"REDIS_URL": "redis://r/0", "QUEUE_URL": " redis://q/1 "}):
        assert probe_url(env) == queue_url(env)
