"""How much work a computer move gets: the operator's settings and the share a move's deadline
leaves it.

A level's work (:class:`engine.ai.player.Level`: its work budget in work units, its cap of sampled
deals and of talon-search nodes, its CPU cap in ms; a Tausendeins level's playouts, solved deals
and nodes) is what it spends when nothing presses. The operator sets, per worker process
(``api.config``):

* ``SIXTYSIX_THINK_SCALE``: every level's work and CPU cap multiplied by it (1: as measured in
  docs/strength.md; 0.5 halves the think time, and the strength with it);
* ``SIXTYSIX_MOVE_CPU_MS``: a cap of CPU ms per move over every level's own (0: none).

A move that answers a human (:mod:`api.worker.deadline`) also gets a *share* of that work, at
most 1 and at least ``SIXTYSIX_THINK_FLOOR``, and a CPU cap of the time left to its deadline,
at which its sampling also stops on the wall clock.
:func:`scaled` applies both to a level; at least one deal is always sampled.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from engine.ai.player import Level
from engine.tausendeins.ai.player import Level as T1001Level

#: The least CPU cap (ms) a move gets, however close its deadline: one deal's worth.
MIN_CAP_MS: Final = 5.0


class ThinkSettingError(ValueError):
    """A think-time setting has a value it may not have; the message names it."""


@dataclass(frozen=True, slots=True)
class ThinkSettings:
    """The operator's think-time settings of a worker process (see the module)."""

    #: ``SIXTYSIX_THINK_SCALE``: every level's work and CPU cap times this.
    scale: float = 1.0
    #: ``SIXTYSIX_MOVE_CPU_MS``: CPU ms a move stops at whatever its level (0: none).
    cpu_cap_ms: int = 0
    #: ``SIXTYSIX_REPLY_TARGET``: seconds from a human's action to the computers' reply
    #: (the p99 aimed at), the queue's wait included.
    reply_target: float = 1.5
    #: ``SIXTYSIX_THINK_FLOOR``: the least share of its work a move answering a human gets.
    floor: float = 0.125

    def __post_init__(self) -> None:
        if not 0 < self.scale <= 16:
            raise ThinkSettingError(f"SIXTYSIX_THINK_SCALE must be above 0 and at most 16; "
                                    f"got {self.scale!r}")
        if self.cpu_cap_ms < 0:
            raise ThinkSettingError(f"SIXTYSIX_MOVE_CPU_MS must be 0 (none) or more; got "
                                    f"{self.cpu_cap_ms!r}")
        if not 0 < self.reply_target <= 600:
            raise ThinkSettingError(f"SIXTYSIX_REPLY_TARGET must be seconds above 0, at most "
                                    f"600; got {self.reply_target!r}")
        if not 0 < self.floor <= 1:
            raise ThinkSettingError(f"SIXTYSIX_THINK_FLOOR must be above 0 and at most 1; got "
                                    f"{self.floor!r}")

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> ThinkSettings:
        """From :func:`api.config.from_env`'s settings."""
        return cls(float(settings["SIXTYSIX_THINK_SCALE"]), int(settings["SIXTYSIX_MOVE_CPU_MS"]),
                   float(settings["SIXTYSIX_REPLY_TARGET"]),
                   float(settings["SIXTYSIX_THINK_FLOOR"]))

    def think(self, share: float = 1.0, deadline_ms: float | None = None) -> Think:
        """A move's :class:`Think`: ``share`` of the work, the operator's cap, and with
        ``deadline_ms`` (the time left to its deadline; ``None``: no deadline) a cap of that
        many CPU ms and a stop at that wall-clock time."""
        cap = min(self.cpu_cap_ms or math.inf, math.inf if deadline_ms is None else deadline_ms)
        until = None if deadline_ms is None else (
            time.perf_counter() + max(deadline_ms, MIN_CAP_MS) / 1000)
        return Think(self.scale * share, 0.0 if cap == math.inf else max(cap, MIN_CAP_MS),
                     self.scale, until)


@dataclass(frozen=True, slots=True)
class Think:
    """What one move spends beyond its level: ``work`` times the level's work (the operator's
    scale times the move's share), its CPU cap times ``scale``, at most ``cap_ms`` CPU ms (0:
    no cap beyond the level's), and sampling stops at ``until`` (a ``time.perf_counter()``,
    the reply's deadline; ``None``: none; Tausendeins' levels have no time stop)."""

    work: float = 1.0
    cap_ms: float = 0.0
    scale: float = 1.0
    until: float | None = None


#: A move with its level's own work: no setting, no deadline.
FULL: Final = Think()


def _times(value: int, factor: float) -> int:
    """``value`` times ``factor``, at least 1 (0 stays 0: no such bound)."""
    return max(1, round(value * factor)) if value else 0


def scaled(lv: Level, think: Think) -> Level:
    """``lv`` with ``think`` applied: work budget, deals and talon nodes times ``think.work``,
    its CPU cap times ``think.scale`` and within ``think.cap_ms``. ``random`` is as it is."""
    if think == FULL or lv.name == "random":
        return lv
    cap = lv.budget_ms * think.scale
    if think.cap_ms:
        cap = min(cap, think.cap_ms)
    return replace(lv, work=_times(lv.work, think.work),
                   max_samples=_times(lv.max_samples, think.work),
                   max_nodes=_times(lv.max_nodes, think.work), budget_ms=cap)


def scaled_1001(lv: T1001Level, think: Think) -> T1001Level:
    """A Tausendeins level with its playouts, solved deals, nodes and bid deals times
    ``think.work`` (its levels have no time budget)."""
    if think == FULL:
        return lv
    return replace(lv, playouts=_times(lv.playouts, think.work),
                   solve_nodes=_times(lv.solve_nodes, think.work),
                   solve_samples=_times(lv.solve_samples, think.work),
                   bid_samples=_times(lv.bid_samples, think.work))
