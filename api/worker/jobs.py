"""The jobs a worker runs: the computers' moves of a game, hints and analyses.

A worker binds its :class:`WorkerContext` (the game store, the queue it reads and the pipeline
after a save, from the composition root :mod:`api.composition`) before each job
(:mod:`api.worker.run`); a job finds it with :func:`context`.

:func:`play_computers` names the game and the version it was made for. A worker that finds
the game at another version drops the job (a duplicate, a redelivery, or a job outrun by
another worker), so no move is ever applied twice: every move is saved by
:func:`api.games.service.act` with the version check, one save per computer move, and a save that
lost the race changes nothing. While it thinks, the worker holds the game's lease; killed
mid-move it loses nothing but the move it was choosing, which the next request touching the
game, or a waiting action request, enqueues again once the lease has run out
(:func:`api.games.service.request_computers`).

:func:`play_computers` also names when the reply was asked: its deadline runs from then, and the
share of its level's work each of its moves gets is set by that deadline and the queue
(:class:`api.worker.deadline.Pace`, the context's ``pace``, which also holds the operator's
think-time settings, :mod:`api.games.think`).

:func:`clock_expired` is the clock's delayed job (:mod:`api.live.clock`): it too names the game and
the version it was scheduled at and does nothing if the game moved on (a player acted in
time, a request applied the timeout first, or a duplicate ran already).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Final

from api.archive.sweep import Archiver
from api.errors import FieldError
from api.games.advice import advise
from api.games.service import AfterSave, expire, play_computer, request_computers
from api.games.store import Game, GameNotFound, GameStore, VersionConflict
from api.games.think import ThinkSettings
from api.live import clock
from api.worker.deadline import BUSY_SECONDS, MARGIN, Pace
from api.worker.queue import Shard, TaskQueue

log = logging.getLogger(__name__)

#: What :func:`play_computers` answers (its RQ result).
DONE: Final = "done"
STALE: Final = "stale"
GONE: Final = "gone"
#: Seconds a clock job that RQ's scheduler started early waits for its deadline (due times
#: are whole seconds there); an earlier start is scheduled again.
EARLY_WAIT: Final = 2.0


@dataclass(frozen=True, slots=True)
class WorkerContext:
    store: GameStore
    queue: TaskQueue
    after_save: AfterSave
    archiver: Archiver | None = None
    pace: Pace = field(default_factory=lambda: Pace(ThinkSettings()))
    #: the shard of ``queue`` this worker serves (:class:`api.worker.queue.TaskQueue`)
    shard: int = 0

    @property
    def own(self) -> Shard:
        """The shard this worker serves: its RQ queues, its sweep and its scheduler."""
        return self.queue.shards[self.shard]


_bound = threading.local()


def bind(ctx: WorkerContext) -> None:
    """Make ``ctx`` the context of the jobs run by this thread."""
    _bound.context = ctx


def context() -> WorkerContext:
    found: WorkerContext | None = getattr(_bound, "context", None)
    if found is None:
        raise RuntimeError("no worker context bound: jobs run inside api.worker.run workers")
    return found


def play_computers(game_id: str, version: int, asked: float | None = None) -> str:
    """Play the computers of ``game_id`` from ``version`` until a human must act.

    ``asked`` (``time.time()`` when the reply was enqueued; ``None``: a job without one) starts
    the reply's deadline. Answers :data:`DONE` (a human must act, or the game is over;
    ``moves`` logged), :data:`STALE` (the game is at another version: dropped) or :data:`GONE`
    (no such game).
    """
    ctx = context()
    started = time.time()
    try:
        game = ctx.store.load(game_id)
    except GameNotFound:
        ctx.queue.settled(game_id, started)
        return GONE
    if game.version != version:
        log.info("move job of %s at version %d dropped: the game is at %d", game_id, version,
                 game.version)
        return STALE
    settings = ctx.pace.settings
    deadline, share = None, 1.0
    if asked is not None:
        deadline = asked + settings.reply_target
        decided = ctx.pace.share(started - asked, *ctx.queue.move_load(game_id))
        share = decided.share
        if decided.busy:
            ctx.queue.note_busy(game_id, BUSY_SECONDS)
    moves = 0
    ctx.queue.take_lease(game_id, version)
    try:
        while True:
            left = None if deadline is None else (deadline - MARGIN - time.time()) * 1000
            try:
                saved = play_computer(ctx.store, game, ctx.after_save,
                                      settings.think(share, left))
            except VersionConflict as exc:
                log.info("move of %s at version %d dropped: saved by another at %d", game_id,
                         exc.expected, exc.current)
                return STALE
            if saved is None:
                ctx.queue.settled(game_id, started)
                clock.schedule(ctx.queue, game.game_id, game.version, game.meta)
                log.debug("%s: %d computer moves, a human to act", game_id, moves)
                if moves:
                    ctx.pace.observe(time.time() - started, share)
                return DONE
            moves += 1
            ctx.queue.take_lease(game_id, saved.version)
            game = saved
    finally:
        ctx.queue.drop_lease(game_id)


def clock_expired(game_id: str, version: int) -> str:
    """Apply the clock of ``game_id`` at ``version`` now that its deadline has come
    (:func:`api.games.service.expire`, a computer choosing the move if so set), then schedule the
    next deadline and enqueue the computers if one is to move. :data:`STALE` if the game is
    at another version or nothing is due, :data:`GONE` without the game."""
    ctx = context()
    try:
        game = ctx.store.load(game_id)
    except GameNotFound:
        return GONE
    timing = game.meta.get("clock")
    if game.version != version or timing is None:
        return STALE
    deadline = timing["deadline"]
    if deadline is None:
        return STALE
    early = deadline - time.time()
    if early > EARLY_WAIT:
        clock.schedule(ctx.queue, game_id, version, game.meta, tag="again")
        return STALE
    if early > 0:
        time.sleep(early)
    try:
        saved = expire(ctx.store, game, search=True, after_save=ctx.after_save,
                       think=ctx.pace.settings.think())
    except VersionConflict:
        return STALE
    if saved is None:
        return STALE
    log.info("%s: clock ran out at version %d; now %d", game_id, version, saved.version)
    _next(ctx, saved)
    return DONE


def _next(ctx: WorkerContext, saved: Game) -> None:
    """After a save by the clock: the computers' move, or the next deadline."""
    if not request_computers(ctx.queue, saved):
        clock.schedule(ctx.queue, saved.game_id, saved.version, saved.meta)


def advice(position: dict[str, Any], level: str, budget_ms: float | None,
           samples: int | None, reveal_declare: bool) -> dict[str, Any]:
    """:func:`api.games.advice.advise` of ``position``: ``{"result": ...}``, or ``{"field",
    "message"}`` of the 422 the web tier answers for a position that cannot be analysed."""
    try:
        return {"result": advise(position, level, budget_ms, samples, reveal_declare)}
    except FieldError as exc:
        return {"field": exc.field, "message": exc.message}
