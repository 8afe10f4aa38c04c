"""The tour's part of a finished game: stamp the station the player's side won."""

from __future__ import annotations

from api.games.store import Game
from api.tour.store import TourStore
from engine.hosted import seat_won


def stamp_if_won(tours: TourStore, game: Game) -> bool:
    """Stamp the station of a finished tour game the player's side won; whether newly."""
    info = game.meta.get("tour")
    if info is None or not seat_won(game.state, 0):
        return False
    return tours.stamp(info["player_id"], info["station"])
