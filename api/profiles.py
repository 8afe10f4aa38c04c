"""A player's profile with his standing: matches and hands won, ratings, leaderboard ranks
and tour stamps per variant (``GET /v1/players/{id}``, ``GET /v1/players/me``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.leaderboard.service import standings
from api.leaderboard.store import LeaderboardStore
from api.players.service import profile
from api.players.store import Player
from api.ratings.model import Rating
from api.ratings.service import rating_doc
from api.ratings.store import RatingStore
from api.tour.stations import STATIONS
from api.tour.store import STAMP, TourStore
from engine.hosted import rated_variants


def full_profile(board: LeaderboardStore, ratings: RatingStore, tours: TourStore,
                 player: Player, stats: Mapping[str, tuple[int, int]] | None = None,
                 ) -> dict[str, Any]:
    """:func:`api.players.service.profile` (with ``stats``) plus hands won, ratings, ranks
    and tour stamps."""
    out = profile(player, stats)
    out["hands_won"] = board.hands_won(player.player_id, list(rated_variants()))
    out["ratings"] = {}
    for variant in rated_variants():
        raw = ratings.read(variant, [(player.kind, player.player_id)])[0]
        out["ratings"][variant] = None if raw is None else rating_doc(Rating.decode(raw))
    out["leaderboard"] = standings(board, player.player_id, player.kind)
    progress = tours.progress(player.player_id)
    stamped = [s.slug for s in STATIONS if f"{STAMP}{s.slug}" in progress]
    out["tour"] = {"stamps": len(stamped), "stamped": stamped}
    return out
