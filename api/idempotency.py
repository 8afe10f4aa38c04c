"""``Idempotency-Key``: the same key with the same request replays the first response.

A record holds a fingerprint of the request (method, path, the caller's token digest, body),
the status, body and headers of the response. The same key with another fingerprint is a
422; a creation still running under the key is a 409. Records live
``SIXTYSIX_IDEMPOTENCY_TTL`` seconds.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Final

from flask import Response, request

from api.errors import BAD_REQUEST, IDEMPOTENCY_KEY_REUSED, REQUEST_IN_PROGRESS, Problem
from api.http import json_response

HEADER: Final = "Idempotency-Key"
MAX_KEY: Final = 255


def key() -> str | None:
    """The request's ``Idempotency-Key`` (1–255 characters) or ``None``."""
    value = request.headers.get(HEADER)
    if value is None:
        return None
    if not 0 < len(value) <= MAX_KEY:
        raise Problem(BAD_REQUEST, f"{HEADER} must have 1 to {MAX_KEY} characters")
    return value


def fingerprint(token_digest: str | None, body: Any) -> str:
    text = json.dumps([request.method, request.path, token_digest, body], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def record(fp: str, status: int, body: Any, headers: dict[str, str]) -> dict[str, Any]:
    return {"fingerprint": fp, "status": status, "body": body, "headers": headers}


def pending(fp: str) -> dict[str, Any]:
    return {"fingerprint": fp, "pending": True}


def check(stored: dict[str, Any], fp: str) -> dict[str, Any]:
    """The stored record if it is this request's; else the problem to answer."""
    if stored["fingerprint"] != fp:
        raise Problem(IDEMPOTENCY_KEY_REUSED,
                      f"this {HEADER} was used for a different request; use a new key")
    if stored.get("pending"):
        raise Problem(REQUEST_IN_PROGRESS, f"the first request with this {HEADER} is still "
                      "running; retry shortly", headers={"Retry-After": "1"})
    return stored


def replay(stored: dict[str, Any]) -> Response:
    return json_response(stored["body"], stored["status"],
                         {**stored["headers"], "Idempotent-Replayed": "true"})
