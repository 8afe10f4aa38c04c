"""Clocks: a think time per move, a reading time after each hand, and what runs out.

A game created with the table setting ``think_time_s`` (10–120 seconds; ``null``: no clock)
keeps its clock in ``meta["clock"]``: the settings (``on_timeout``, ``timeout_level``), the
reading and pause times fixed at creation, and the current ``deadline`` (epoch seconds) with
what it is for:

* ``move``: the human seat to act has ``think_time_s`` from the save that made it the seat to
  act. When it runs out, ``on_timeout`` says what happens: ``computer`` — a computer of
  ``timeout_level`` (default ``normal``) chooses that one move for the seat from its view;
  ``forfeit`` — the seat's side loses the hand as by a false declaration (the engine's
  ``timeout`` transition, settlement reason ``timeout``). The third expiry in a row without a
  move of the seat's own forfeits the match instead (the engine's ``forfeit``: the other side
  wins as by a resignation, ``result_reason`` ``timeout``).
* ``settlement``: after a hand the settlement stays open until every human seat continues, or
  for the reading time (:data:`READING_S`, 10 s) plus ``think_time_s``; then the humans still
  reading are continued for. ``pause`` (once per hand and seat, by a human who has not
  continued yet) holds it :data:`PAUSE_S` (60 s) longer. This does not count as an expiry.

Computers are not timed. With ``auto_continue`` the humans acknowledge at once, so no
settlement is held. Every action the clock makes is saved like a player's (one save each,
with the version check) and its first event carries ``"timeout": true``, so the record shows
it and ``engine.replay`` replays it. :func:`expire` is the one function that applies a
deadline: run by the delayed job at the deadline (:func:`api.worker.jobs.clock_expired`) and
by every request touching the game after it (the web tier never runs a search: a due
``computer`` move is handed to a worker at once, see :class:`NeedsWorker`).

``SIXTYSIX_MIN_THINK_TIME_S`` (default 10) lowers the smallest think time accepted and
``SIXTYSIX_READING_S`` and ``SIXTYSIX_PAUSE_S`` change the reading and pause times of new
games (for tests: a clock that runs out in a second or two).
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Final, Protocol

from api.errors import FieldError
from api.games.computers import COMPUTER_LEVELS, computer_level, unknown_level
from api.games.meta import GameMeta
from api.games.think import FULL, Think
from engine import HAND_OVER, PLAYING, Event, IllegalAction
from engine.actions import CONTINUE, FORFEIT_ACTION, TIMEOUT_ACTION
from engine.hosted import (
    HostedAction,
    HostedState,
    action_of,
    legal_actions,
    only_continue,
    view,
)
from engine.numerals import parse_natural

#: Largest think time, seconds; the smallest is :func:`min_think_time`.
MAX_THINK_S: Final = 120
#: What happens when a move's think time runs out.
ON_TIMEOUT: Final = ("computer", "forfeit")
#: Expiries in a row without a move of the seat's own that forfeit the match.
MAX_EXPIRIES: Final = 3
#: Seconds of reading time after a hand (plus the think time) and of a pause.
READING_S: Final = 10
PAUSE_S: Final = 60
CLOCK_JOB: Final = "api.worker.jobs.clock_expired"
#: The clock's table settings, as the view and the record show them.
SETTINGS: Final = ("think_time_s", "on_timeout", "timeout_level")
MOVE: Final = "move"
SETTLEMENT: Final = "settlement"


class NeedsWorker(Exception):
    """The due timeout is a computer's move for the seat: a search, a worker's job."""


def _env_seconds(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if (seconds := parse_natural(raw)) is None:
        raise ValueError(f"{name} must be a whole number of seconds; got {raw!r}")
    return max(1, seconds)


def min_think_time() -> int:
    """The smallest ``think_time_s`` accepted (``SIXTYSIX_MIN_THINK_TIME_S``, default 10)."""
    return _env_seconds("SIXTYSIX_MIN_THINK_TIME_S", 10)


def check_settings(settings: Mapping[str, Any], players: int) -> dict[str, Any] | None:
    """The clock of a game with table ``settings`` (``None`` without ``think_time_s``); a
    value out of range is a 422 on ``settings.<name>``."""
    think = settings.get("think_time_s")
    if think is None:
        return None
    low = min_think_time()
    if not low <= think <= MAX_THINK_S:
        raise FieldError("settings.think_time_s",
                         f"must be null (no clock) or {low} to {MAX_THINK_S} seconds")
    level = settings.get("timeout_level", "normal")
    if level not in COMPUTER_LEVELS:
        raise FieldError("settings.timeout_level", unknown_level(level),
                         list(COMPUTER_LEVELS))
    return {"think_time_s": think, "on_timeout": settings.get("on_timeout", "computer"),
            "timeout_level": level,
            "reading_s": _env_seconds("SIXTYSIX_READING_S", READING_S),
            "pause_s": _env_seconds("SIXTYSIX_PAUSE_S", PAUSE_S),
            "deadline": None, "kind": None, "seat": None, "hand_no": None,
            "expiries": [0] * players, "paused": [0] * players}


def clock_settings() -> list[dict[str, Any]]:
    """The clock's table settings as ``GET /v1/rules`` lists them."""
    return [
        {"name": "think_time_s", "type": "integer", "default": None,
         "allowed": {"min": min_think_time(), "max": MAX_THINK_S, "or": None},
         "description": "Seconds a human seat has for each move (null: no clock); after a "
                        f"hand the settlement stays open until every human continues or "
                        f"{READING_S} s of reading plus this ({PAUSE_S} s more with a pause)."},
        {"name": "on_timeout", "type": "string", "default": "computer",
         "allowed": list(ON_TIMEOUT),
         "description": "When a move's time runs out: a computer makes that move for the "
                        "seat, or the hand is forfeited (as by a false declaration). "
                        f"{MAX_EXPIRIES} expiries in a row forfeit the match."},
        {"name": "timeout_level", "type": "string", "default": "normal",
         "allowed": list(COMPUTER_LEVELS),
         "description": "Level of the computer that moves for a seat out of time."},
    ]


