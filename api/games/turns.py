"""What every request touching a game does first and every save does after: the clock and
the computers' moves.

A game's clock applies when its deadline has passed (:func:`clocked`: a forfeit or a held
settlement at once, a computer's move for the seat on the worker tier); after each save the
computers' move is enqueued and the clock's next deadline scheduled
(:func:`enqueue_computers`). A queue that cannot be reached after a save is logged, not an
error: the save stands, and the next request touching the game (or a worker's sweep) enqueues
the move. A game with computer seats or a clock needs a task queue (:func:`require_queue`); a
new one with computer seats is refused while the workers cannot answer the replies waiting for
them in time (:func:`refuse_when_busy`, :mod:`api.worker.deadline`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import redis

from api.errors import Unavailable
from api.games.meta import GameMeta
from api.games.service import AfterSave, computer_to_move, expire, request_computers
from api.games.store import (
    Game,
    GameStore,
    OutcomeUnknown,
    VersionConflict,
)
from api.keys import notify_channel
from api.live import clock
from api.live.notify import VersionWaiter
from api.worker.queue import TaskQueue

log = logging.getLogger(__name__)


class Backends(Protocol):
    """What the game's use cases need of the app's services (:class:`api.composition.Services`:
    its game store, its long-poll notices, its task queue, ``None`` when it has none, and the
    after-save pipeline of a finished match)."""

    @property
    def games(self) -> GameStore: ...

    @property
    def notifier(self) -> VersionWaiter: ...

    @property
    def queue(self) -> TaskQueue | None: ...

    @property
    def after_save(self) -> AfterSave: ...


class NoTaskQueue(Unavailable):
    slug = "no-task-queue"
    title = "No task queue for the computers"


def require_queue(svc: Backends, seats: Sequence[Mapping[str, Any]], clocked: bool = False,
                  ) -> None:
    """:class:`NoTaskQueue` (before anything is saved) for a game with computer seats or a
    clock (whose deadlines are delayed jobs) when this server has no task queue."""
    if svc.queue is None and (clocked or any(s["kind"] == "computer" for s in seats)):
        raise NoTaskQueue("this server has no task queue for the computers "
                          "(REDIS_URL is a Redis Cluster and QUEUE_URL is not set)")


class ComputersBusy(Unavailable):
    slug = "computers-busy"
    title = "The computers cannot take another game now"


def refuse_when_busy(svc: Backends, seats: Sequence[Mapping[str, Any]]) -> None:
    """:class:`ComputersBusy` (before anything is saved; ``Retry-After``: the seconds the
    workers stay noted busy) for a new game with computer seats (``POST /v1/games``, a tour
    station's start; a table's seats wait for people, so a table is not refused) while the
    workers note that they cannot answer the replies waiting in their queue by their
    deadlines even at their least work (:mod:`api.worker.deadline`). The games under way are
    served as before."""
    if svc.queue is None or not any(s["kind"] == "computer" for s in seats):
        return
    left = svc.queue.busy_for()
    if left:
        raise ComputersBusy("the computers cannot answer the games under way in time even at "
                            "their least work; no new game against them now, retry later "
                            "(nothing was done)", retry_after=left)


def require_shard(svc: Backends, game: Game) -> None:
    """``redis.ConnectionError`` (503 ``store-unavailable`` with ``Retry-After``, before
    anything is saved) for a write on a game with a computer seat or a clock whose shard of
    the task queue (:class:`api.worker.queue.TaskQueue`) did not answer: its reply or deadline
    could not be enqueued. The other shards' games go on; with one shard the store's own
    errors answer, as ever."""
    needs = game.meta.get("clock") is not None or any(
        s["kind"] == "computer" for s in game.meta["seats"])
    if svc.queue is not None and needs and svc.queue.tier.unreachable(game.game_id):
        raise redis.ConnectionError(f"the task queue's shard of game {game.game_id} is "
                                    "unreachable")


def computers_unavailable(svc: Backends, game: Game) -> bool:
    """Whether a computer of ``game`` is to move and no worker process runs to move it."""
    return (svc.queue is not None and computer_to_move(game.state, game.meta) is not None
            and svc.queue.tier.workers_down(game.game_id))


def enqueue_computers(svc: Backends, game: Game, *, check: bool = False) -> bool:
    """:func:`~api.games.service.request_computers` that logs an unreachable queue; whether a
    computer is to move. Without ``check`` (after a save) the clock's deadline, if any, is
    scheduled too (:func:`api.live.clock.schedule`)."""
    if svc.queue is None:
        return computer_to_move(game.state, game.meta) is not None
    if not check:
        schedule_clock(svc, game)
    try:
        return request_computers(svc.queue, game, check=check)
    except redis.RedisError as exc:
        log.warning("game %s: the computers' move could not be enqueued (%s); the next "
                    "request or a sweep enqueues it", game.game_id, type(exc).__name__)
        return True


def schedule_clock(svc: Backends, game: Game) -> None:
    """Schedule the clock job of ``game``'s deadline, if it has one
    (:func:`api.live.clock.schedule`); a queue that cannot be reached is logged (a request or
    the sweep schedules it later)."""
    if svc.queue is None:
        return
    try:
        clock.schedule(svc.queue, game.game_id, game.version, game.meta)
    except redis.RedisError as exc:
        log.warning("game %s: the clock's job could not be scheduled (%s); the next request "
                    "or a sweep applies it", game.game_id, type(exc).__name__)


def clocked(svc: Backends, game: Game, wait: float) -> Game:
    """``game`` once its clock is applied, if its deadline has passed (every request touching
    a game asks this first): a forfeit or a held settlement is applied here through
    :func:`api.games.service.expire`, the function the clock's job runs; a computer's move for the
    seat is a search, so its clock job is enqueued at once and waited for (at most ``wait``
    seconds, on the long-poll notices). A clock's save the store did not confirm is a
    ``redis.TimeoutError`` (a 503 ``store-unavailable``): the request itself was not tried."""
    if not clock.due(game.meta, time.time()):
        return game
    try:
        saved = expire(svc.games, game, search=False, after_save=svc.after_save)
    except VersionConflict:  # the clock's job (or another request) saved first
        return svc.games.load(game.game_id)
    except OutcomeUnknown as unknown:  # the clock's save, not the request's: none was tried
        raise redis.TimeoutError(f"game {game.game_id}: the clock's save was not confirmed; "
                                 "the request was not applied") from unknown
    except clock.NeedsWorker:
        if svc.queue is None:
            return game
        try:
            clock.schedule(svc.queue, game.game_id, game.version, game.meta, now=True,
                           tag="now")
        except redis.RedisError as exc:
            log.warning("game %s: the clock's move could not be enqueued (%s); its delayed "
                        "job makes it", game.game_id, type(exc).__name__)
            return game
        if wait > 0 and svc.notifier.wait(notify_channel(game.game_id), game.version, wait,
                                        lambda: svc.games.version(game.game_id),
                                        ) > game.version:
            return svc.games.load(game.game_id)
        return game
    if saved is None:
        return game
    enqueue_computers(svc, saved)
    return saved


def clocked_meta(svc: Backends, game_id: str, meta: GameMeta) -> bool:
    """For a request that read only the game's ``meta`` (chat, a stream ticket, its events):
    apply the clock as :func:`clocked` does, without waiting for a worker, if its deadline
    has passed; whether it had."""
    if not clock.due(meta, time.time()):
        return False
    clocked(svc, svc.games.load(game_id), 0)
    return True
