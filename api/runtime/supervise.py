"""Supervising child processes: counting the deaths of the embedded Redis, pacing the restarts
of the worker processes, and tying every child's life to this process."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable

#: ``prctl`` option: the signal the kernel sends a process when its parent dies (Linux).
PR_SET_PDEATHSIG = 1


class SettingError(Exception):
    """A supervision setting from the environment is unusable: the message is the line."""


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


class Backoff:
    """The pause before restarting a process that died: ``first`` seconds, doubled after
    every death up to ``cap``; back to ``first`` once a process has run ``stable`` seconds
    (a crash loop is paced, never given up on)."""

    def __init__(self, first: float, cap: float, stable: float) -> None:
        self.first = first
        self.cap = max(cap, first)
        self.stable = stable
        self.delay = first

    def died(self, lived: float) -> float:
        """The pause before the next start of a process that died after ``lived`` seconds."""
        if lived >= self.stable:
            self.delay = self.first
        pause, self.delay = self.delay, min(self.delay * 2, self.cap)
        return pause


def die_with_parent(signum: int = signal.SIGTERM, deaf_to_interrupt: bool = False
                    ) -> Callable[[], None] | None:
    """A ``preexec_fn`` for :class:`subprocess.Popen`: the child gets ``signum`` when this
    process dies, even by SIGKILL (``PR_SET_PDEATHSIG``), so no child outlives it (a stale
    Redis would hold the port and data directory of the next start). Linux sends it when the
    thread that started the child ends: start children from a thread that lives as long as
    the process (``sixtysix serve`` and ``sixtysix worker`` use their main thread). ``None``
    off Linux. ``deaf_to_interrupt``: the child starts with SIGINT ignored (until it sets a
    handler of its own)."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    parent = os.getpid()

    def preexec() -> None:
        if deaf_to_interrupt:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl: no signal will come
            os.kill(os.getpid(), signum)

    return preexec
