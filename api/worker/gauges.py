"""The task queue's gauges for ``/metrics`` (:mod:`api.http.metrics`), per shard, read from
each shard's Redis at scrape time (one pipelined round trip per shard):

* ``sixtysix_queue_jobs{shard, queue}`` — jobs waiting in ``moves`` (computer moves and due
  clock jobs) and ``advice`` (hints and analyses);
* ``sixtysix_queue_workers{shard}`` — worker processes that beat within
  :data:`api.worker.tier.BEAT_WINDOW` seconds;
* ``sixtysix_queue_up{shard}`` — 1 when the shard's Redis answered, 0 when not (its other
  gauges are then left out).

``shard`` counts from 0 in ``QUEUE_URL``'s order (:class:`api.worker.queue.TaskQueue`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import redis
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from api.keys import tier_key
from api.worker.queue import TaskQueue
from api.worker.tier import BEAT_WINDOW, WORKERS


class QueueCollector(Collector):
    """The gauges above; a shard's Redis error is passed to ``on_error`` and reads as down."""

    def __init__(self, queue: TaskQueue, on_error: Callable[[redis.RedisError], None]) -> None:
        self._queue = queue
        self._on_error = on_error

    def collect(self) -> Iterator[GaugeMetricFamily]:
        jobs = GaugeMetricFamily("sixtysix_queue_jobs", "Jobs waiting in a shard's queue",
                                 labels=["shard", "queue"])
        workers = GaugeMetricFamily("sixtysix_queue_workers",
                                    "Worker processes of a shard that beat lately",
                                    labels=["shard"])
        up = GaugeMetricFamily("sixtysix_queue_up", "Whether a shard's Redis answered",
                               labels=["shard"])
        for index, shard in enumerate(self._queue.shards):
            label = str(index)
            try:
                with shard.redis.pipeline(transaction=False) as pipe:
                    pipe.llen(shard.moves.key)
                    pipe.llen(shard.advice.key)
                    pipe.zcount(tier_key(WORKERS), time.time() - BEAT_WINDOW, "+inf")
                    moves, advice, beating = pipe.execute()
            except redis.RedisError as exc:
                self._on_error(exc)
                up.add_metric([label], 0)
                continue
            up.add_metric([label], 1)
            jobs.add_metric([label, "moves"], moves)
            jobs.add_metric([label, "advice"], advice)
            workers.add_metric([label], beating)
        yield from (jobs, workers, up)
