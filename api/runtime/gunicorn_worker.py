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
import re
from typing import Any, Final

from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker

PROBLEM_JSON: Final = "application/problem+json"
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


class ProblemPages:
    """Mixed into a gunicorn worker class: its ``handle_error`` pages as problem+json."""

    log: Any

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
