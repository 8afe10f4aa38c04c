"""``Idempotency-Key``: the same key with the same request replays the first response.

A record holds a fingerprint of the request (method, path, the caller's token digest, body;
:data:`FINGERPRINT_HEX` hex digits of its SHA-256) under the SHA-256 of the key (never the
key). A create's record keeps the status, body (the sealed tokens) and headers of its answer;
an action's keeps its status and the :class:`~api.games.as_of.Mark` of its save (about 90
bytes, 150 at a clock, where its view took 2 to 4 KB), and its replay renders the view again
as it was right after that save (:func:`~api.games.as_of.game_as_of`). The same key with
another fingerprint is a 422; a creation still running under the key is a 409. Records live
``SIXTYSIX_IDEMPOTENCY_TTL`` seconds.

An action's key is scoped by its seat token (in the fingerprint): another caller's replay is
a 422 and never shows the first caller's view. A create has no caller yet, so its replay hands
the seat tokens to whoever presents the key: the key of a create is a secret like a token.
It must be :data:`CREATE_KEY` (at least 22 characters of ``A-Z a-z 0-9 _ -``, 128 bits and
more when random, or a UUID), so that it cannot be guessed; the tokens in its record are
sealed with the key. Once players have tokens of their own, the player's token digest takes
the caller's place in a create's fingerprint, as the seat token does for actions.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Final

from flask import Response, request

from api.games.as_of import Mark
from api.http.errors import BAD_REQUEST, IDEMPOTENCY_KEY_REUSED, REQUEST_IN_PROGRESS, Problem
from api.http.support import json_response

HEADER: Final = "Idempotency-Key"
MAX_KEY: Final = 255
#: An Idempotency-Key a create accepts (a UUID matches as well).
MIN_CREATE_KEY: Final = 22
CREATE_KEY: Final = re.compile(rf"[A-Za-z0-9_-]{{{MIN_CREATE_KEY},{MAX_KEY}}}")
CREATE_KEY_RULE: Final = (
    f"{HEADER} of a create must be {MIN_CREATE_KEY} to {MAX_KEY} characters of A-Z a-z 0-9 _ - "
    "(e.g. a UUID, or 16 random bytes in base64url): its replay returns the seat tokens, so it "
    "is a secret like them")


def key() -> str | None:
    """The request's ``Idempotency-Key`` (1–255 characters) or ``None``."""
    value = request.headers.get(HEADER)
    if value is None:
        return None
    if not 0 < len(value) <= MAX_KEY:
        raise Problem(BAD_REQUEST, f"{HEADER} must have 1 to {MAX_KEY} characters")
    return value


def create_key() -> str | None:
    """The request's ``Idempotency-Key`` for a create, or ``None``; a 400 naming the header
    unless it is :data:`CREATE_KEY`."""
    value = key()
    if value is not None and not CREATE_KEY.fullmatch(value):
        raise Problem(BAD_REQUEST, CREATE_KEY_RULE, errors={HEADER: [CREATE_KEY_RULE]})
    return value


#: Hex digits of a request's SHA-256 its fingerprint keeps: 128 bits, so two requests under
#: one key never pass for one another.
FINGERPRINT_HEX: Final = 32


def fingerprint(token_digest: str | None, body: Any) -> str:
    text = json.dumps([request.method, request.path, token_digest, body], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:FINGERPRINT_HEX]


def record(fp: str, status: int, body: Any, headers: dict[str, str]) -> dict[str, Any]:
    """The record of an answer kept whole (a create's)."""
    return {"fingerprint": fp, "status": status, "body": body, "headers": headers}


def marked(fp: str, status: int, mark: Mark) -> dict[str, Any]:
    """The record of an action's answer: its status and its save's ``mark``, from which
    :func:`~api.games.as_of.game_as_of` rebuilds the game it showed."""
    return {"fingerprint": fp, "status": status, "mark": mark.to_list()}


def pending(fp: str, **known: Any) -> dict[str, Any]:
    """The marker of a request under way; ``known``: what it has decided already (a
    creation's game id and sealed tokens)."""
    return {"fingerprint": fp, "pending": True, **known}


def in_progress() -> Problem:
    """The 409 of a key whose first request is still under way."""
    return Problem(REQUEST_IN_PROGRESS, f"the first request with this {HEADER} is still "
                   "running; retry shortly", headers={"Retry-After": "1"})


def reused() -> Problem:
    """The 422 of a key sent again with another request."""
    return Problem(IDEMPOTENCY_KEY_REUSED,
                   f"this {HEADER} was used for a different request; use a new key")


def matches(stored: dict[str, Any], fp: str) -> bool:
    """Whether ``stored`` is the record of the request of fingerprint ``fp`` (a record
    written before fingerprints were cut to :data:`FINGERPRINT_HEX` digits has all 64)."""
    return bool(stored["fingerprint"][:FINGERPRINT_HEX] == fp)


def check(stored: dict[str, Any], fp: str) -> dict[str, Any]:
    """The stored record if it is this request's; else the problem to answer."""
    if not matches(stored, fp):
        raise reused()
    if stored.get("pending"):
        raise in_progress()
    return stored


def replay(stored: dict[str, Any]) -> Response:
    """The answer of a record kept whole (:func:`record`)."""
    return replayed(stored["body"], stored["status"], stored["headers"])


def replayed(body: Any, status: int, headers: dict[str, str]) -> Response:
    """A replayed answer: ``Idempotent-Replayed: true`` with its headers."""
    return json_response(body, status, {**headers, "Idempotent-Replayed": "true"})
