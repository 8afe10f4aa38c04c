"""``python -m api.worker.probe``: the health check of a worker container or pod.

It answers whether a worker process of this host (the container's or the pod's hostname, the
first part of each beat's member: :class:`api.worker.tier.Heartbeat`) beat within
:data:`api.worker.tier.BEAT_WINDOW` seconds in the queue's Redis (``QUEUE_URL``, else
``REDIS_URL``; with several shards, in any of them). Exit status 0: one did; 1: none did
(the pool's processes died, hang before their first beat, or cannot reach Redis); with
``--redis-down-ok`` a Redis that cannot be asked exits 0 as well (a liveness probe: restarting
the worker would not bring Redis back, and a restarted pod waits out the kubelet's back-off
after Redis returns). One line on stdout says why.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import time
from collections.abc import Mapping, Sequence

import redis

from api.config import DEFAULTS
from api.keys import tier_key
from api.runtime.redis_connect import connect
from api.worker.tier import BEAT_WINDOW, WORKERS


def probe_url(env: Mapping[str, str]) -> str:
    """The queue's Redis as :func:`api.worker.run.queue_url` reads it (``QUEUE_URL``, else
    ``REDIS_URL``, else the default), without importing the worker's modules: an exec probe
    runs every few seconds, and importing :mod:`api.worker.run` costs about a second of CPU."""
    return (env.get("QUEUE_URL") or env.get("REDIS_URL") or DEFAULTS["REDIS_URL"]).strip()


def beating(client: redis.Redis | redis.RedisCluster, host: str, now: float) -> int:
    """How many worker processes of ``host`` beat within :data:`BEAT_WINDOW` seconds of ``now``
    (seconds since the epoch)."""
    members = client.zrangebyscore(tier_key(WORKERS), now - BEAT_WINDOW, "+inf")
    prefix = f"{host}:"
    return len([m for m in members
                if (m.decode() if isinstance(m, bytes) else str(m)).startswith(prefix)])


def main(argv: Sequence[str] | None = None) -> int:
    """Check this host's worker processes; the exit status (module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m api.worker.probe", description=__doc__)
    parser.add_argument("--redis-down-ok", action="store_true",
                        help="exit 0 when Redis cannot be asked (for a liveness probe)")
    args = parser.parse_args(argv)
    host = socket.gethostname()
    timeout = float(os.environ.get("SIXTYSIX_REDIS_TIMEOUT", DEFAULTS["SIXTYSIX_REDIS_TIMEOUT"]))
    count = 0
    for url in probe_url(os.environ).split():  # the shards (api.worker.queue.queue_urls)
        client = connect(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        try:
            count += beating(client, host, time.time())
        except redis.RedisError as exc:
            print(f"redis unreachable ({type(exc).__name__}): the workers of {host} cannot "
                  "be judged")
            return 0 if args.redis_down_ok else 1
        finally:
            client.close()
    if count:
        print(f"ok: {count} worker process(es) of {host} beat within {BEAT_WINDOW:g} s")
        return 0
    print(f"no worker process of {host} beat within {BEAT_WINDOW:g} s")
    return 1


if __name__ == "__main__":
    sys.exit(main())
