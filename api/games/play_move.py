"""The play-a-move use case: a seat's action on a game, from its clock to the computers' turn.

:func:`play_move` does, in order: the replay of a request answered already (the record of its
idempotency key), the game's clock if its deadline has passed (:func:`api.games.turns.clocked`),
the caller's precondition (``If-Match``), the check that the game has the task queue it needs
(:func:`api.games.turns.require_queue`), the action (or a pause) and its save, then the
enqueueing of the computers' move and of the clock's next deadline. Waiting for the computers'
replies is the caller's (an HTTP request waits as its ``Prefer`` asks).

Without a precondition, a save that came first (a computer's move) is no reason to refuse: the
action is tried again on the reloaded game (at most :data:`CONFLICT_ATTEMPTS` times; nothing
was applied before). The seat is seen now (:mod:`api.live.presence`): its save writes that in
the same script; an action refused or replayed, which saves nothing, writes it on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Final

import redis

from api.games.service import PAUSE, act, check_pause, parse_action, pause
from api.games.store import Game, IdempotentWrite, VersionConflict
from api.games.turns import Backends, clocked, enqueue_computers, require_queue
from api.live.presence import Seen

#: Attempts of an action without a precondition against saves made meanwhile (a computer's move).
CONFLICT_ATTEMPTS: Final = 5


@dataclass(frozen=True, slots=True)
class Played:
    """The action saved: the game after it; ``to_move``: whether a computer is to move now
    (its move enqueued), for the caller to wait for its replies."""

    game: Game
    to_move: bool


@dataclass(frozen=True, slots=True)
class Replayed:
    """The key's record found instead: the stored answer of a request sent before with the
    same idempotency key (the caller checks that it was this request); ``game``: the game as
    loaded before the record was read."""

    record: dict[str, Any]
    game: Game


def play_move(svc: Backends, game: Game, seat: int, body: dict[str, Any],
              write: IdempotentWrite | None, precondition: Callable[[Game], None] | None,
              clock_wait: float) -> Played | Replayed:
    """Seat ``seat`` of ``game`` (loaded; the caller knows the seat is his) takes the action
    ``body`` (a ``pause``, or what :func:`~api.games.service.parse_action` reads): see the
    module docstring. ``write``: the idempotency record to save with the game;
    ``precondition``: raises if it refuses the game as it is once its clock is applied
    (``None``: the action applies to the game as it is when saved); ``clock_wait``: seconds
    to wait for a computer's move the clock makes for a seat."""
    store = svc.games
    seen = store.presence.due(game.game_id, seat)
    try:
        for _ in range(CONFLICT_ATTEMPTS - 1):
            try:
                return _attempt(svc, game, seat, body, write, precondition, clock_wait, seen)
            except VersionConflict:
                if precondition is not None:
                    raise
            game = store.load(game.game_id)  # saved meanwhile: the action on the new game
        return _attempt(svc, game, seat, body, write, precondition, clock_wait, seen)
    finally:
        if seen is not None and not seen.carried:
            with suppress(redis.RedisError):  # never in place of the action's own error
                store.presence.write(game.game_id, seen)


def _attempt(svc: Backends, game: Game, seat: int, body: dict[str, Any],
             write: IdempotentWrite | None, precondition: Callable[[Game], None] | None,
             clock_wait: float, seen: Seen | None) -> Played | Replayed:
    store = svc.games
    # after the load: a record saved with that version or an earlier one is seen here
    if write is not None and (stored := store.get_mark(write.slot)) is not None:
        return Replayed(stored, game)
    game = clocked(svc, game, clock_wait)
    if precondition is not None:
        precondition(game)
    require_queue(svc, game.meta["seats"], game.meta.get("clock") is not None)
    try:
        if body["type"] == PAUSE:
            check_pause(body)
            saved = pause(store, game, seat, write, seen)
        else:
            saved = act(store, game, seat, parse_action(game.state, body), write,
                        after_save=svc.after_save, seen=seen)
    except VersionConflict:
        if write is not None and (stored := store.get_mark(write.slot)) is not None:
            return Replayed(stored, game)
        raise
    return Played(saved, enqueue_computers(svc, saved))  # after a pause: the deadline's job
