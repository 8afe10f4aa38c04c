"""Server-Sent Events: a game's (or a table's) changes as one ``text/event-stream``.

A game stream sends, in this order:

* ``event: view`` — the caller's full view (as ``GET /v1/games/{id}``), first;
* on a resume (``Last-Event-ID: N`` or ``?after=N``), the events with ``seq > N`` up to that
  view, each as ``event: game_event``, ``id: <seq>``, ``data:`` the event as
  ``GET /v1/games/{id}/events`` gives it to the caller (``type`` says which it is);
* after every save: its events (``game_event``, increasing ``id``), then ``event: view``;
  after a chat message (which leaves the version alone) likewise, as soon as it is logged;
* ``: heartbeat`` comments every ``SIXTYSIX_STREAM_HEARTBEAT`` seconds, and after one, if a
  seat's ``connected`` changed without a save, ``event: presence`` with the view's ``seats``.

Only ``game_event`` carries an ``id``, so a client's last event id is always the ``seq`` of the
last event it got: resuming with it gives every later event once (the log only grows; each
chunk's events and view are read at one version). A table stream sends ``event: table`` (the
table as ``GET /v1/tables/{id}`` shows it to the caller, ``id:`` its version) first and after
every change, with the same heartbeats.

Waiting costs no Redis round trip: every stream of a process is woken by the process's one
notice listener (:class:`api.live.notify.VersionWaiter`); a stream reads the version and the
event count itself only at a heartbeat (a notice lost while the listener reconnected is found
then). The streams of one process that follow the same game and seat from the same event share
one load and one rendering of each change (:class:`Shared`), keyed by the version and the chat
event number announced: a chat message leaves the version as it is, so the version alone would
hand a stream the rendering from before the message again.

A stream never sends faster than its game changes: it is woken only by a notice beyond what it
has sent or handled (a notice whose rendering shows nothing new is not waited for again), it
never sends a version and event count it has sent already, and two wake-ups are at least
:data:`MIN_GAP` seconds apart (what changes meanwhile comes in one chunk).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol

import redis

from api.games.service import game_view, view_seats
from api.games.store import Game, GameNotFound, GameStore
from api.live.notify import Notice, VersionWaiter

MIMETYPE: Final = "text/event-stream"
#: Milliseconds a client waits before reconnecting (the ``retry`` field of the first event).
RETRY_MS: Final = 2000
HEARTBEAT: Final = b": heartbeat\n\n"
#: Headers of every stream: never stored, never buffered by a proxy (nginx honours this).
HEADERS: Final = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
#: Seconds between two wake-ups of a stream at least: at most 20 chunks a second whatever
#: happens, changes meanwhile coalesced into the next one.
MIN_GAP: Final = 0.05

log = logging.getLogger(__name__)

_encode: Final = json.JSONEncoder(separators=(",", ":")).encode


def sse(event: str, data: Any, event_id: int | None = None) -> bytes:
    """One event: its name, optional id and one ``data`` line of compact JSON."""
    head = f"event: {event}\n" if event_id is None else f"event: {event}\nid: {event_id}\n"
    return f"{head}data: {_encode(data)}\n\n".encode()


class StreamEnded(Exception):
    """What a stream follows is gone (expired): the stream ends."""


class Source(Protocol):
    """What a stream follows: its first chunk, its changes, its heartbeats."""

    version: int
    #: The last event number sent (a table's stream has no events: 0).
    cursor: int

    def first(self) -> bytes: ...

    def changed(self, announced: Notice) -> bytes:
        """The chunk of the change(s) up to at least ``announced`` (its version and, of a
        game, its event number)."""
        ...

    def beat(self) -> tuple[bytes, Notice]:
        """What to send after a heartbeat comment, and the current version and event count."""
        ...


def follow(waiter: VersionWaiter, channel: str, source: Source,
           heartbeat: float) -> Iterator[bytes]:
    """The chunks of a stream of ``source``, woken by notices on ``channel``, until the client
    goes away (the server closes this generator), the source is gone or the server stops
    (:meth:`~api.live.notify.VersionWaiter.drain`).

    Each notice wakes it once: it then waits for one beyond both what it sent and what it
    handled, sends nothing it sent before, and wakes at most every :data:`MIN_GAP` seconds.
    """
    try:
        with waiter.watching(channel):
            yield source.first()
            handled = Notice(source.version, source.cursor)
            next_beat = time.monotonic() + heartbeat
            woken = -MIN_GAP
            while not waiter.draining:
                announced = None
                if time.monotonic() >= next_beat:
                    extra, current = source.beat()
                    yield HEARTBEAT + extra
                    next_beat = time.monotonic() + heartbeat
                    if current.version > source.version or current.seq > source.cursor:
                        announced = current
                if announced is None:
                    announced = waiter.announced(
                        channel, max(source.version, handled.version),
                        next_beat - time.monotonic(),
                        seq_after=max(source.cursor, handled.seq))
                    if announced is None:
                        continue
                time.sleep(max(woken + MIN_GAP - time.monotonic(), 0.0))
                woken = time.monotonic()
                sent = Notice(source.version, source.cursor)
                chunk = source.changed(announced)
                handled = Notice(max(handled.version, announced.version),
                                 max(handled.seq, announced.seq))
                if (source.version, source.cursor) != sent:
                    yield chunk
    except (StreamEnded, GameNotFound):  # expired meanwhile: the client's reconnect is a 404
        return
    except redis.RedisError as exc:  # the client reconnects and resumes from its last id
        log.warning("stream of %s ended: Redis failed (%s)", channel, type(exc).__name__)


class Shared:
    """Values computed once per key however many threads want one at the same time; the last
    :data:`size` are kept (a change is rendered once for every stream that waits for it)."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._done: OrderedDict[Hashable, Any] = OrderedDict()
        self._pending: dict[Hashable, threading.Event] = {}

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        while True:
            with self._lock:
                if key in self._done:
                    return self._done[key]
                running = self._pending.get(key)
                if running is None:
                    running = self._pending[key] = threading.Event()
                    break
            running.wait()  # computed by another; if it failed, try it here
        try:
            value = compute()
            with self._lock:
                self._done[key] = value
                while len(self._done) > self._size:
                    self._done.popitem(last=False)
            return value
        finally:
            with self._lock:
                del self._pending[key]
            running.set()


