"""Request bodies: a JSON body nested deeper than :data:`MAX_DEPTH` is refused before parsing.

Python's JSON decoder recurses once per array or object: a 2 KB body of about 1,000 opening
brackets ends in a ``RecursionError``. Every request with a JSON media type is checked in a
``before_request`` hook, whatever endpoint it is for, so no parser (webargs, ``get_json``) ever
sees such a body; the answer is a 400 ``bad-request`` problem with ``errors.body``. The deepest
legitimate body, a pasted position of ``POST /v1/analysis``, nests 5 levels.
"""

from __future__ import annotations

import re
from typing import Final

from flask import Flask, request

from api.errors import BAD_REQUEST, Problem

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


def _check_depth() -> None:
    if request.is_json and too_deep(request.get_data(cache=True)):
        message = f"JSON nested deeper than {MAX_DEPTH} levels"
        raise Problem(BAD_REQUEST, f"body: {message}", errors={"body": [message]})


def init(app: Flask) -> None:
    """Refuse too deeply nested JSON bodies of every request to ``app``."""
    app.before_request(_check_depth)
