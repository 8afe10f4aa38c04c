"""The ratings' Redis keys, all in one slot per deployment (tag ``{ratings}``; see
:mod:`api.ratings.store`)."""

from __future__ import annotations

from typing import Final

from api.games.store import PREFIX

TAG: Final = "{ratings}"


def ratings_key(variant: str) -> str:
    return f"{PREFIX}:ratings:{TAG}:{variant}"


def listing_key(variant: str, kind: str) -> str:
    return f"{PREFIX}:ratings:{TAG}:{variant}:{kind}"


def marker_key(source: str) -> str:
    return f"{PREFIX}:ratings:{TAG}:done:{source}"
