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
* A JSON body with a key given twice in one object is a 400 ``bad-request`` naming it
  (``errors["seats.0.kind"]``): the parsers would keep one of the two silently.
* A JSON integer too long for Python to read (over ``sys.get_int_max_str_digits()``, 4,300
  digits) is a 422 ``validation-error`` naming its member: the parsers raised a ``ValueError``
  (a 500) on it. No member takes a number of that size.

The body is parsed once here for these checks (as long as the standard library's plain parse
takes); only a body with a fault is parsed again to find its path.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Final

from flask import Flask, current_app, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from api.http.errors import BAD_REQUEST, VALIDATION, Problem, ProblemType

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


class _Fault(Exception):
    """A repeated key or an unreadable integer met while the body is parsed."""


class _Repeated(dict[str, Any]):
    """An object of the body that gives ``key`` twice."""

    def __init__(self, pairs: list[tuple[str, Any]], key: str) -> None:
        super().__init__(pairs)
        self.key = key


#: What an integer too long to read parses to while a fault is looked for.
_TOO_LONG: Final = object()


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Fault
    return obj


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:  # more digits than sys.get_int_max_str_digits()
        raise _Fault from None


def _marked_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return _Repeated(pairs, key)
        seen.add(key)
    return dict(pairs)


def _marked_integer(text: str) -> object:
    try:
        return int(text)
    except ValueError:
        return _TOO_LONG


_CHECKING: Final = json.JSONDecoder(object_pairs_hook=_unique, parse_int=_integer)
_MARKING: Final = json.JSONDecoder(object_pairs_hook=_marked_pairs, parse_int=_marked_integer)


def _member(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _fault_in(value: object, path: str = "") -> tuple[str, str | None] | None:
    """The path of the first repeated key (and the key) or too long integer (and ``None``)."""
    if value is _TOO_LONG:
        return path or "body", None
    if isinstance(value, _Repeated):
        return _member(path, value.key), value.key
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, item in items:
        if (found := _fault_in(item, _member(path, key))) is not None:
            return found
    return None


def check_json(data: bytes) -> None:
    """Raise the problem of a JSON body with a repeated key or an integer too long to read
    (the first in the body); a body that is not JSON is left to the parsers to refuse."""
    try:
        text = data.decode(json.detect_encoding(data), "surrogatepass")
        _CHECKING.decode(text)
    except _Fault:
        found = _fault_in(_MARKING.decode(text))
        assert found is not None
        path, key = found
        if key is not None:
            message = f"the key {key!r} is given twice in one object"
            raise Problem(BAD_REQUEST, f"{path}: {message}", errors={path: [message]}) from None
        message = (f"an integer of more than {sys.get_int_max_str_digits()} digits; no member "
                   "takes one")
        raise Problem(VALIDATION, f"{path}: {message}", errors={path: [message]}) from None
    except ValueError:  # not JSON (or not text): the parsers answer it as before
        return


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
    if not request.is_json or not data:
        return
    if too_deep(data):
        message = f"JSON nested deeper than {MAX_DEPTH} levels"
        raise Problem(BAD_REQUEST, f"body: {message}", errors={"body": [message]})
    check_json(data)


def init(app: Flask) -> None:
    """Check the body of every request to ``app`` before its view runs."""
    app.before_request(_check_body)
