"""The action contract: after a save, the computers' replies are enqueued and waited for.

A request that saved a game in which a computer is to move (an action, a creation) enqueues
the move job (:func:`api.games.service.request_computers`) and, by default, waits for the workers
on the long-poll notices (:class:`api.live.notify.VersionWaiter`) until a human must act or the
game is over, at most ``SIXTYSIX_COMPUTER_WAIT`` seconds; then it answers the view. RFC 7240
``Prefer`` changes that:

* ``Prefer: respond-async`` answers at once: the view after the caller's own save, with the
  computer seat in ``to_act``; ``Preference-Applied: respond-async``.
* ``Prefer: wait=N`` (0 ≤ N ≤ ``SIXTYSIX_MAX_WAIT``) waits at most N seconds instead;
  ``Preference-Applied: wait=N``. With both, ``wait`` bounds the wait.

The answer's ``events`` are all those since the caller's save began (its own and the
computers'), as when the computers answered in the request. A queue that cannot be reached
after the save is logged, not answered as an error: the save stands, and the next request
touching the game (or a worker's sweep) enqueues the move. Likewise a store that stops
answering while the request waits (the save confirmed, so never a 503 "nothing was applied"):
the wait ends as at its bound, and the answer is the view right after the request's own save.
While no worker process runs
(:mod:`api.worker.tier`) the request answers at once: the move waits on the queue, and the
view's ``computers_unavailable`` says so (:func:`computers_unavailable`).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import redis
from flask import current_app, request

from api.games.meta import GameMeta
from api.games.service import computer_to_move, expire, request_computers
from api.games.store import (
    MAX_PAGE,
    Game,
    GameNotFound,
    OutcomeUnknown,
    VersionConflict,
)
from api.http import metrics
from api.http.errors import Problem, ProblemType
from api.http.support import Services, services
from api.keys import notify_channel
from api.live import clock
from api.tables.service import PLAYING
from api.tables.store import Table

log = logging.getLogger(__name__)

#: Seconds between two looks at a lost job while waiting (the long-poll's own recheck).
RECHECK: Final = 1.0
NO_TASK_QUEUE: Final = ProblemType("no-task-queue", 503, "No task queue for the computers")
_WAIT: Final = re.compile(r"wait\s*=\s*\"?([0-9]{1,6})\"?")


@dataclass(frozen=True, slots=True)
class Preference:
    """What ``Prefer`` asks of a write: answer at once, or wait at most ``wait`` seconds."""

    respond_async: bool = False
    wait: int | None = None


def preference(headers: list[str]) -> Preference:
    """The ``respond-async`` and ``wait`` preferences of the ``Prefer`` header values
    (others, and a ``wait`` that is not a whole number of seconds, are ignored)."""
    respond_async, wait = False, None
    for value in headers:
        for item in value.split(","):
            token = item.split(";", 1)[0].strip().lower()
            if token == "respond-async":
                respond_async = True
            elif (found := _WAIT.fullmatch(token)) is not None:
                wait = int(found.group(1))
    return Preference(respond_async, wait)


def require_queue(svc: Services, seats: Sequence[Mapping[str, Any]], clocked: bool = False,
                  ) -> None:
    """A 503 ``no-task-queue`` (before anything is saved) for a game with computer seats or
    a clock (whose deadlines are delayed jobs) when this server has no task queue."""
    if svc.queue is None and (clocked or any(s["kind"] == "computer" for s in seats)):
        raise Problem(NO_TASK_QUEUE, "this server has no task queue for the computers "
                      "(REDIS_URL is a Redis Cluster and QUEUE_URL is not set)")


def replied(saved: Game, svc: Services | None = None) -> tuple[Game, dict[str, str]]:
    """:func:`after_computers` for this request (``svc``: the app's services, if at hand):
    its ``Prefer``, the app's bounds."""
    config = current_app.config
    # the WSGI server joins repeated headers into one value: a lookup, not a scan of getlist
    prefer = request.environ.get("HTTP_PREFER")
    return after_computers(services() if svc is None else svc, saved,
                           preference([] if prefer is None else [prefer]),
                           config["SIXTYSIX_COMPUTER_WAIT"], config["SIXTYSIX_MAX_WAIT"])


def computers_unavailable(svc: Services, game: Game) -> bool:
    """Whether a computer of ``game`` is to move and no worker process runs to move it."""
    return (svc.queue is not None and computer_to_move(game.state, game.meta) is not None
            and svc.queue.tier.workers_down())


def enqueue_computers(svc: Services, game: Game, *, check: bool = False) -> bool:
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


def schedule_clock(svc: Services, game: Game) -> None:
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


def clocked(svc: Services, game: Game, wait: float) -> Game:
    """``game`` once its clock is applied, if its deadline has passed (every request touching
    a game asks this first): a forfeit or a held settlement is applied here through
    :func:`api.games.service.expire`, the function the clock's job runs; a computer's move for the
    seat is a search, so its clock job is enqueued at once and waited for (at most ``wait``
    seconds, on the long-poll notices). A clock's save the store did not confirm is a
    ``redis.TimeoutError`` (a 503 ``store-unavailable``): the request itself was not tried."""
    if not clock.due(game.meta, time.time()):
        return game
    try:
        saved = expire(svc.store, game, search=False)
    except VersionConflict:  # the clock's job (or another request) saved first
        return svc.store.load(game.game_id)
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
        if wait > 0 and svc.waiter.wait(notify_channel(game.game_id), game.version, wait,
                                        lambda: svc.store.version(game.game_id),
                                        ) > game.version:
            return svc.store.load(game.game_id)
        return game
    if saved is None:
        return game
    enqueue_computers(svc, saved)
    return saved


def clocked_meta(svc: Services, game_id: str, meta: GameMeta) -> bool:
    """For a request that read only the game's ``meta`` (chat, a stream ticket, its events):
    apply the clock as :func:`clocked` does, without waiting for a worker, if its deadline
    has passed; whether it had."""
    if not clock.due(meta, time.time()):
        return False
    clocked(svc, svc.store.load(game_id), 0)
    return True


def clocked_table(svc: Services, table: Table) -> None:
    """For a request on a table (its view or stream): apply the clock of the game it is
    playing as :func:`clocked` does, without waiting; nothing if none, or it is gone."""
    game_id = table.doc.game_id
    if table.doc.status != PLAYING or not game_id:
        return
    try:
        game = svc.store.load(game_id)
    except GameNotFound:
        return
    clocked(svc, game, 0)


def after_computers(svc: Services, saved: Game, prefer: Preference, default_wait: float,
                    max_wait: float) -> tuple[Game, dict[str, str]]:
    """Enqueue the computers of ``saved`` and wait for them as ``prefer`` asks; the game to
    answer (its ``recent`` events: all since ``saved``'s save began) and the
    ``Preference-Applied`` header."""
    applied: dict[str, str] = {}
    if prefer.wait is not None:
        bound = min(float(prefer.wait), max_wait)
        applied["Preference-Applied"] = f"wait={bound:g}"
    elif prefer.respond_async:
        bound = 0.0
        applied["Preference-Applied"] = "respond-async"
    else:
        bound = default_wait
    if not enqueue_computers(svc, saved) or bound <= 0 or svc.queue is None or (
            svc.queue.tier.workers_down()):  # no worker to wait for: the view says so
        return saved, applied
    try:
        game = _wait(svc, saved, time.monotonic() + bound)
        if game.version == saved.version:
            return game, applied
        first = saved.event_count - len(saved.recent)
        _, _, logged = svc.store.events(saved.game_id, first, MAX_PAGE)
    except redis.RedisError as exc:  # saved is true: its answer must not say otherwise
        log.warning("game %s saved; the wait for the computers ended by the store (%s)",
                    saved.game_id, type(exc).__name__)
        metrics.redis_error(exc)
        return saved, applied
    return dataclasses.replace(game, recent=[e for e in logged if e.seq <= game.event_count]
                               ), applied


def _wait(svc: Services, game: Game, deadline: float) -> Game:
    """``game`` as it is once no computer is to move, or at ``deadline``."""
    store = svc.store

    def version() -> int:
        return store.version(game.game_id)

    while computer_to_move(game.state, game.meta) is not None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return game
        if svc.waiter.wait(notify_channel(game.game_id), game.version, min(remaining, RECHECK),
                           version) > game.version:
            game = store.load(game.game_id)
        else:  # nothing moved for a while: a job lost with its worker is enqueued again
            enqueue_computers(svc, game, check=True)
    return game
