"""Request bodies, read once before any view: framing checked, size capped, JSON depth bounded.

* A streamed (chunked) body over ``MAX_CONTENT_LENGTH`` (``SIXTYSIX_MAX_BODY``) is a 413, as
  one with a ``Content-Length`` over it is: werkzeug alone would hand the app the first
  ``MAX_CONTENT_LENGTH`` bytes of it as if they were all.
* A body whose framing the HTTP server refuses while it is read (a malformed chunk) is a 400.
* A body that stalls (no byte for the server's read timeout, ``SIXTYSIX_READ_TIMEOUT`` under
  ``sixtysix serve``) is a 408 ``request-timeout``, and its connection is closed.
* A JSON body nested deeper than :data:`MAX_DEPTH` is a 400 ``bad-request`` with
  ``errors.body``: Python's JSON decoder recurses once per array or object, and a 2 KB body of
  about 1,000 opening brackets ended in a ``RecursionError``. Every request with a JSON media
  type is checked, whatever endpoint it is for, so no parser (webargs, ``get_json``) ever
  sees such a body. The deepest legitimate body, a position of ``POST /v1/analysis``, nests 5.
"""

from __future__ import annotations

import re
from typing import Final

from flask import Flask, current_app, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from api.http.errors import BAD_REQUEST, Problem, ProblemType

REQUEST_TIMEOUT: Final = ProblemType("request-timeout", 408, "The request body stalled")

#: Deepest nesting of arrays and objects a request body may have.
MAX_DEPTH: Final = 32

#: A JSON string (escapes included; an unterminated one runs to the end), or one bracket.
_TOKEN: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)
_OPENING: Final = frozenset(b"[{")


def too_deep(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays and objects in ``data`` nest more than ``limit`` levels (brackets inside
    strings do not count; ``data`` need not be valid JSON)."""
    if data.count(b"[") + data.count(b"{") <= limit:  # the common case: no scan at all
        return False
    depth = 0
    for token in _TOKEN.finditer(data):
        first = token.group()[0]
        if first in _OPENING:
            depth += 1
            if depth > limit:
                return True
        elif first != ord('"'):
            depth -= 1
    return False


def _read() -> bytes:
    """The whole body, or the problem of a body over the cap or with a malformed framing."""
    try:
        data = request.get_data(cache=True)
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        if (request.content_length is None and limit is not None and len(data) >= limit
                and request.environ["wsgi.input"].read(1)):
            raise RequestEntityTooLarge()
    except HTTPException as exc:
        # werkzeug reports a read that failed as ClientDisconnected, the error its context
        if isinstance(exc.__context__, TimeoutError):  # the server's read timeout
            raise Problem(REQUEST_TIMEOUT, "no byte of the request body came within the "
                          "server's read timeout; nothing was done") from None
        raise
    except Exception as exc:  # the server's body parser: e.g. gunicorn's InvalidChunkSize
        raise Problem(BAD_REQUEST, f"the request body is malformed: {exc}") from None
    return data


def _check_body() -> None:
    data = _read()
    if request.is_json and too_deep(data):
        message = f"JSON nested deeper than {MAX_DEPTH} levels"
        raise Problem(BAD_REQUEST, f"body: {message}", errors={"body": [message]})


def init(app: Flask) -> None:
    """Check the body of every request to ``app`` before its view runs."""
    app.before_request(_check_body)
