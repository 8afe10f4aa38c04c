"""``/v1/players``: create a player (its token shown once), read profiles, list my games."""

from __future__ import annotations

from typing import Any, Final

from flask import Response
from flask.views import MethodView

from api.accounts.service import delete_player, export, owned
from api.games.turns import clocked
from api.http.resources.blueprint import Blueprint
from api.http.resources.lobby_support import (
    OPTIONAL_PLAYER_TOKEN,
    PLAYER_TOKEN,
    current_player,
    required_player,
)
from api.http.schemas.lobby import (
    CreatedPlayerSchema,
    CreatePlayerSchema,
    MyGamesPageSchema,
    MyGamesQuerySchema,
)
from api.http.schemas.rank import (
    ExportSchema,
    HistoryPageSchema,
    HistoryQuerySchema,
    ProfileSchema,
)
from api.http.support import json_response, services
from api.players.service import create_player, load_player, profile
from api.profiles import full_profile
from api.tables.service import my_games

blp = Blueprint("players", __name__, url_prefix="/v1/players",
                description="Players: anonymous accounts with a secret player token")

_STATS: Final = {v: {"played": 0, "won": 0} for v in ("sixty-six", "schnapsen", "three-hand",
                                                      "four-hand")}
PLAYER_EXAMPLE: Final = {"player_id": "pA3x9Qk2LmZ0", "name": "Ann", "kind": "human",
                         "created_at": "2025-01-31T12:00:00Z",
                         "stats": {**_STATS, "sixty-six": {"played": 3, "won": 2}}}
_STANDING: Final = {"all": {"points": 87, "rank": 4}, "sixty-six": {"points": 87, "rank": 3},
                    "schnapsen": None, "three-hand": None, "four-hand": None}
PROFILE_EXAMPLE: Final = {
    **PLAYER_EXAMPLE,
    "hands_won": {**{v: 0 for v in _STATS}, "sixty-six": 14},
    "ratings": {"sixty-six": {"display": 1538, "mu": 26.27, "sigma": 6.1, "ordinal": 7.97,
                              "matches": 3, "provisional": True},
                "schnapsen": None, "three-hand": None, "four-hand": None},
    "leaderboard": {"all": _STANDING, "month": _STANDING},
    "tour": {"stamps": 2, "stamped": ["chicago", "st-louis"]},
}
HISTORY_EXAMPLE: Final = {"games": [{
    "game_id": "tB7q2WcXk9Lp.1", "variant": "sixty-six", "finished_at": "2025-01-31T12:25:00Z",
    "seat": 0, "result": "won", "reason": "points", "points": [7, 3], "matches_won": [1, 0],
    "rated": True, "private": False, "table_id": "tB7q2WcXk9Lp", "tour_station": None,
    "seats": [{"seat": 0, "name": "Ann", "kind": "human", "level": None,
               "player_id": "pA3x9Qk2LmZ0", "player_kind": "human"},
              {"seat": 1, "name": "Bob", "kind": "human", "level": None,
               "player_id": "x8Kd0PqLm3Za", "player_kind": "human"}],
    "record": "/v1/games/tB7q2WcXk9Lp.1/record"}],
    "next_cursor": "8261675099999:tB7q2WcXk9Lp.1"}
CREATED_EXAMPLE: Final = {**PLAYER_EXAMPLE, "stats": _STATS,
                          "token": "Qm9i4s1Jc2VjcmV0LXBsYXllci10b2tlbi1leGFtcGxl"}
EXPORT_EXAMPLE: Final = {
    "profile": PROFILE_EXAMPLE, "history": HISTORY_EXAMPLE["games"],
    "games": {"active": [], "finished": ["tB7q2WcXk9Lp.1"]}, "open_tables": [],
    "tour_games": {"chicago": "gC4h9Tq0Wm2E"}, "tour_stamped_at": {"chicago": 1738325400},
    "stored": {
        "ratings": [{"variant": "sixty-six", "kind": "human", "mu": 26.27, "sigma": 6.1,
                     "matches": 3}],
        "leaderboard_points": [{"kind": "human", "period": "all", "variant": "sixty-six",
                                "points": 87}],
        "leaderboard_hands": [{"variant": "sixty-six", "hands_won": 14}],
        "tour_stamps": [{"station": "chicago", "stamped_at": 1738325400}],
        "table_results": [{"game_id": "tB7q2WcXk9Lp.1", "table_id": "tB7q2WcXk9Lp",
                           "variant": "sixty-six", "result": "points",
                           "finished_at": 1738326000}]}}
MY_GAMES_EXAMPLE: Final = {"games": [{
    "game_id": "tB7q2WcXk9Lp.1", "table_id": "tB7q2WcXk9Lp", "variant": "sixty-six",
    "status": "playing", "seat": 0, "opponents": [{"seat": 1, "name": "Bob", "kind": "human"}],
    "to_act": [1], "your_turn": False, "started_at": "2025-01-31T12:05:00Z", "version": 7}],
    "next_cursor": None}


