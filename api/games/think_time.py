"""The think time of the computer moves played in this process, for ``/metrics``.

:data:`THINK` is the histogram ``sixtysix_computer_think_seconds{level}`` (seconds of each
computer seat's move: its view and its choice) of the process: a worker observes the moves it
plays, and :mod:`api.http.metrics` exposes it (summed over the processes under gunicorn's
``PROMETHEUS_MULTIPROC_DIR``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from prometheus_client import Histogram

THINK_BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                        2.5, 5.0, 10.0)

#: The think time of the computer moves played in this process (by its workers).
THINK: Final = Histogram("sixtysix_computer_think_seconds", "Time of one computer seat's move",
                         ["level"], buckets=THINK_BUCKETS)


@contextmanager
def computer_thinking(level: str) -> Iterator[None]:
    """Time a computer seat's move into this process's :data:`THINK` histogram."""
    started = time.perf_counter()
    try:
        yield
    finally:
        THINK.labels(level).observe(time.perf_counter() - started)
