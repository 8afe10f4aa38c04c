"""Jobs per second and Redis commands per job on each queue shard, with 1, 2 and 3 shards:
``python -m tests.bench.bench_shards``.

Starts real ``redis-server``\\ s: one for the games and three for the queue's shards. For each
shard count ``n`` it starts the pool (one worker process per shard, no scheduler: the workers'
stand-by schedulers run) on ``QUEUE_URL`` = the first ``n`` shards, creates ``--games`` games
in which a ``--level`` computer leads the first trick, enqueues all their move jobs at once
(through :class:`api.worker.queue.TaskQueue`, as the web tier does) and times until every
shard's awaiting set is empty. A job is one game's computer move until a human is to act.
Commands are each shard's ``total_commands_processed`` over the run, less what the shard
processed idle at the same rate before the jobs (heartbeats, stand-by schedulers, blocked
reads): the jobs' own, divided by the jobs that went to that shard. On a machine of few cores
the jobs per second are the workers' CPU, not Redis: what sharding changes is each Redis's
share of the commands (a shard serves 1/n of the jobs). A benchmark, not a test.
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
from api.worker.routing import shard_index
from api.worker.run import WorkerPool

ROOT = Path(__file__).resolve().parents[2]
BODY = {"variant": "sixty-six", "rules": {}, "first_dealer": 1,  # seat 0 leads
        "settings": {"point_counter": True, "hint_66": False, "auto_continue": False}}
#: Seconds the idle command rate of each shard is measured over.
IDLE = 2.0


def _commands(client: redis.Redis) -> int:
    return int(client.info("stats")["total_commands_processed"])


def measure(games_url: str, shard_urls: list[str], games: int, level: str
            ) -> tuple[float, list[int], list[float]]:
    """The seconds the jobs took, the jobs each shard got and its commands per job."""
    data = redis.Redis.from_url(games_url)
    shards = [redis.Redis.from_url(url) for url in shard_urls]
    for client in (data, *shards):
        client.flushdb()
    store, queue = GameStore(data, 3600), TaskQueue(shards)
    env = {**os.environ, "REDIS_URL": games_url, "QUEUE_URL": " ".join(shard_urls),
           "SIXTYSIX_LOG_LEVEL": "warning",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    body = {**BODY, "seats": [{"kind": "computer", "level": level}, {"kind": "human"}]}
    made = [create_game(store, body)[0] for _ in range(games)]
    jobs = [0] * len(shards)
    for game in made:
        jobs[shard_index(game.game_id, len(shards))] += 1
    with WorkerPool(len(shards), env, lambda line: print(line, file=sys.stderr),
                    scheduler=False):
        time.sleep(3)  # the workers start
        before = [_commands(s) for s in shards]
        time.sleep(IDLE)
        idle = [(_commands(s) - b) / IDLE for s, b in zip(shards, before, strict=True)]
        before = [_commands(s) for s in shards]
        start = time.monotonic()
        for game in made:
            request_computers(queue, game)
        while any(s.zcard(AWAITING) for s in shards):
            time.sleep(0.01)
        elapsed = time.monotonic() - start
        after = [_commands(s) for s in shards]
    per_job = [(a - b - rate * elapsed) / max(n, 1)
               for a, b, rate, n in zip(after, before, idle, jobs, strict=True)]
    for client in (data, *shards):
        client.close()
    return elapsed, jobs, per_job


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--level", default="random")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        servers = [EmbeddedRedis(Path(tmp) / name, appendonly=False).start()
                   for name in ("games", "q0", "q1", "q2")]
        try:
            for n in (1, 2, 3):
                urls = [s.url for s in servers[1:n + 1]]
                seconds, jobs, per_job = measure(servers[0].url, urls, args.games, args.level)
                shares = ", ".join(f"shard {i}: {j} jobs, {c:.0f} commands/job"
                                   for i, (j, c) in enumerate(zip(jobs, per_job, strict=True)))
                print(f"{n} shard{'s' if n > 1 else ' '}: {args.games} jobs in {seconds:.2f} s "
                      f"= {args.games / seconds:6.1f} jobs/s; {shares}; load average "
                      f"{os.getloadavg()[0]:.2f} (os.cpu_count() = {os.cpu_count()})")
        finally:
            for server in servers:
                server.stop()


if __name__ == "__main__":
    main()
