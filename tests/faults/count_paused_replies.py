"""How often an action's answer lies when Redis is paused while it waits for the computer.

``python -m tests.faults.count_paused_replies [TRIES] [LEVEL]`` (5 and ``strong`` by default):
each try creates a game against the computer, sends the human's first move and, 0.3 s later
(the move saved, its answer waiting for the reply), stops the redis-server with SIGSTOP until
the answer arrives; then SIGCONT. It prints each answer beside the version Redis holds, and
how many answers lied (a 503 ``store-unavailable``, "nothing was applied", for a saved move).
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis
import requests

from api.keys import game_key
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.faults.play import TIMEOUT, UNLIMITED

#: Seconds after the move is sent that Redis is stopped (its save takes a few ms).
STOP_AFTER = 0.3


def _try(url: str, admin: redis.Redis, pid: int, level: str, key: str) -> bool:
    """One try, printed; whether its answer lied."""
    created = requests.post(f"{url}/v1/games", json={
        "seats": [{"kind": "human"}, {"kind": "computer", "level": level}],
        "first_dealer": 1}, timeout=TIMEOUT).json()
    game_id, auth = created["game_id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    view = requests.get(f"{url}/v1/games/{game_id}", headers=auth, timeout=TIMEOUT).json()
    stopper = threading.Timer(STOP_AFTER, os.kill, (pid, signal.SIGSTOP))
    started = time.monotonic()
    stopper.start()
    try:
        answer = requests.post(f"{url}/v1/games/{game_id}/actions",
                               json=view["legal_actions"][0],
                               headers={**auth, "Idempotency-Key": key}, timeout=60)
    finally:
        stopper.join()
        os.kill(pid, signal.SIGCONT)
    took = time.monotonic() - started
    time.sleep(0.5)  # the worker's replies, if any, once Redis goes on
    stored = int(admin.hget(game_key(game_id), "v") or 0)
    body = answer.json()
    told = body.get("type", f"version {body.get('version')}")
    print(f"{answer.status_code} {told} after {took:.1f} s; before {view['version']}, "
          f"stored {stored}")
    return (answer.status_code == 503 and str(told).endswith("/store-unavailable")
            and stored != view["version"])


def main(tries: int, level: str) -> None:
    lied = 0
    with (EmbeddedRedis(Path(tempfile.mkdtemp()) / "redis", appendonly=False) as own,
          LocalServer(own.url, UNLIMITED) as server):
        admin = redis.Redis.from_url(own.url)
        pid = int(admin.info("server")["process_id"])
        for i in range(tries):
            lied += _try(server.url, admin, pid, level, f"paused-reply-{i}")
    print(f"{lied} of {tries} answers lied")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5,
         sys.argv[2] if len(sys.argv) > 2 else "strong")
