"""``GET /v1/games/{game_id}/events``: the game's event log as a seat (or spectator) sees it."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from api.games.turns import clocked_meta
from api.http.resources.blueprint import OPTIONAL_SEAT_TOKEN, Blueprint
from api.http.resources.lobby_support import spectate
from api.http.schemas import EventPageSchema, EventsQuerySchema
from api.http.support import authenticate, bearer_token, checked_game_id, json_response, services

blp = Blueprint("events", __name__, url_prefix="/v1/games",
                description="A game's events, paginated by sequence number")


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.doc(security=OPTIONAL_SEAT_TOKEN)
    @blp.arguments(EventsQuerySchema(), location="query")
    @blp.response(200, EventPageSchema)
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="GameNotFound")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Events with ``seq > after``, oldest first, at most ``limit``.

        With a bearer token a seat's own private details are included (its cards dealt and
        drawn); without one, the spectator's (a private table's game: with its invite code).
        Page on with ``after=next_after`` until ``next_after == last_seq``.
        """
        token = bearer_token(required=False)
        game_id = checked_game_id(game_id)
        svc = services()
        meta, count, logged = svc.games.events(game_id, query["after"], query["limit"])
        seat = authenticate(game_id, meta, token) if token is not None else None
        if seat is None:
            spectate(game_id, meta, query.get("invite_code"))
        if clocked_meta(svc, game_id, meta):  # applied first (a computer's move: queued)
            meta, count, logged = svc.games.events(game_id, query["after"], query["limit"])
        # Not dumped through EventPageSchema: it would drop each event's type-specific members.
        return json_response({
            "events": [e.for_seat(seat) for e in logged],
            "next_after": logged[-1].seq if logged else min(query["after"], count),
            "last_seq": count,
        })
