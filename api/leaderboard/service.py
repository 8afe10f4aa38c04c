"""Reading the leaderboard: pages of a board, a player's points and rank on every board.

Pages are by offset (``cursor`` is the offset of the next page): a board changes while it is
read, so a player may move between two pages; ranks are always current (1 + the players with
more points, so level players share a rank).
"""

from __future__ import annotations

import time
from typing import Any

from api.keys import board_key
from api.leaderboard.store import ALL, PERIODS, LeaderboardStore, month_of
from api.players.store import PlayerStore
from engine.hosted import rated_variants


def board_page(board: LeaderboardStore, players: PlayerStore, kind: str, period: str,
               variant: str | None, month: str | None, offset: int, limit: int,
               ) -> tuple[list[dict[str, Any]], str | None]:
    """A page of a board from rank ``offset + 1`` and the next cursor (``None`` at the end)."""
    key = board_key(kind, period, variant, month)
    rows = board.page(key, offset, limit)
    names = players.names([player_id for player_id, _ in rows])
    entries: list[dict[str, Any]] = []
    for i, (player_id, points) in enumerate(rows):
        if entries and entries[-1]["points"] == points:
            rank = entries[-1]["rank"]
        elif i == 0:
            rank = board.rank_of_points(key, points)
        else:
            rank = offset + i + 1
        entries.append({"rank": rank, "player_id": player_id,
                        "name": names.get(player_id, player_id),
                        "points": points})
    return entries, str(offset + limit) if len(rows) == limit else None


def standings(board: LeaderboardStore, player_id: str, kind: str,
              ) -> dict[str, dict[str, dict[str, int] | None]]:
    """A player's points and rank on every board of his kind: period (``all``, ``month`` — the
    current month) → variant (``all`` or one) → ``{points, rank}`` or ``None``."""
    month = month_of(time.time())
    board.ready()
    out: dict[str, dict[str, dict[str, int] | None]] = {}
    for period in PERIODS:
        row: dict[str, dict[str, int] | None] = {}
        for variant in (None, *rated_variants()):
            found = board.standing(board_key(kind, period, variant, month), player_id)
            row[variant or ALL] = None if found is None else {"points": found[0],
                                                              "rank": found[1]}
        out[period] = row
    return out