@blp.route("")
class Players(MethodView):
    @blp.arguments(CreatePlayerSchema(), example={"name": "Ann"})
    @blp.response(201, CreatedPlayerSchema, example=CREATED_EXAMPLE,
                  headers={"Location": "PlayerLocation"})
    @blp.alt_response(409, response="NameTaken")
    def post(self, body: dict[str, Any]) -> Response:
        """Create a player: ``name`` (3–20 letters, digits, spaces, ``-``, ``_``; unique
        without regard to case) and optional ``kind`` (``human`` or ``bot``).

        Answers the player token, shown only here (it is stored as a hash only). Send it as
        ``Authorization: Bearer`` to the lobby (``/v1/players/me``, ``/v1/tables``). It is not
        a seat token: a seat token comes from the table once its game has started.
        """
        player, token = create_player(services().players, body["name"], body["kind"])
        return json_response({**profile(player), "token": token}, 201,
                             {"Location": f"/v1/players/{player.player_id}"})


@blp.route("/me")
class Me(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.response(200, ProfileSchema, example=PROFILE_EXAMPLE)
    @blp.alt_response(401, response="PlayerUnauthorized")
    def get(self) -> Response:
        """The player of the token: his profile as ``GET /v1/players/{player_id}`` answers
        it, with his own points and rank on every leaderboard of his kind."""
        svc = services()
        player = required_player()
        return json_response(full_profile(svc.leaderboard, svc.ratings, svc.tour, player,
                                          svc.history.stats(player)))


@blp.route("/me/games")
class MyGames(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.arguments(MyGamesQuerySchema(), location="query")
    @blp.response(200, MyGamesPageSchema, example=MY_GAMES_EXAMPLE)
    @blp.alt_response(401, response="PlayerUnauthorized")
    def get(self, query: dict[str, Any]) -> Response:
        """The player's games at tables, newest first: ``status=active`` (default) or
        ``finished``, with table, variant, opponents, status and whose turn it is.

        Page on with ``cursor=next_cursor`` until it is null. With the player token alone a
        client can resume: the seat token of a game is in ``GET /v1/tables/{table_id}``.
        """
        player = required_player()
        svc = services()
        page, cursor = my_games(svc.games, svc.players, player, query["status"],
                                query.get("cursor"), query["limit"],
                                lambda game: clocked(svc, game, 0), svc.after_save)
        return json_response({"games": page, "next_cursor": cursor})


@blp.route("/<player_id>")
class PlayerResource(MethodView):
    @blp.response(200, ProfileSchema, example=PROFILE_EXAMPLE)
    @blp.alt_response(404, response="PlayerNotFound")
    def get(self, player_id: str) -> Response:
        """A player's public profile: name, kind, created; per variant matches played and
        won, hands won and rating; points and rank on every leaderboard (all time and this
        month; all variants and each); tour stamps."""
        svc = services()
        player = load_player(svc.players, player_id)
        return json_response(full_profile(svc.leaderboard, svc.ratings, svc.tour, player,
                                          svc.history.stats(player)))

    @blp.doc(security=PLAYER_TOKEN)
    @blp.response(204)
    @blp.alt_response(401, response="PlayerUnauthorized")
    @blp.alt_response(403, response="NotYourPlayer")
    @blp.alt_response(404, response="PlayerNotFound")
    @blp.alt_response(409, response="PlayerBusy")
    def delete(self, player_id: str) -> Response:
        """Delete the player (his own token only): his profile, token, history, standings
        and ratings go; his finished games stay, his seats in them named ``Anonymous`` with
        no player id. Refused (409 ``player-busy``) while he sits at a game in play or holds
        an open table. His token is unknown afterwards."""
        svc = services()
        caller = required_player()
        delete_player(svc, owned(load_player(svc.players, player_id), caller))
        return Response(status=204)


@blp.route("/<player_id>/export")
class PlayerExport(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.response(200, ExportSchema, example=EXPORT_EXAMPLE)
    @blp.alt_response(401, response="PlayerUnauthorized")
    @blp.alt_response(403, response="NotYourPlayer")
    @blp.alt_response(404, response="PlayerNotFound")
    def get(self, player_id: str) -> Response:
        """Everything held about the player (his own token only): his profile, every
        finished match of his history (private ones too), his games and open tables, his
        tour's games and stamps, and what the database holds of his standings (``stored``:
        ratings, board points, hands won, tour stamps, his tables' results). Never a token
        or its digest."""
        svc = services()
        caller = required_player()
        return json_response(export(svc, owned(load_player(svc.players, player_id), caller)))


@blp.route("/<player_id>/games")
class PlayerGames(MethodView):
    @blp.doc(security=OPTIONAL_PLAYER_TOKEN)
    @blp.arguments(HistoryQuerySchema(), location="query")
    @blp.response(200, HistoryPageSchema, example=HISTORY_EXAMPLE)
    @blp.alt_response(401, response="PlayerUnauthorized")
    @blp.alt_response(404, response="PlayerNotFound")
    def get(self, query: dict[str, Any], player_id: str) -> Response:
        """A player's finished matches, newest first: variant, result (``won``, ``lost``,
        ``aborted``) and how it ended, points and matches won per seat, who sat where, and
        the link to the record of play (``/v1/games/{id}/record``, while the game lives).

        Matches at private tables are listed only to the player himself (his player token).
        Page on with ``cursor=next_cursor`` until it is null; a page may hold fewer than
        ``limit`` matches.
        """
        svc = services()
        player = load_player(svc.players, player_id)
        caller = current_player(required=False)
        own = caller is not None and caller.player_id == player.player_id
        games, cursor = svc.history.page(
            player.player_id, query.get("cursor"), query["limit"])
        return json_response({"games": [g for g in games if own or not g["private"]],
                              "next_cursor": cursor})
