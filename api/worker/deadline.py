"""A computer reply's deadline, and the share of its level's work it gets under load.

A human's action enqueues the computers' reply (:meth:`api.worker.queue.TaskQueue.enqueue_move`
stamps the job with the time it was asked); the reply is due ``SIXTYSIX_REPLY_TARGET`` seconds
(default 1.5) after that. A worker that takes the job knows how long it waited, how many move
jobs wait behind it and how many workers take them; :class:`Pace` turns that into the share
of its level's work (deals, playouts, nodes: :func:`api.games.think.scaled`) the reply gets::

    each  = (target - waited) / (waiting / workers + 1)   # seconds each job of the queue may take
    share = min(1, max(floor, PLAN * each / full))

where ``full`` is this worker's running mean (:data:`SMOOTH`) of a reply's wall-clock seconds
at its full work, measured: each reply's seconds divided by the share it had (which counts the
job's fixed cost, its loads and saves, as if it scaled too: an over-estimate that errs towards
less work). :data:`PLAN` leaves room for the replies' spread (a p99 is aimed at, not a mean:
a ``strong`` reply's CPU p99 is about 15 times its median). Each move of the reply also stops
sampling at the deadline, on the wall clock and in CPU ms of the deciding thread
(:meth:`api.games.think.ThinkSettings.think`; at least one deal), :data:`MARGIN` before it.

When ``PLAN × each`` is below ``floor × full`` even the floor cannot bring the queue in by its
deadlines (more replies wait than the workers can answer in time): the worker notes the tier
*busy* for :data:`BUSY_SECONDS` (renewed by every such job), and new games against the
computer are refused with 503 ``computers-busy`` and ``Retry-After``
(:func:`api.games.turns.refuse_when_busy`); the games under way keep being served.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from api.games.think import ThinkSettings

#: Weight of the newest reply in the running mean of a full reply's seconds.
SMOOTH: Final = 0.1
#: The share of its time a reply plans to spend on average: the rest is room for its spread.
PLAN: Final = 0.5
#: Seconds before the deadline a reply's search stops: room for its save and the notice.
MARGIN: Final = 0.15
#: Seconds the tier stays noted busy after a job that even the floor could not bring in.
BUSY_SECONDS: Final = 5


@dataclass(frozen=True, slots=True)
class Share:
    """What :meth:`Pace.share` decided for one reply: its ``share`` of the work, and whether
    even the floor cannot make the queue's deadlines (``busy``)."""

    share: float
    busy: bool


@dataclass(slots=True)
class Pace:
    """One worker's pacing: its settings and its measure of a full reply's seconds."""

    settings: ThinkSettings
    #: Running mean of a reply's wall-clock seconds at full work (0: none measured yet).
    full: float = 0.0

    def share(self, waited: float, waiting: int, workers: int) -> Share:
        """The share of a reply that waited ``waited`` seconds in the queue, with ``waiting``
        move jobs behind it and ``workers`` workers taking them."""
        each = (self.settings.reply_target - waited) / (waiting / max(workers, 1) + 1)
        if self.full <= 0:  # nothing measured yet: full work unless already late
            return Share(1.0, each <= 0)
        wanted = PLAN * each / self.full
        return Share(min(1.0, max(self.settings.floor, wanted)), wanted < self.settings.floor)

    def observe(self, seconds: float, share: float) -> None:
        """A reply at ``share`` took ``seconds`` of wall-clock time."""
        full = seconds / share
        self.full = full if self.full <= 0 else self.full + SMOOTH * (full - self.full)
