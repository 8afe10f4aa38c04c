"""The CPU priority of worker processes: ``SIXTYSIX_WORKER_NICE`` (0-19, default 10) is added
to a worker process's nice value when it starts.

A worker's search is CPU work with no deadline tighter than a human's patience; the web tier's
requests are small and wait on the CPU behind it when both share cores (``sixtysix serve`` runs
one worker per core beside gunicorn). Niced, the workers take the CPU the web tier leaves: on
Linux a nice-10 process gets about a tenth of a core's share against a nice-0 one, so a waiting
request runs first while the computers still use every idle cycle.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final

#: Added to a worker process's nice value unless ``SIXTYSIX_WORKER_NICE`` says otherwise.
DEFAULT_NICE: Final = 10


class PriorityError(ValueError):
    """``SIXTYSIX_WORKER_NICE`` is not a whole number from 0 to 19."""


def worker_nice(env: Mapping[str, str]) -> int:
    """The increment ``env`` asks for (:data:`DEFAULT_NICE` when unset)."""
    raw = env.get("SIXTYSIX_WORKER_NICE", "").strip()
    if not raw:
        return DEFAULT_NICE
    if not raw.isdigit() or int(raw) > 19:
        raise PriorityError(f"SIXTYSIX_WORKER_NICE must be a whole number from 0 to 19; "
                            f"got {raw!r}")
    return int(raw)


def lower_priority(env: Mapping[str, str]) -> int:
    """Add :func:`worker_nice` to this process's nice value; the new nice value."""
    return os.nice(worker_nice(env))
