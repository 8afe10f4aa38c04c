"""``GET /v1/ratings``: ratings per variant of players, bot accounts and computer levels."""

from __future__ import annotations

from typing import Any, Final

from flask import Response
from flask.views import MethodView

from api.http.resources.blueprint import Blueprint
from api.http.schemas.rank import RatingsPageSchema, RatingsQuerySchema
from api.http.support import json_response, services
from api.ratings.service import listing

blp = Blueprint("ratings", __name__, url_prefix="/v1/ratings",
                description="Ratings (OpenSkill Plackett-Luce) per variant")

#: A fresh server's answer to ``?variant=schnapsen&kind=computer&limit=2`` (the shipped seed;
#: tests/api/ratings/test_rating_seed.py compares).
EXAMPLE: Final = {"variant": "schnapsen", "kind": "computer", "ratings": [
    {"place": 1, "kind": "computer", "id": "normal", "name": "Computer (normal)",
     "display": 1882, "mu": 37.717, "sigma": 3.744, "ordinal": 26.484, "matches": 42,
     "provisional": False},
    {"place": 2, "kind": "computer", "id": "strong", "name": "Computer (strong)",
     "display": 1819, "mu": 35.641, "sigma": 3.776, "ordinal": 24.313, "matches": 39,
     "provisional": False}], "next_cursor": "2"}


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
        svc = services()
        offset = int(query.get("cursor", 0))
        rows = listing(svc.ratings, variant, kind, offset, query["limit"], svc.players.names)
        return json_response({"variant": variant, "kind": kind, "ratings": rows,
                              "next_cursor": str(offset + query["limit"])
                              if len(rows) == query["limit"] else None})

