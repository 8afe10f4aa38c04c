"""The CPU priority of worker processes: ``SIXTYSIX_WORKER_POLICY`` (``idle``, the default,
or ``nice``) and ``SIXTYSIX_WORKER_NICE`` (0-19, default 10), applied when a worker starts.

A worker's search is CPU work with no deadline tighter than a human's patience; the web tier's
requests (and Redis) are small and wait on the CPU behind it when both share cores
(``sixtysix serve`` runs one worker per core beside gunicorn and its Redis). So a worker
process first adds ``SIXTYSIX_WORKER_NICE`` to its nice value, then, with ``idle``, moves to
Linux's ``SCHED_IDLE`` policy:

* ``SCHED_IDLE``: the process runs only when no normal process of its group (its session
  or cgroup: ``sixtysix serve``'s gunicorn, Redis, scheduler) wants the CPU, and a normal
  process that wakes preempts it at once rather than waiting for its time slice to end.
  The computers still use every cycle the web tier leaves. Linux lets any process lower
  itself to it (no privilege); threads started later (the sweep) inherit it.
* where ``SCHED_IDLE`` is refused (not Linux, a seccomp profile, a kernel without it) the
  worker stays at the normal policy with the nice increment, and says so in its log: on
  Linux a nice-10 process gets about a tenth of a core's share against a nice-0 one. With
  ``nice`` that is all that is done.

Either orders processes only within one scheduling group: with ``sched_autogroup`` each
session, under systemd each unit's cgroup, in a container each pod competes with the others as
a whole, whatever its processes' policy (the deploy guide sets the units' ``CPUWeight=``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from engine.numerals import parse_natural

#: Added to a worker process's nice value unless ``SIXTYSIX_WORKER_NICE`` says otherwise.
DEFAULT_NICE: Final = 10
IDLE: Final = "idle"
NICE: Final = "nice"
#: The values of ``SIXTYSIX_WORKER_POLICY``; the first is the default.
POLICIES: Final = (IDLE, NICE)


class PriorityError(ValueError):
    """``SIXTYSIX_WORKER_NICE`` or ``SIXTYSIX_WORKER_POLICY`` has a value it may not have."""


@dataclass(frozen=True, slots=True)
class Priority:
    """What a worker process runs at: its scheduling policy's name (``SCHED_IDLE`` or
    ``SCHED_OTHER``), its nice value, and why it is not at the policy asked for (or ``""``)."""

    policy: str
    nice: int
    fallback: str = ""


def worker_nice(env: Mapping[str, str]) -> int:
    """The increment ``env`` asks for (:data:`DEFAULT_NICE` when unset)."""
    raw = env.get("SIXTYSIX_WORKER_NICE", "").strip()
    if not raw:
        return DEFAULT_NICE
    nice = parse_natural(raw)
    if nice is None or nice > 19:
        raise PriorityError(f"SIXTYSIX_WORKER_NICE must be a whole number from 0 to 19; "
                            f"got {raw!r}")
    return nice


def worker_policy(env: Mapping[str, str]) -> str:
    """The policy ``env`` asks for: :data:`IDLE` (when unset) or :data:`NICE`."""
    raw = env.get("SIXTYSIX_WORKER_POLICY", "").strip().lower()
    if not raw:
        return IDLE
    if raw not in POLICIES:
        raise PriorityError(f"SIXTYSIX_WORKER_POLICY must be {' or '.join(POLICIES)}; "
                            f"got {raw!r}")
    return raw


def lower_priority(env: Mapping[str, str]) -> Priority:
    """Add :func:`worker_nice` to this process's nice value, then move it to ``SCHED_IDLE``
    if :func:`worker_policy` is :data:`IDLE` and the system allows it; what it runs at."""
    policy = worker_policy(env)  # both read before anything changes: a bad value changes nothing
    nice = os.nice(worker_nice(env))
    if policy != IDLE:
        return Priority("SCHED_OTHER", nice)
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is None:
        return Priority("SCHED_OTHER", nice, "this system has no SCHED_IDLE")
    try:
        os.sched_setscheduler(0, idle, os.sched_param(0))
    except OSError as exc:  # EPERM from a seccomp filter, EINVAL from an old kernel
        return Priority("SCHED_OTHER", nice, f"SCHED_IDLE refused ({exc.strerror or exc})")
    return Priority("SCHED_IDLE", nice)
