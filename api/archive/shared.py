"""The fields of a history item every player of a finished game shares, kept once in the
game's ``finished_games.shared`` row rather than in each ``player_results.entry``: which they
are, and how a game's results rows are split from them (the archive writes them,
:mod:`api.players.records` reads them back)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

#: Fields of a history item every player of the game shares: kept once, in the game's
#: ``finished_games.shared``, not in each player's ``entry`` (:func:`split_shared`).
SHARED: Final = ("reason", "points", "matches_won", "rated", "private", "table_id",
                 "tour_station", "kinds")


def shared_of(results: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The :data:`SHARED` fields of the first of a game's ``results`` rows written with the
    archived game (its entry has ``kinds``), else ``None``."""
    for result in results:
        entry = result["entry"]
        if "kinds" in entry:
            return {k: entry[k] for k in SHARED if k in entry}
    return None


def split_shared(results: Iterable[Mapping[str, Any]],
                 shared: Mapping[str, Mapping[str, Any] | None]) -> list[dict[str, Any]]:
    """The ``results`` rows without the fields their game's row keeps (``shared``, by game
    id): an entry loses them only if it holds every one of them with the same value, so
    :meth:`api.players.records.PlayerRecords.page` (the game's fields, then the entry's)
    reads it back as it was."""
    out = []
    for result in results:
        kept = shared.get(result["game_id"])
        entry = result["entry"]
        if kept and all(k in entry and entry[k] == v for k, v in kept.items()):
            entry = {k: v for k, v in entry.items() if k not in kept}
        out.append({**result, "entry": entry})
    return out
