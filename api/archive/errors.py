"""The archive's error: its database cannot be reached (a 503 that names no cause)."""

from __future__ import annotations

from api.errors import Unavailable


class ArchiveUnavailable(Unavailable):
    """The database behind the archive (finished games, players, histories) is down."""

    slug = "archive-unavailable"
    title = "The archive of finished games is unavailable"
