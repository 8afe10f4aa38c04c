"""The worker tier crash-loops (every worker and scheduler process killed as soon as it
starts) while two humans play a match to its end through HTTP: the web tier serves on, a
computer's game says it waits, an analysis is refused at once with ``Retry-After``,
``/readyz`` names the missing part, and once the killing stops the workers are back and
the computer moves. (The pool used to give up after 5 deaths within a minute, and
``sixtysix serve`` then stopped gunicorn too: every request was refused.)"""

from __future__ import annotations

import os
import random
import signal
import threading
from pathlib import Path
from typing import Any

import requests

from api.http.resources.analysis import POSITION_EXAMPLE
from tests.api.serving import PATIENCE, Served, launch, serve_env, stop, up, worker_pids
from tests.faults.play import TwoHumans
from tests.waiting import until

#: More deaths than the old pool allowed within its minute.
DEATHS = 6


class Killer(threading.Thread):
    """Kills every worker and scheduler process of ``served`` as soon as it is seen."""

    def __init__(self, served: Served) -> None:
        super().__init__(daemon=True)
        self.served = served
        self.done = threading.Event()
        self.kills = 0

    def run(self) -> None:
        while not self.done.wait(0.02):
            for pid in worker_pids(self.served) + worker_pids(self.served, scheduler=True):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    continue
                self.kills += 1


def _ready(url: str) -> dict[str, Any]:
    response = requests.get(f"{url}/readyz", timeout=10)
    assert response.status_code == 200, response.text  # the web tier is ready all along
    body: dict[str, Any] = response.json()
    return body


def _play_to_the_end(url: str) -> int:
    """A whole match between two humans; the number of actions it took."""
    rng = random.Random(7)
    actions = 0
    with requests.Session() as session:
        game = TwoHumans.create(session, url)
        while (response := game.move(session, url, rng)) is not None:
            assert response.status_code == 200, response.text
            actions += 1
    return actions


def test_a_crash_looping_worker_tier_leaves_the_web_tier_serving(tmp_path: Path) -> None:
    served = up(launch(tmp_path, 0, env=serve_env(
        SIXTYSIX_RESTART_MAX="1", SIXTYSIX_RATE_ADDRESS="off", SIXTYSIX_RATE_CREATE="off",
        SIXTYSIX_RATE_ACTIONS="off", SIXTYSIX_LOG_REQUESTS="0")))
    try:
        _crash_loop(served)
    finally:
        stop(served.process)


def _crash_loop(served: Served) -> None:
    url = served.url
    killer = Killer(served)
    try:
        until(lambda: _ready(url)["missing"] == [], "the worker tier runs", PATIENCE)
        killer.start()
        until(lambda: "workers" in _ready(url)["missing"], "/readyz names the workers",
              PATIENCE)
        assert _ready(url)["status"] == "degraded"

        refused = requests.post(f"{url}/v1/analysis", json=POSITION_EXAMPLE, timeout=30)
        assert refused.status_code == 503 and refused.headers["Retry-After"]
        assert refused.json()["type"].endswith("/workers-unavailable")

        created = requests.post(f"{url}/v1/games", timeout=30, json={
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "random"}],
            "first_dealer": 0}).json()  # the computer leads: its move waits
        auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        waiting = requests.get(f"{url}/v1/games/{created['game_id']}", headers=auth,
                               timeout=30).json()
        assert waiting["computers_unavailable"] and waiting["to_act"] == 1, waiting

        assert _play_to_the_end(url) > 0  # two humans play on, to the end of a match
        until(lambda: killer.kills >= DEATHS, f"{DEATHS} kills", PATIENCE)
        assert served.process.poll() is None
    finally:
        killer.done.set()
        if killer.ident is not None:
            killer.join()
    until(lambda: _ready(url)["missing"] == [], "the worker tier back", PATIENCE)
    moved = requests.get(f"{url}/v1/games/{created['game_id']}", headers=auth, timeout=60,
                         params={"after_version": waiting["version"], "wait": 30}).json()
    assert moved["version"] > waiting["version"] and not moved["computers_unavailable"]
    err = served.err()
    assert err.count("restarting it in") >= DEATHS
    assert "stopping" not in err
