"""``GET /v1/leaderboard``: points per player (docs/rules.md §9), all time or per month."""

from __future__ import annotations

import time
from typing import Any, Final

from flask import Response
from flask.views import MethodView

from api.http.resources.blueprint import Blueprint
from api.http.schemas.rank import LeaderboardPageSchema, LeaderboardQuerySchema
from api.http.support import json_response, services
from api.leaderboard.service import board_page
from api.leaderboard.store import month_of

blp = Blueprint("leaderboard", __name__, url_prefix="/v1/leaderboard",
                description="The leaderboard: points from hands won, placements and leaving")

EXAMPLE: Final = {
    "period": "month", "month": "2025-01", "variant": None, "kind": "human",
    "entries": [{"rank": 1, "player_id": "pA3x9Qk2LmZ0", "name": "Ann", "points": 87},
                {"rank": 2, "player_id": "x8Kd0PqLm3Za", "name": "Bob", "points": 45},
                {"rank": 2, "player_id": "Qw3e4R5t6Y7u", "name": "Cid", "points": 45}],
    "next_cursor": None}


@blp.route("")
class Leaderboard(MethodView):
    @blp.arguments(LeaderboardQuerySchema(), location="query")
    @blp.response(200, LeaderboardPageSchema, example=EXAMPLE)
    def get(self, query: dict[str, Any]) -> Response:
        """The best players first: ``period=all`` (default) or ``month`` (a calendar month in
        UTC, ``month=YYYY-MM``, default the current one), one ``variant`` or all, and
        ``kind=human`` (default) or ``bot`` (bot accounts have their own board).

        Points (docs/rules.md §9): every hand won counts its 1–3 game points; at the end of a match
        30 / 15 / 5 for first, second, third by match points (partners share their side's
        place; level sides share the better place; two sides: 30 and 15); resigning against
        another player costs 10 and gives no placement; a hand with a hint does not count, and
        a match with a hint gets no placement. Only rated matches of players count (tables
        not created with ``rated: false``, and tour matches); computers are never on it.
        Ranks: 1 + players with more points. Page on with ``cursor=next_cursor``.
        """
        period = query["period"]
        month = query.get("month") or month_of(time.time()) if period == "month" else None
        svc = services()
        entries, cursor = board_page(svc.leaderboard, svc.players, query["kind"],
                                     period, query.get("variant"), month,
                                     int(query.get("cursor", 0)), query["limit"])
        return json_response({"period": period, "month": month,
                              "variant": query.get("variant"), "kind": query["kind"],
                              "entries": entries, "next_cursor": cursor})
