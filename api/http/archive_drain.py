"""The web tier's drain of the archive, for a deployment with no worker process running.

The workers' sweep archives the finished games (:meth:`api.archive.sweep.Archiver.sweep`);
with none running (an operator started only web processes, ``sixtysix serve
--computer-workers 0``, a worker tier down) a web process does it: after a request, at most
every ``every`` seconds, it starts a thread that runs one sweep if no worker process beats
(:meth:`api.worker.tier.TierWatch.workers_down`; no task queue at all counts as none), and
writes the ratings', leaderboard's, tour's and tables' outboxes too. The
sweep's Redis lock lets one process drain at a time, so the web processes and workers never
write the same games at once. No request waits for it.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Final

from flask import Flask, Response

from api.archive.sweep import Archiver
from api.worker.queue import TaskQueue

log = logging.getLogger(__name__)


class WebDrain:
    """Sweeps of ``archiver`` by a web process, at most every ``every`` seconds, while
    ``queue`` (``None``: there is none) has no worker process."""

    def __init__(self, archiver: Archiver, queue: TaskQueue | None, every: float) -> None:
        self.archiver = archiver
        self.queue = queue
        self.every = every
        self._lock = threading.Lock()
        self._last = time.monotonic()
        self._running: threading.Thread | None = None
        self._closed = False

    def poke(self) -> None:
        """Start a sweep in a thread of its own if one is due and none runs."""
        with self._lock:
            now = time.monotonic()
            if (self._closed or now - self._last < self.every
                    or (self._running is not None and self._running.is_alive())):
                return
            self._last = now
            self._running = threading.Thread(target=self.run, daemon=True,
                                             name="sixtysix-archive-drain")
            self._running.start()

    def run(self) -> int:
        """One sweep if no worker process runs (the finished games, then the standings'
        outboxes); the number of games written."""
        try:
            if self.queue is not None and not self.queue.tier.workers_down():
                return 0
            written = self.archiver.sweep()
            self.archiver.store_standings()
            return written
        except Exception:  # a Redis outage or a bug: log it, sweep again later
            log.exception("the web tier's archive drain failed")
            return 0

    def close(self) -> None:
        """Start no more sweeps and wait for the running one."""
        with self._lock:
            self._closed = True
            running = self._running
        if running is not None:
            running.join()


#: ``app.extensions`` key of the app's :class:`WebDrain`.
EXTENSION: Final = "sixtysix_archive_drain"


def init(app: Flask, archiver: Archiver | None, queue: TaskQueue | None, every: float) -> None:
    """Poke a :class:`WebDrain` after each of ``app``'s requests, with an ``archiver`` and
    ``every`` above 0 (seconds); :func:`close` stops it."""
    if archiver is None or every <= 0:
        return
    drain = app.extensions[EXTENSION] = WebDrain(archiver, queue, every)

    @app.after_request
    def poke(response: Response) -> Response:
        drain.poke()
        return response


def close(app: Flask) -> None:
    """Stop ``app``'s drain, if any, and wait for its running sweep."""
    drain: WebDrain | None = app.extensions.get(EXTENSION)
    if drain is not None:
        drain.close()
