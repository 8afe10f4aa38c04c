"""What ``sixtysix serve`` answers before gunicorn can: a 503 ``starting`` with ``Retry-After``.

``sixtysix serve`` binds its port before anything starts (:func:`api.runtime.serve.listen`),
so a request made while gunicorn's workers still load the app waited in the socket's backlog,
for seconds, and a client saw it hang. Until a gunicorn worker has loaded the app, a
:class:`Warmup` thread of the serve process accepts on the same socket and answers every
request at once with ``503`` ``application/problem+json`` (type
``https://sixtysix.dev/problems/starting``) and ``Retry-After:`` :data:`RETRY_AFTER`, then
closes the connection: ``/readyz`` and ``/healthz`` too, which says honestly that nothing
is served yet. A browser's page (``Accept: text/html``) gets a short page that reloads itself.

Each gunicorn worker writes a byte to the pipe named by ``SIXTYSIX_READY_FD`` once its app is
loaded (:func:`note_ready`, gunicorn's ``post_worker_init`` in ``deploy/gunicorn.conf.py``);
at the first byte the thread stops accepting and the workers take every connection from then
on. This module imports nothing of the app (gunicorn's master imports it).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import threading
import time
from collections.abc import Callable
from typing import Final, Self

from api.runtime.started import Started

#: The environment variable naming the write end of the readiness pipe in gunicorn.
READY_FD: Final = "SIXTYSIX_READY_FD"
#: Seconds a client is asked to wait before it tries again.
RETRY_AFTER: Final = 1
#: Seconds the thread waits for a request's head before it answers anyway.
HEAD_TIMEOUT: Final = 0.5
#: Bytes of a request's head read at most (the rest is never looked at).
HEAD_LIMIT: Final = 16384
PROBLEM: Final = {
    "type": "https://sixtysix.dev/problems/starting", "title": "Server starting",
    "status": 503, "detail": f"the server is starting; try again in {RETRY_AFTER} s",
}
PAGE: Final = (f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" '
               f'content="{RETRY_AFTER}"><title>Starting</title>'
               "<p>The Sixty-Six server is starting; this page reloads by itself.</p>\n")


def note_ready() -> None:
    """Tell ``sixtysix serve`` that this process (a gunicorn worker) has loaded the app: a
    byte to the pipe of ``SIXTYSIX_READY_FD``; nothing without it, or once serve has stopped
    listening (a worker restarted later)."""
    raw = os.environ.get(READY_FD, "")
    if not raw.isdigit():
        return
    with contextlib.suppress(OSError):  # serve closed its end (ready long ago), or it is full
        os.write(int(raw), b"r")


def answer(head: bytes) -> bytes:
    """The whole response to a request whose head starts with ``head``."""
    html = b"text/html" in next((line for line in head.lower().split(b"\r\n")
                                 if line.startswith(b"accept:")), b"")
    body = PAGE.encode() if html else json.dumps(PROBLEM).encode()
    kind = "text/html; charset=utf-8" if html else "application/problem+json"
    return (f"HTTP/1.1 503 Service Unavailable\r\nRetry-After: {RETRY_AFTER}\r\n"
            f"Content-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
            "Cache-Control: no-store\r\nConnection: close\r\n\r\n").encode() + body


def _read_head(conn: socket.socket) -> bytes:
    """The request's head as far as it comes within :data:`HEAD_TIMEOUT` seconds."""
    head = b""
    try:
        while b"\r\n\r\n" not in head and len(head) < HEAD_LIMIT:
            chunk = conn.recv(4096)
            if not chunk:
                break
            head += chunk
    except OSError:  # a timeout or a reset: answer what came
        pass
    return head


class Warmup(Started):
    """Answers the connections of ``sock`` until ``ready`` (a pipe's read end) can be read;
    then ``say``\\ s how long the start took (from ``began``, :func:`time.monotonic`)."""

    def __init__(self, sock: socket.socket, ready: int, say: Callable[[str], None],
                 began: float) -> None:
        self.sock = sock
        self.ready = ready
        self.say = say
        self.began = began
        #: set once a gunicorn worker has said it is ready (the thread then ends)
        self.done = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        # never set back: the flag is the socket's, shared with gunicorn's workers (which set
        # it too), and a blocking accept would hang a worker that lost a connection to this
        self.sock.setblocking(False)
        self._thread = threading.Thread(target=self._run, name="sixtysix-warmup", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            readable, _, _ = select.select([self.sock.fileno(), self.ready], [], [], 0.2)
            if self.ready in readable:
                self.done.set()
                self.say(f"ready in {time.monotonic() - self.began:.1f} s")
                return
            if self.sock.fileno() in readable:
                self._answer_one()

    def _answer_one(self) -> None:
        try:
            conn, _ = self.sock.accept()
        except (BlockingIOError, InterruptedError):  # gunicorn took it meanwhile
            return
        with conn:
            conn.settimeout(HEAD_TIMEOUT)
            try:
                conn.sendall(answer(_read_head(conn)))
                conn.shutdown(socket.SHUT_WR)
            except OSError:  # the client has gone
                pass

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
