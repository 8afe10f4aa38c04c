"""Waiting in tests for what happens out of the test's hands (a worker's save, a clock job,
a server process starting): poll with a bound, never sleep a guessed time."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


#: Seconds :func:`until` waits by default: far above a worker's job or a 1 s test clock.
PATIENCE: float = 30.0


def until(probe: Callable[[], T | None], what: str, patience: float = PATIENCE,
          interval: float = 0.1) -> T:
    """The first true answer of ``probe``, asked every ``interval`` seconds; an
    AssertionError naming ``what`` after ``patience`` seconds without one."""
    end = time.monotonic() + patience
    while True:
        found = probe()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"no {what} within {patience} s")
        time.sleep(interval)


def eventually(check: Callable[[], T], patience: float, interval: float = 0.05) -> T:
    """``check()``'s value once it passes (raises no AssertionError); its last failure
    after ``patience`` seconds."""
    end = time.monotonic() + patience
    while True:
        try:
            return check()
        except AssertionError:
            if time.monotonic() > end:
                raise
            time.sleep(interval)
