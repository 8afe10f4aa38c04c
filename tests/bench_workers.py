"""Computer moves per second with 1 and 2 worker processes: ``python -m tests.bench_workers``.

Starts a real ``redis-server``; for each worker count, ``--games`` games of a human against a
``--level`` computer are created (through :mod:`api.service`, as the web tier does) and a
driver thread plays the human of every game whose human is to act (a random legal action,
saved with :func:`api.service.act`, then the move job enqueued), so the queue never runs dry.
After ``--duration`` seconds it counts the computer moves saved (every save but the driver's)
and prints moves/s per worker count and their ratio. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis

from api.redis_server import EmbeddedRedis
from api.service import act, computer_to_move, create_game, request_computers
from api.store import GameStore, VersionConflict
from api.worker.queue import TaskQueue
from api.worker.run import WorkerPool, queue_url
from engine import legal_actions

ROOT = Path(__file__).resolve().parents[1]
BODY = {"variant": "sixty-six", "rules": {}, "first_dealer": 1,
        "settings": {"point_counter": True, "hint_66": False, "auto_continue": True}}


def _drive(store: GameStore, queue: TaskQueue, ids: list[str], stop: threading.Event,
           human_saves: list[int]) -> None:
    rng = random.Random(1)
    while not stop.is_set():
        idle = True
        for game_id in ids:
            game = store.load(game_id)
            if game.state.over or computer_to_move(game.state, game.meta) is not None:
                continue
            legal = legal_actions(game.state, 0)
            if not legal:
                continue
            try:
                saved = act(store, game, 0, rng.choice(legal))
            except VersionConflict:
                continue
            human_saves[0] += 1
            request_computers(queue, saved)
            idle = False
        if idle:
            time.sleep(0.001)


def measure(server: EmbeddedRedis, workers: int, games: int, level: str,
            duration: float) -> float:
    client = redis.Redis.from_url(server.url)
    client.flushdb()
    store, queue = GameStore(client, 3600), TaskQueue(client)
    env = {**os.environ, "REDIS_URL": server.url, "SIXTYSIX_LOG_LEVEL": "warning",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    assert queue_url(env) == server.url
    with WorkerPool(workers, env, lambda line: print(line, file=sys.stderr), scheduler=False):
        time.sleep(3)  # the workers start
        ids = []
        for _ in range(games):
            body = {**BODY, "seats": [{"kind": "human"}, {"kind": "computer", "level": level}]}
            game, _ = create_game(store, body)
            request_computers(queue, game)
            ids.append(game.game_id)
        human_saves = [0]
        stop = threading.Event()
        driver = threading.Thread(target=_drive, args=(store, queue, ids, stop, human_saves))
        start = time.monotonic()
        first = sum(store.version(i) for i in ids)
        driver.start()
        time.sleep(duration)
        stop.set()
        driver.join()
        last = sum(store.version(i) for i in ids)
        elapsed = time.monotonic() - start
    client.close()
    return (last - first - human_saves[0]) / elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--duration", type=float, default=20.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp)) as server:
        rates = {n: measure(server, n, args.games, args.level, args.duration) for n in (1, 2)}
    for n, rate in rates.items():
        print(f"{n} worker process{'es' if n > 1 else '  '}: {rate:7.1f} {args.level} "
              f"computer moves/s ({args.games} games, {args.duration:g} s)")
    print(f"ratio 2/1: {rates[2] / rates[1]:.2f}  (os.cpu_count() = {os.cpu_count()})")


if __name__ == "__main__":
    main()
