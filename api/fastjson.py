"""JSON of the request hot path: orjson, with the standard library where orjson refuses.

Every action parses the stored state, meta and recent events and writes the state, its events
and a view of about 2 KB; the standard library's C encoder took about 60 µs for that view on
the benchmark machine, orjson about 10 µs (and a fifth of the time for the rest).

:func:`dumps` writes compact JSON as bytes; a value orjson refuses (a lone surrogate, which a
JSON string escape can put in a name; an integer over 64 bits) is written by the standard
library instead, so nothing that encoded before fails now. Non-ASCII text is written as UTF-8
(JSON's encoding), not as ``\\u`` escapes. :func:`loads` is for JSON this service wrote (stored
records): orjson, or the standard library for what orjson refuses (a lone surrogate's escape);
both raise :class:`ValueError` on invalid JSON. Integers beyond 64 bits would come back as
floats: the service stores none.
"""

from __future__ import annotations

import json
from typing import Any, Final

import orjson

_OPTIONS: Final = orjson.OPT_NON_STR_KEYS  # int keys become strings, as json.dumps does
_encode: Final = json.JSONEncoder(separators=(",", ":")).encode


def dumps(value: Any) -> bytes:
    """Compact JSON of ``value`` (UTF-8)."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: what orjson cannot write
        return _encode(value).encode()


def dumps_text(value: Any) -> str:
    """:func:`dumps` as text."""
    return dumps(value).decode()


def loads(text: bytes | str) -> Any:
    """The value of a JSON document this service wrote."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
