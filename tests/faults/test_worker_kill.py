"""Gunicorn workers killed (SIGKILL) while actions are in flight: every game is either fully at
the new version or untouched, and play goes on once the master has replaced the worker."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests

from api.runtime.redis_server import HOST, EmbeddedRedis
from api.runtime.serve import GUNICORN_CONF
from tests.faults.integrity import stored_version
from tests.faults.play import TwoHumans

GAMES = 12
KILLS = 3


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _workers(master: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]


def _wait_ready(url: str, master: subprocess.Popen[bytes], workers: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert master.poll() is None, "gunicorn exited"
        try:
            if requests.get(f"{url}/healthz", timeout=2).status_code == 200 and len(
                    _workers(master.pid)) == workers:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise AssertionError("gunicorn did not come up")


@pytest.fixture
def gunicorn(redis_server: EmbeddedRedis, redis_client: redis.Redis,
             tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The app under gunicorn with deploy/gunicorn.conf.py: 2 workers of 4 threads."""
    port = _free_port()
    env = {**os.environ, "REDIS_URL": redis_server.url, "SIXTYSIX_BIND": f"{HOST}:{port}",
           "WEB_CONCURRENCY": "2", "SIXTYSIX_THREADS": "4", "SIXTYSIX_LOG_REQUESTS": "0",
           "SIXTYSIX_LOG_LEVEL": "warning", "SIXTYSIX_RATE_ADDRESS": "off",
           "SIXTYSIX_RATE_CREATE": "off", "SIXTYSIX_RATE_ACTIONS": "off"}
    with (tmp_path / "gunicorn.log").open("wb") as log:
        master = subprocess.Popen([sys.executable, "-m", "gunicorn", "--config",
                                   str(GUNICORN_CONF)], env=env, stdout=log,
                                  stderr=subprocess.STDOUT)
    url = f"http://{HOST}:{port}"
    try:
        _wait_ready(url, master, 2)
        yield url, master
    finally:
        master.terminate()
        master.wait(60)


def test_killed_workers_leave_whole_games(gunicorn: tuple[str, subprocess.Popen[bytes]],
                                          redis_client: redis.Redis) -> None:
    url, master = gunicorn
    with requests.Session() as session:
        games = [TwoHumans.create(session, url) for _ in range(GAMES)]
    stop = threading.Event()
    lost = [0] * GAMES  # requests whose answer never came (the worker died under them)
    failures: list[str] = []

    def play(i: int) -> None:
        try:
            _play(i)
        except AssertionError as exc:
            failures.append(str(exc))

    def _play(i: int) -> None:
        game, rng = games[i], random.Random(i)
        while not stop.is_set():
            try:
                with requests.Session() as own:  # a fresh connection after each failure
                    while not stop.is_set():
                        response = game.move(own, url, rng)
                        if response is None:  # match over: go on with a new one
                            games[i] = game = TwoHumans.create(own, url)
                        else:
                            assert response.status_code in (200, 409, 412), response.text
            except requests.RequestException:
                lost[i] += 1
                time.sleep(0.05)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(GAMES)]
    for t in threads:
        t.start()
    try:
        for _ in range(KILLS):
            time.sleep(0.7)
            for pid in _workers(master.pid):
                os.kill(pid, signal.SIGKILL)
            _wait_ready(url, master, 2)
        time.sleep(0.5)
    finally:
        stop.set()
        for t in threads:
            t.join(60)
    assert not failures, failures
    assert sum(lost) > 0, "no request was cut off by a kill"

    with requests.Session() as session:
        for game in games:
            stored = stored_version(redis_client, game.game_id)
            assert stored >= game.acked
            view = game.view(session, url, 0)
            assert view["version"] == stored
            response = game.move(session, url, random.Random(0))  # the game plays on
            assert response is None or response.status_code == 200, response.text
            if response is not None:
                assert stored_version(redis_client, game.game_id) == stored + 1
