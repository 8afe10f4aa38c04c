"""gunicorn's gevent worker with problem+json error pages (see :mod:`api.runtime.gunicorn_worker`)
and a read timeout on every connection.

gunicorn's ``GeventWorker`` monkey-patches the standard library (sockets, ``select``,
``threading``, ``time.sleep``) in ``init_process``, before it makes the app; the master has
patched itself the same way before it imported the app's modules (``deploy/gunicorn.conf.py``,
``on_starting``), so redis-py, the long-poll waiter's thread and its locks are all gevent's: a
long-poll or an open stream holds a greenlet, not a thread.

gunicorn's gevent worker reads a connection without a timeout: a client that sends part of a
request (its head or its body) and stalls held its greenlet and socket for ever. Here every
read and write of a connection gives up after ``SIXTYSIX_READ_TIMEOUT`` seconds without a
byte (default :data:`api.runtime.gunicorn_worker.READ_TIMEOUT`): a stalled body is answered
408 ``request-timeout`` (:mod:`api.http.body`) and its connection closed; a stalled head is
closed. The wait for a kept-alive connection's next request stays gunicorn's ``keepalive``; a
long-poll or a stream waits without reading, and sends at least every heartbeat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gevent  # type: ignore[import-untyped]  # no stubs
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

from api.runtime.gunicorn_worker import ProblemPages, read_timeout


class ProblemGeventWorker(ProblemPages, GeventWorker):  # type: ignore[misc]
    """gunicorn's ``gevent`` worker with problem+json error pages and a read timeout."""

    read_timeout: float

    def init_process(self) -> None:
        self.read_timeout = read_timeout()
        super().init_process()

    def soon(self, task: Callable[[Any], None], arg: Any) -> None:
        """Run ``task(arg)`` in a greenlet (a thread's start blocks, which gevent refuses in
        a signal handler)."""
        gevent.spawn(task, arg)

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        client.settimeout(self.read_timeout)  # instead of GeventWorker's setblocking(1)
        AsyncWorker.handle(self, listener, client, addr)
