"""``/v1/tour``: the Route-66 tour, eight diner opponents from Chicago to Santa Monica."""

from __future__ import annotations

from typing import Any, Final

from flask import Response
from flask.views import MethodView

from api.games.turns import enqueue_computers, refuse_when_busy, require_queue
from api.http.limits import client_address
from api.http.resources.blueprint import Blueprint
from api.http.resources.lobby_support import PLAYER_TOKEN, required_player
from api.http.schemas.rank import TourSchema, TourStartSchema
from api.http.support import bearer_token, etag, json_response, services
from api.tour.service import latest_unstamped_game, start, tour_view

blp = Blueprint("tour", __name__, url_prefix="/v1/tour",
                description="The Route-66 tour: win a station's match to stamp it and open "
                            "the next")

_STATION: Final = {"station": "chicago", "number": 1, "city": "Chicago",
                   "diner": "Lakeshore Griddle", "opponent": "Mabel", "level": "easy",
                   "variant": "sixty-six", "match_points": 3}
EXAMPLE: Final = {
    "player_id": "pA3x9Qk2LmZ0", "stamps": 1, "next": "st-louis", "stations": [
        {**_STATION, "stamped_at": 1738324800, "open": True,
         "game": {"game_id": "q3V9k2xR0aLmT7wZ",
                  "token": "Qm9i4s1Jc2VjcmV0LXNlYXQtdG9rZW4tZXhhbXBsZQ"}},
        {"station": "st-louis", "number": 2, "city": "St. Louis", "diner": "Gateway Grill",
         "opponent": "Earl", "level": "easy", "variant": "schnapsen", "match_points": 3,
         "stamped_at": None, "open": True, "game": None}]}
START_EXAMPLE: Final = {"station": "st-louis", "game_id": "r7Yb2LmQ9xWk", "seat": 0,
                        "token": "Qm9i4s1Jc2VjcmV0LXNlYXQtdG9rZW4tZXhhbXBsZQ",
                        "game": "/v1/games/r7Yb2LmQ9xWk"}


def _player_token() -> str:
    """The request's player token (:func:`required_player` has checked it)."""
    token = bearer_token(required=True)
    assert token is not None
    return token


@blp.route("")
class Tour(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.response(200, TourSchema, example=EXAMPLE)
    @blp.alt_response(401, response="PlayerUnauthorized")
    def get(self) -> Response:
        """The player's tour: every station (city, diner, opponent, level, variant, match
        length), its stamp, whether it is open, and his latest game there (to resume)."""
        player = required_player()
        svc = services()
        if (game := latest_unstamped_game(svc.games, svc.tour, player)) is not None:
            svc.after_save(game)  # a result its save's pipeline missed
        return json_response(tour_view(svc.tour, player, _player_token()))


@blp.route("/<station>/start")
class TourStart(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.response(201, TourStartSchema, example=START_EXAMPLE,
                  headers={"ETag": "ETag", "Location": "Location"})
    @blp.alt_response(401, response="PlayerUnauthorized")
    @blp.alt_response(403, response="TooManyGames")
    @blp.alt_response(404, response="StationNotFound")
    @blp.alt_response(409, response="StationNotOpen")
    @blp.alt_response(503, response="ComputersBusy")
    def post(self, station: str) -> Response:
        """Start a match against the station's opponent: the player sits at seat 0 with the
        answered seat token (play it as any game: ``/v1/games/{game_id}``).

        Open stations: the first, and each one after a stamped one; stamped and lost ones
        can be played again. Winning the match stamps the station and opens the next.
        Counted against the same rate limit and per-address game cap as ``POST /v1/games``,
        and refused as it is with 503 ``computers-busy`` while the computers cannot take
        another game.
        """
        player = required_player()
        svc = services()
        require_queue(svc, [{"kind": "computer"}])  # every station's opponent is a computer
        refuse_when_busy(svc, [{"kind": "computer"}])
        game, token = start(svc.games, svc.tour, player, _player_token(), station,
                            client_address())
        svc.after_save(game)  # hands finished at the start
        enqueue_computers(svc, game)  # the opponent's opening moves, on the worker tier
        out: dict[str, Any] = {"station": station, "game_id": game.game_id, "seat": 0,
                               "token": token, "game": f"/v1/games/{game.game_id}"}
        return json_response(out, 201, {"Location": f"/v1/games/{game.game_id}",
                                        "ETag": etag(game.version)})