def _humans(meta: GameMeta) -> list[int]:
    return [i for i, s in enumerate(meta["seats"]) if s["kind"] == "human"]


def reading(state: HostedState, meta: GameMeta) -> list[int]:
    """The human seats that have not yet continued after the hand (none during a hand)."""
    if state.status != HAND_OVER:
        return []
    return [s for s in _humans(meta) if only_continue(state, s)]


def human_to_move(state: HostedState, meta: GameMeta) -> int | None:
    """The human seat to make a move of the hand, or ``None``."""
    if state.status != PLAYING:
        return None
    return next((s for s in _humans(meta) if legal_actions(state, s)), None)


def stamp(state: HostedState, meta: GameMeta, now: float, seat: int | None = None,
          timed_out: bool = False) -> None:
    """Set the clock of ``meta`` for ``state`` just after ``seat``'s action (saved next).

    A move's deadline starts afresh at every save that leaves a human to move; a
    settlement's is set once per hand (others continuing, or a pause, keep it). ``seat``'s
    own action (not ``timed_out``) ends its run of expiries.
    """
    clock = meta.get("clock")
    if clock is None:
        return
    if seat is not None and not timed_out:
        clock["expiries"][seat] = 0
    mover = human_to_move(state, meta)
    if mover is not None:
        clock.update(deadline=now + clock["think_time_s"], kind=MOVE, seat=mover,
                     hand_no=state.hand_no)
    elif reading(state, meta):
        if clock["kind"] != SETTLEMENT or clock["hand_no"] != state.hand_no:
            clock.update(deadline=now + clock["reading_s"] + clock["think_time_s"],
                         kind=SETTLEMENT, seat=None, hand_no=state.hand_no)
    else:
        clock.update(deadline=None, kind=None, seat=None)


def due(meta: GameMeta, now: float) -> bool:
    """Whether the game's clock has run out at ``now``."""
    clock = meta.get("clock")
    return clock is not None and clock["deadline"] is not None and now >= clock["deadline"]


def timeout_action(state: HostedState, meta: GameMeta, *, search: bool, think: Think = FULL,
                   ) -> tuple[int, HostedAction] | None:
    """The seat and action the clock makes now that it has run out (``None``: nothing to
    do). ``search``: a computer may choose (in a worker), spending what ``think`` gives it;
    else :class:`NeedsWorker`."""
    clock = _running(meta)
    if clock["kind"] == SETTLEMENT:
        seats = reading(state, meta)
        return (seats[0], action_of(state, CONTINUE)) if seats else None
    seat = clock["seat"]
    if seat is None or human_to_move(state, meta) != seat:
        return None
    if clock["expiries"][seat] + 1 >= MAX_EXPIRIES:
        return seat, FORFEIT_ACTION
    if clock["on_timeout"] == "forfeit":
        return seat, TIMEOUT_ACTION
    if not search:
        raise NeedsWorker(seat)
    return seat, computer_level(clock["timeout_level"]).choose(view(state, seat), think)


def _running(meta: GameMeta) -> dict[str, Any]:
    """The clock of a game that has one."""
    clock = meta.get("clock")
    if clock is None:
        raise ValueError("this game has no clock")
    return clock


