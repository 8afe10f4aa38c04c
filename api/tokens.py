"""Seat tokens: 256-bit secrets shown once, stored only as SHA-256 digests, never logged.

A token is ``secrets.token_urlsafe(32)`` (43 characters). Checking one hashes it and compares
the digest in constant time (:func:`hmac.compare_digest`). :func:`seal`/:func:`unseal` let an
idempotent creation replay its tokens without storing them readable: each token is XORed with
an HMAC-SHA512 pad keyed by the client's ``Idempotency-Key``, which the server never stores.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

TOKEN_BYTES = 32


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    """Hex SHA-256 of a token: the only form that is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def find_seat(token: str, digests: Iterable[str | None]) -> int | None:
    """Index of the digest ``token`` matches, comparing every digest in constant time."""
    wanted = digest(token)
    found = None
    for seat, stored in enumerate(digests):
        if stored is not None and hmac.compare_digest(wanted, stored):
            found = seat
    return found


def _pad(key: str, context: str) -> bytes:
    return hmac.new(key.encode(), context.encode(), hashlib.sha512).digest()


def seal(token: str, key: str, context: str) -> str:
    """``token`` encrypted with a one-time pad derived from ``key`` and ``context`` (hex)."""
    raw = token.encode()
    return bytes(a ^ b for a, b in zip(raw, _pad(key, context), strict=False)).hex()


def unseal(sealed: str, key: str, context: str) -> str:
    raw = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(raw, _pad(key, context), strict=False)).decode()
