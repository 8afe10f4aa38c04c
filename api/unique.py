"""Ids unique to this process's lifetime and across processes: :func:`new_id`.

32 lower-case hex digits: 16 random ones drawn once per process (again in a forked child)
and a 16-digit counter, so ids never repeat across processes in practice and cost no random
draw (no system call) each. They identify; they are no secret (tokens come from
:mod:`secrets`).
"""

from __future__ import annotations

import itertools
import os
from typing import Final


class _Ids:
    """Fresh ids of this process: a random prefix and a counter; a forked child draws its
    own prefix."""

    def __init__(self) -> None:
        self.reset()
        os.register_at_fork(after_in_child=self.reset)

    def reset(self) -> None:
        self.prefix = os.urandom(8).hex()
        self.counter = itertools.count()

    def next(self) -> str:
        return f"{self.prefix}{next(self.counter) & 0xFFFF_FFFF_FFFF_FFFF:016x}"


_ids: Final = _Ids()


def new_id() -> str:
    """A fresh id (see the module docstring)."""
    return _ids.next()
