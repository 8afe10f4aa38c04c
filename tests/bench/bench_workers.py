"""Computer moves per second with 1 and 2 worker processes: ``python -m tests.bench.bench_workers``.

Starts a real ``redis-server``; for each worker count it starts the pool (no scheduler),
creates ``--games`` games (through :mod:`api.games.service`, as the web tier does) in which a
``--level`` computer leads the first trick, enqueues all their move jobs at once and times
until every job has found a human to act (the queue's awaiting set is empty). Moves are
counted from the saves (each computer move is one). The driver does nothing while the
workers run, so the figure is the workers' own. Prints moves/s per worker count and their
ratio, with the cores the workers used meanwhile and those every other process
used (on a shared machine the ratio is only as good as the cores the workers got). Worker
processes run at the priority ``sixtysix serve`` gives them (``SCHED_IDLE``, niced; set
``SIXTYSIX_WORKER_POLICY=nice SIXTYSIX_WORKER_NICE=0`` to measure them against other work on
equal terms). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import redis

from api.games.service import create_game, request_computers
from api.games.store import GameStore
from api.keys import AWAITING
from api.runtime.redis_server import EmbeddedRedis
from api.worker.queue import TaskQueue
from api.worker.run import WorkerPool
from tests.bench.bench_http import _cpu_seconds, _machine_busy

ROOT = Path(__file__).resolve().parents[2]
BODY = {"variant": "sixty-six", "rules": {}, "first_dealer": 1,  # seat 0 leads
        "settings": {"point_counter": True, "hint_66": False, "auto_continue": False}}


def measure(server: EmbeddedRedis, workers: int, games: int, level: str
            ) -> tuple[int, float, float, float]:
    """The computer moves made, the seconds they took, the cores the worker processes used
    meanwhile and the cores every other process of the machine used."""
    client = redis.Redis.from_url(server.url)
    client.flushdb()
    store, queue = GameStore(client, 3600), TaskQueue(client)
    env = {**os.environ, "REDIS_URL": server.url, "SIXTYSIX_LOG_LEVEL": "warning",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    body = {**BODY, "seats": [{"kind": "computer", "level": level}, {"kind": "human"}]}
    made = [create_game(store, body)[0] for _ in range(games)]
    with WorkerPool(workers, env, lambda line: print(line, file=sys.stderr),
                    scheduler=False) as pool:
        time.sleep(3)  # the workers start
        pids = [child.pid for child in pool.children]
        cpu, busy = _cpu_seconds(pids), _machine_busy()
        start = time.monotonic()
        for game in made:
            request_computers(queue, game)
        while client.zcard(AWAITING):
            time.sleep(0.01)
        elapsed = time.monotonic() - start
        used = (_cpu_seconds(pids) - cpu) / elapsed
        others = (_machine_busy() - busy) / elapsed - used
    moves = sum(store.version(game.game_id) - 1 for game in made)
    client.close()
    return moves, elapsed, used, others


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--level", default="normal")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp)) as server:
        rates = {}
        for n in (1, 2):
            moves, seconds, used, others = measure(server, n, args.games, args.level)
            rates[n] = moves / seconds
            print(f"{n} worker process{'es' if n > 1 else '  '}: {moves} {args.level} moves in "
                  f"{seconds:.2f} s = {rates[n]:7.1f} moves/s; the workers used {used:.2f} "
                  f"cores, other processes {others:.2f}; load average "
                  f"{os.getloadavg()[0]:.2f}")
    print(f"ratio 2/1: {rates[2] / rates[1]:.2f}  (os.cpu_count() = {os.cpu_count()})")


if __name__ == "__main__":
    main()
