"""gunicorn workers answering gunicorn's own rejections as problem+json, like the app.

gunicorn refuses some requests before the app sees them (a NUL or over-long header, a request
line over ``limit_request_line``, a malformed chunk) and writes an HTML page for them. These
workers let gunicorn decide and log as usual, then send the same status as an RFC 9457
problem document: ``type`` ``https://sixtysix.dev/problems/http-<status>`` (400 is
``bad-request``, 500 ``internal-error``), ``title`` the reason, ``detail`` gunicorn's message.

:class:`ProblemWorker` is the ``gthread`` worker; :mod:`api.runtime.gunicorn_gevent` has the gevent
one, which ``deploy/gunicorn.conf.py`` selects by default (``SIXTYSIX_WORKER_CLASS``). This
module imports nothing of the app at import time: gunicorn's master imports the worker class
before the gevent worker monkey-patches, and redis must not be imported unpatched.
"""

from __future__ import annotations

import html
import json
import os
import re
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, Final

from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker

PROBLEM_JSON: Final = "application/problem+json"
#: Seconds a connection may go without a byte read or written (the gevent worker), unless
#: ``SIXTYSIX_READ_TIMEOUT`` says other.
READ_TIMEOUT: Final = 10.0
#: The status line and the message of gunicorn's HTML error page.
_PAGE: Final = re.compile(rb"HTTP/1\.1 (\d{3}) ([^\r\n]*)\r\n.*</h1>\s*(.*?)\s*</body>",
                          re.DOTALL)


class _Captured:
    """Stands in for the client socket while gunicorn writes its page (``sendall`` only)."""

    def __init__(self) -> None:
        self.data = b""

    def gettimeout(self) -> float:
        return 0.0  # gunicorn then writes at once, without touching the blocking mode

    def sendall(self, data: bytes) -> None:
        self.data += data


def problem(status: int, reason: str, detail: str) -> bytes:
    """The whole HTTP response of a problem document (the connection is closed after it)."""
    from api.http.errors import problem_type  # in the worker, after any monkey-patching

    kind = problem_type(status, reason)
    body = json.dumps({
        "type": kind.uri, "title": kind.title, "status": status,
        "detail": "the server failed; the error has been logged" if status >= 500 else (
            detail or reason),
    }).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n"
            "X-Content-Type-Options: nosniff\r\n\r\n")
    return head.encode("latin-1") + body


def read_timeout() -> float:
    """``SIXTYSIX_READ_TIMEOUT`` seconds (above 0, at most an hour), else
    :data:`READ_TIMEOUT`; :class:`ValueError` naming the variable otherwise."""
    raw = os.environ.get("SIXTYSIX_READ_TIMEOUT", "").strip()
    if not raw:
        return READ_TIMEOUT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= 3600:
        raise ValueError("SIXTYSIX_READ_TIMEOUT must be seconds above 0 (at most 3600); "
                         f"got {raw!r}")
    return seconds


def end_streams(app: Any) -> None:
    """Drain the notice waiter of ``app`` (the app's long-polls answer, its event streams
    end: :meth:`api.live.notify.VersionWaiter.drain`); nothing for another app."""
    services = getattr(app, "extensions", {}).get("sixtysix")
    if services is not None:
        services.notifier.drain()


class ProblemPages:
    """Mixed into a gunicorn worker class: its ``handle_error`` pages as problem+json, and a
    stop (SIGTERM, SIGINT, SIGQUIT) that ends the open streams at once.

    gunicorn stops a worker by letting its running requests finish, at most
    ``graceful_timeout`` seconds: an open event stream never finishes (and one whose client
    has gone notices only at its next heartbeat), so a stop waited that long. Here the stop
    drains the app's waiter too (:func:`end_streams`): streams end, long-polls answer, and
    the worker exits within about a second. SIGINT and SIGQUIT (a Ctrl-C reaches every
    process of the terminal's group) stop as gracefully as SIGTERM: gunicorn's quick exit
    raised ``SystemExit`` in a gevent greenlet, which printed its traceback at every Ctrl-C.
    """

    log: Any

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)  # type: ignore[misc]  # alive = False
        # not in the signal handler, which may have interrupted a holder of the waiter's lock
        self.soon(end_streams, getattr(self, "wsgi", None))

    def soon(self, task: Callable[[Any], None], arg: Any) -> None:
        """Run ``task(arg)`` outside the signal handler: in a thread of its own."""
        threading.Thread(target=task, args=(arg,), daemon=True).start()

    def handle_quit(self, sig: int, frame: FrameType | None) -> None:
        self.handle_exit(sig, frame)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        page = _Captured()
        super().handle_error(req, page, addr, exc)  # type: ignore[misc]  # status, log, access log
        found = _PAGE.match(page.data)
        if found is None:  # not gunicorn's page as known: send it unchanged
            answer = page.data
        else:
            detail = html.unescape(found.group(3).decode("latin-1"))
            answer = problem(int(found.group(1)), found.group(2).decode("latin-1"), detail)
        try:
            write_nonblock(client, answer)
        except OSError:
            self.log.debug("Failed to send error message.")


class ProblemWorker(ProblemPages, ThreadWorker):  # type: ignore[misc]
    """gunicorn's ``gthread`` worker with problem+json error pages."""
