"""The job of :mod:`tests.bench.bench_queue`: record how late it started (importable by both
libraries' workers; the Redis is ``SIXTYSIX_BENCH_REDIS``)."""

from __future__ import annotations

import os
import time
from typing import Final

import dramatiq
import redis
from dramatiq.brokers.redis import RedisBroker

URL: Final = os.environ.get("SIXTYSIX_BENCH_REDIS", "redis://127.0.0.1:6379/0")
#: List of the seconds each job started after its due time.
LATENCIES: Final = "bench:latency"
_client = redis.Redis.from_url(URL)


def mark(due: float) -> None:
    """Push the seconds between ``due`` (a time.time()) and now."""
    _client.rpush(LATENCIES, f"{time.time() - due:.6f}")


dramatiq.set_broker(RedisBroker(url=URL))
dramatiq_mark = dramatiq.actor(mark, actor_name="bench_mark", max_retries=0)
