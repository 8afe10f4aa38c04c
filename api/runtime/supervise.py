"""Counting the deaths of a supervised process (the embedded Redis, the worker processes)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


class DeathWindow:
    """The deaths within the last ``window`` seconds of ``clock``."""

    def __init__(self, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.clock = clock
        self.deaths: deque[float] = deque()

    def died(self) -> int:
        """Count a death now; the deaths within the window, this one included."""
        now = self.clock()
        self.deaths.append(now)
        while self.deaths and now - self.deaths[0] > self.window:
            self.deaths.popleft()
        return len(self.deaths)