def mark_expired(meta: GameMeta, seat: int, events: list[Event]) -> None:
    """Count a move's expiry for ``seat`` and mark the action's first event as the clock's."""
    clock = _running(meta)
    if clock["kind"] == MOVE:
        clock["expiries"][seat] += 1
    events[0].data["timeout"] = True


def pause_refusal(state: HostedState, meta: GameMeta, seat: int) -> str | None:
    """Why ``seat`` may not pause now, or ``None`` if it may."""
    clock = meta.get("clock")
    if clock is None:
        return "this game has no clock: nothing to pause"
    if seat not in reading(state, meta) or clock["kind"] != SETTLEMENT:
        return "a pause holds a finished hand's settlement open: only before you continue"
    if clock["paused"][seat] == state.hand_no:
        return "you have already paused this settlement (one pause per hand)"
    return None


def pause(state: HostedState, meta: GameMeta, seat: int) -> list[Event]:
    """Hold the settlement :data:`PAUSE_S` longer for ``seat``; its event. Raises
    :class:`~engine.IllegalAction` when :func:`pause_refusal` refuses."""
    refusal = pause_refusal(state, meta, seat)
    if refusal is not None:
        raise IllegalAction(refusal, legal_actions(state, seat))
    clock = _running(meta)
    clock["paused"][seat] = state.hand_no
    clock["deadline"] += clock["pause_s"]
    return [Event("paused", {"seat": seat, "seconds": clock["pause_s"],
                             "deadline": iso(clock["deadline"])})]


def iso(epoch: float) -> str:
    """``epoch`` seconds as UTC ISO 8601 with milliseconds (``2026-12-01T10:00:00.000Z``)."""
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def clock_view(state: HostedState, meta: GameMeta, seat: int | None, now: float,
               ) -> dict[str, Any] | None:
    """The clock as the view shows it (``None`` without one): its settings, ``deadline``
    and ``remaining_ms`` while a human is to act or to continue (else ``null``), ``for``
    (``move`` or ``settlement``), ``seat`` (the seat to move), ``expiries`` per seat and
    whether ``seat`` may pause now."""
    clock = meta.get("clock")
    if clock is None:
        return None
    deadline = clock["deadline"]
    return {
        "think_time_s": clock["think_time_s"], "on_timeout": clock["on_timeout"],
        "timeout_level": clock["timeout_level"],
        "deadline": None if deadline is None else iso(deadline),
        "remaining_ms": None if deadline is None else max(0, int((deadline - now) * 1000)),
        "for": clock["kind"], "seat": clock["seat"], "expiries": list(clock["expiries"]),
        "can_pause": seat is not None and pause_refusal(state, meta, seat) is None,
    }


def clock_job_id(game_id: str, version: int) -> str:
    """The id of the clock job of ``game_id`` at ``version``."""
    return f"clock-{hashlib.sha256(game_id.encode()).hexdigest()[:24]}-{version}"


#: The clock job ids of one version: at the deadline, and the tags :func:`schedule` adds.
SWEPT: Final = "swept"
JOB_TAGS: Final = ("", "now", "again", SWEPT)


def clock_job_ids(game_id: str, version: int) -> list[str]:
    """Every id a clock job of ``game_id`` at ``version`` may have (see :data:`JOB_TAGS`)."""
    base = clock_job_id(game_id, version)
    return [f"{base}-{tag}" if tag else base for tag in JOB_TAGS]


class DelayedQueue(Protocol):
    """What :func:`schedule` needs of the task queue (:class:`api.worker.queue.TaskQueue`)."""

    def enqueue_at(self, when: datetime, func: str, *args: Any,
                   job_id: str | None = None) -> str: ...

    def track_deadline(self, game_id: str, deadline: float) -> None: ...


def schedule(queue: DelayedQueue, game_id: str, version: int, meta: GameMeta,
             *, now: bool = False, tag: str = "") -> bool:
    """Enqueue the clock job of ``game_id`` at ``version`` for its deadline (``now``: at
    once, for a due computer move a request asks for, or a lost job the sweep found), and
    note the deadline for the sweep (:meth:`~api.worker.queue.TaskQueue.track_deadline`);
    whether the game has a deadline. The job id names the version and ``tag`` (one of
    :data:`JOB_TAGS`: ``now``, ``again`` for a job that started too early, ``swept``), so
    asking twice schedules one job."""
    clock = meta.get("clock")
    if clock is None or clock["deadline"] is None:
        return False
    if tag not in JOB_TAGS:
        raise ValueError(f"unknown clock job tag {tag!r}")
    when = time.time() if now else clock["deadline"]
    queue.track_deadline(game_id, clock["deadline"])
    base = clock_job_id(game_id, version)
    queue.enqueue_at(datetime.fromtimestamp(when, UTC), CLOCK_JOB, game_id, version,
                     job_id=f"{base}-{tag}" if tag else base)
    return True
