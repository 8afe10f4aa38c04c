"""Seat tokens: 256-bit secrets shown once, stored only as SHA-256 digests, never logged.

A token is ``secrets.token_urlsafe(32)`` (43 characters). Checking one hashes it and compares
the digest in constant time (:func:`hmac.compare_digest`). :func:`seal`/:func:`unseal` let an
idempotent creation replay its tokens without storing them readable: each token is XORed with
an HMAC-SHA512 pad keyed by the client's ``Idempotency-Key``, which the server never stores.
The seat tokens of a table's game are sealed the same way under :func:`sealing_key` of the
seated player's token (see :mod:`api.tables.seat_tokens`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from typing import Final

TOKEN_BYTES = 32
#: Domain separation of the key that seals a player's seat tokens (:func:`sealing_key`).
SEAT_SEAL_LABEL: Final = b"sixtysix seat-token seal v1"


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


def sealing_key(player_token: str) -> str:
    """The key sealing a player's seat tokens: HMAC-SHA256 of :data:`SEAT_SEAL_LABEL` keyed
    by the raw player token (hex). Never derived from the token's stored digest, which the
    server holds: only a caller presenting the player token can unseal."""
    return hmac.new(player_token.encode(), SEAT_SEAL_LABEL, hashlib.sha256).hexdigest()
