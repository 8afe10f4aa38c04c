"""The action contract: after a save, the computers' replies are waited for.

A request that saved a game in which a computer is to move (an action, a creation) has the
move job enqueued (:func:`api.games.turns.enqueue_computers`) and, by default, waits for the
workers on the long-poll notices (:class:`api.live.notify.VersionWaiter`) until a human must
act or the game is over, at most ``SIXTYSIX_COMPUTER_WAIT`` seconds; then it answers the view.
RFC 7240 ``Prefer`` changes that:

* ``Prefer: respond-async`` answers at once: the view after the caller's own save, with the
  computer seat in ``to_act``; ``Preference-Applied: respond-async``.
* ``Prefer: wait=N`` (0 ≤ N ≤ ``SIXTYSIX_MAX_WAIT``) waits at most N seconds instead;
  ``Preference-Applied: wait=N``. With both, ``wait`` bounds the wait.

The answer's ``events`` are all those since the caller's save began (its own and the
computers'), as when the computers answered in the request. A store that stops answering
while the request waits (the save confirmed, so never a 503 "nothing was applied"): the wait
ends as at its bound, and the answer is the view right after the request's own save.
While no worker process runs (:mod:`api.worker.tier`) the request answers at once: the move
waits on the queue, and the view's ``computers_unavailable`` says so
(:func:`api.games.turns.computers_unavailable`).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from dataclasses import dataclass
from typing import Final

import redis
from flask import current_app, request

from api.composition import Services
from api.games.service import computer_to_move
from api.games.store import MAX_PAGE, Game
from api.games.turns import enqueue_computers
from api.http import metrics
from api.http.support import services
from api.keys import notify_channel

log = logging.getLogger(__name__)

#: Seconds between two looks at a lost job while waiting (the long-poll's own recheck).
RECHECK: Final = 1.0
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


def replied(saved: Game, svc: Services | None = None) -> tuple[Game, dict[str, str]]:
    """Enqueue the computers of ``saved`` and :func:`waited` for them (``svc``: the app's
    services, if at hand)."""
    svc = services() if svc is None else svc
    return waited(svc, saved, enqueue_computers(svc, saved))


def waited(svc: Services, saved: Game, to_move: bool) -> tuple[Game, dict[str, str]]:
    """:func:`after_computers` for this request: its ``Prefer``, the app's bounds."""
    config = current_app.config
    # the WSGI server joins repeated headers into one value: a lookup, not a scan of getlist
    prefer = request.environ.get("HTTP_PREFER")
    return after_computers(svc, saved, to_move, preference([] if prefer is None else [prefer]),
                           config["SIXTYSIX_COMPUTER_WAIT"], config["SIXTYSIX_MAX_WAIT"])


def after_computers(svc: Services, saved: Game, to_move: bool, prefer: Preference,
                    default_wait: float, max_wait: float) -> tuple[Game, dict[str, str]]:
    """Wait for the computers of ``saved`` (``to_move``: whether one is to move, its move
    enqueued) as ``prefer`` asks; the game to answer (its ``recent`` events: all since
    ``saved``'s save began) and the ``Preference-Applied`` header."""
    applied: dict[str, str] = {}
    if prefer.wait is not None:
        bound = min(float(prefer.wait), max_wait)
        applied["Preference-Applied"] = f"wait={bound:g}"
    elif prefer.respond_async:
        bound = 0.0
        applied["Preference-Applied"] = "respond-async"
    else:
        bound = default_wait
    if not to_move or bound <= 0 or svc.queue is None or (
            svc.queue.tier.workers_down(saved.game_id)):  # no worker to wait for: the view says so
        return saved, applied
    try:
        game = _wait(svc, saved, time.monotonic() + bound)
        if game.version == saved.version:
            return game, applied
        first = saved.event_count - len(saved.recent)
        _, _, logged = svc.games.events(saved.game_id, first, MAX_PAGE)
    except redis.RedisError as exc:  # saved is true: its answer must not say otherwise
        log.warning("game %s saved; the wait for the computers ended by the store (%s)",
                    saved.game_id, type(exc).__name__)
        metrics.redis_error(exc)
        return saved, applied
    return dataclasses.replace(game, recent=[e for e in logged if e.seq <= game.event_count]
                               ), applied


def _wait(svc: Services, game: Game, deadline: float) -> Game:
    """``game`` as it is once no computer is to move, or at ``deadline``."""
    store = svc.games

    def version() -> int:
        return store.version(game.game_id)

    while computer_to_move(game.state, game.meta) is not None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return game
        if svc.notifier.wait(notify_channel(game.game_id), game.version, min(remaining, RECHECK),
                           version) > game.version:
            game = store.load(game.game_id)
        else:  # nothing moved for a while: a job lost with its worker is enqueued again
            enqueue_computers(svc, game, check=True)
    return game
