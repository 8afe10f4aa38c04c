"""``GET /v1/ratings``: ratings per variant of players, bot accounts and computer levels."""

from __future__ import annotations

from typing import Any, Final

from flask import Response
from flask.views import MethodView

from api.http import json_response
from api.ratings.service import listing
from api.ratings.store import RatingStore
from api.resources.blueprint import Blueprint
from api.resources.lobby_support import lobby
from api.schemas_rank import RatingsPageSchema, RatingsQuerySchema

blp = Blueprint("ratings", __name__, url_prefix="/v1/ratings",
                description="Ratings (OpenSkill Plackett-Luce) per variant")

EXAMPLE: Final = {"variant": "sixty-six", "kind": "computer", "ratings": [
    {"place": 1, "kind": "computer", "id": "strong", "name": "Computer (strong)",
     "display": 1652, "mu": 30.07, "sigma": 1.21, "ordinal": 26.44, "matches": 400,
     "provisional": False},
    {"place": 2, "kind": "computer", "id": "normal", "name": "Computer (normal)",
     "display": 1561, "mu": 27.03, "sigma": 1.19, "ordinal": 23.46, "matches": 400,
     "provisional": False}], "next_cursor": None}


@blp.route("")
class Ratings(MethodView):
    @blp.arguments(RatingsQuerySchema(), location="query")
    @blp.response(200, RatingsPageSchema, example=EXAMPLE)
    def get(self, query: dict[str, Any]) -> Response:
        """A variant's ratings (``variant``, default sixty-six) of ``kind`` ``human``
        (default), ``bot`` or ``computer`` (the levels, rated from their matches against
        players and from ``sixtysix arena --rate``), best first by ``ordinal``.

        All kinds are on one scale: ``display`` is ``1500 + 30 × (mu − 25)`` (about Elo's
        scale: 400 more is 10:1 odds); ``provisional`` while few matches are rated. Page on
        with ``cursor=next_cursor``.
        """
        variant, kind = query["variant"], query["kind"]
        store = RatingStore(lobby().players.redis)
        offset = int(query.get("cursor", 0))
        rows = listing(store, variant, kind, offset, query["limit"], lobby().players.names)
        return json_response({"variant": variant, "kind": kind, "ratings": rows,
                              "next_cursor": str(offset + query["limit"])
                              if len(rows) == query["limit"] else None})