#: The renderings of this process's game streams.
SHARED: Final = Shared()


@dataclass(slots=True)
class GameSource:
    """A game as ``seat`` (``None``: a spectator) follows it, from event ``after`` on
    (``None``: from the loaded game's last event); ``unavailable`` tells whether a game's
    computer is to move with no worker running (the view's ``computers_unavailable``)."""

    store: GameStore
    game: Game
    seat: int | None
    after: int | None
    unavailable: Callable[[Game], bool] = lambda game: False
    version: int = 0
    cursor: int = 0
    connected: list[bool] = field(default_factory=list)

    def first(self) -> bytes:
        game = self.game
        if self.store.version(game.game_id) > game.version:  # saved before we listened
            game = self.store.load(game.game_id)
        self._seen(force=True)
        after = game.event_count if self.after is None else min(self.after, game.event_count)
        return f"retry: {RETRY_MS}\n".encode() + sse("view", self._view(game)) + b"".join(
            sse("game_event", e.for_seat(self.seat), e.seq)
            for e in self.store.events_since(game, after))

    def changed(self, announced: Notice) -> bytes:
        """The events after :attr:`cursor` and the view, from a load after ``announced``: the
        rendering is shared by the streams of this game and seat at that cursor woken by that
        same notice (so it holds the version and the chat message announced)."""
        chunk: bytes
        chunk, self.version, self.cursor, self.connected = SHARED.get(
            (self.game.game_id, self.seat, self.cursor, *announced), self._render)
        return chunk

    def beat(self) -> tuple[bytes, Notice]:
        self._seen()
        try:
            version, count, connected = self.store.progress_and_presence(
                self.game.game_id, len(self.game.meta["seats"]))
        except GameNotFound:
            raise StreamEnded from None
        current = Notice(version, count)
        if connected == self.connected or current.version > self.version or (
                current.seq > self.cursor):
            return b"", current
        self.connected = connected
        seats = view_seats(replace(self.game, connected=connected), self.seat)
        return sse("presence", {"seats": seats}), current

    def _render(self) -> tuple[bytes, int, int, list[bool]]:
        try:
            game = self.store.load(self.game.game_id)
        except GameNotFound:
            raise StreamEnded from None
        events = b"".join(sse("game_event", e.for_seat(self.seat), e.seq)
                          for e in self.store.events_since(game, self.cursor))
        view = game_view(game, self.seat, self.unavailable(game))
        return events + sse("view", view), game.version, game.event_count, game.connected or []

    def _view(self, game: Game) -> dict[str, Any]:
        self.game, self.version, self.cursor = game, game.version, game.event_count
        self.connected = game.connected or []
        return game_view(game, self.seat, self.unavailable(game))

    def _seen(self, force: bool = False) -> None:
        if self.seat is not None:
            self.store.presence.seen(self.game.game_id, self.seat, force=force)


@dataclass(slots=True)
class TableSource:
    """A table as its caller may see it: ``render(version)`` answers the table's current
    version and its view (:class:`StreamEnded` once the table is gone)."""

    render: Callable[[], tuple[int, dict[str, Any]]]
    version: int = 0
    cursor: int = 0

    def first(self) -> bytes:
        return f"retry: {RETRY_MS}\n".encode() + self.changed(Notice(0))

    def changed(self, announced: Notice) -> bytes:
        self.version, table = self.render()
        return sse("table", table, self.version)

    def beat(self) -> tuple[bytes, Notice]:
        version, table = self.render()
        if version > self.version:
            self.version = version
            return sse("table", table, version), Notice(version)
        return b"", Notice(version)
