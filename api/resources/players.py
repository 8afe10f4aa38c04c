"""``/v1/players``: create a player (its token shown once), read profiles, list my games."""

from __future__ import annotations

from typing import Any, Final

from flask import Response
from flask.views import MethodView

from api.http import json_response, services
from api.players.service import create_player, load_player, profile
from api.resources.blueprint import Blueprint
from api.resources.lobby_support import PLAYER_TOKEN, lobby, required_player
from api.schemas_lobby import (
    CreatedPlayerSchema,
    CreatePlayerSchema,
    MyGamesPageSchema,
    MyGamesQuerySchema,
    PlayerSchema,
)
from api.tables.service import my_games

blp = Blueprint("players", __name__, url_prefix="/v1/players",
                description="Players: anonymous accounts with a secret player token")

_STATS: Final = {v: {"played": 0, "won": 0} for v in ("sixty-six", "schnapsen", "three-hand",
                                                      "four-hand")}
PLAYER_EXAMPLE: Final = {"player_id": "pA3x9Qk2LmZ0", "name": "Ann", "kind": "human",
                         "created_at": "2025-01-31T12:00:00Z",
                         "stats": {**_STATS, "sixty-six": {"played": 3, "won": 2}}}
CREATED_EXAMPLE: Final = {**PLAYER_EXAMPLE, "stats": _STATS,
                          "token": "Qm9i4s1Jc2VjcmV0LXBsYXllci10b2tlbi1leGFtcGxl"}
MY_GAMES_EXAMPLE: Final = {"games": [{
    "game_id": "tB7q2WcXk9Lp.1", "table_id": "tB7q2WcXk9Lp", "variant": "sixty-six",
    "status": "playing", "seat": 0, "opponents": [{"seat": 1, "name": "Bob", "kind": "human"}],
    "to_act": [1], "your_turn": False, "started_at": "2025-01-31T12:05:00Z", "version": 7}],
    "next_cursor": None}


@blp.route("")
class Players(MethodView):
    @blp.arguments(CreatePlayerSchema(), example={"name": "Ann"})
    @blp.response(201, CreatedPlayerSchema, example=CREATED_EXAMPLE)
    @blp.alt_response(409, response="DEFAULT_ERROR", description="name-taken")
    def post(self, body: dict[str, Any]) -> Response:
        """Create a player: ``name`` (3–20 letters, digits, spaces, ``-``, ``_``; unique
        without regard to case) and optional ``kind`` (``human`` or ``bot``).

        Answers the player token, shown only here (it is stored as a hash only). Send it as
        ``Authorization: Bearer`` to the lobby (``/v1/players/me``, ``/v1/tables``). It is not
        a seat token: a seat token comes from the table once its game has started.
        """
        player, token = create_player(lobby().players, body["name"], body["kind"])
        return json_response({**profile(player), "token": token}, 201,
                             {"Location": f"/v1/players/{player.player_id}"})


@blp.route("/me")
class Me(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.response(200, PlayerSchema, example=PLAYER_EXAMPLE)
    @blp.alt_response(401, response="DEFAULT_ERROR", description="Missing or unknown token")
    def get(self) -> Response:
        """The player of the token: name, kind, created, matches played and won per variant."""
        return json_response(profile(required_player()))


@blp.route("/me/games")
class MyGames(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.arguments(MyGamesQuerySchema(), location="query")
    @blp.response(200, MyGamesPageSchema, example=MY_GAMES_EXAMPLE)
    @blp.alt_response(401, response="DEFAULT_ERROR", description="Missing or unknown token")
    def get(self, query: dict[str, Any]) -> Response:
        """The player's games at tables, newest first: ``status=active`` (default) or
        ``finished``, with table, variant, opponents, status and whose turn it is.

        Page on with ``cursor=next_cursor`` until it is null. With the player token alone a
        client can resume: the seat token of a game is in ``GET /v1/tables/{table_id}``.
        """
        player = required_player()
        stores = lobby()
        page, cursor = my_games(services().store, stores.players, stores.tables, player,
                                query["status"], query.get("cursor"), query["limit"])
        return json_response({"games": page, "next_cursor": cursor})


@blp.route("/<player_id>")
class PlayerResource(MethodView):
    @blp.response(200, PlayerSchema, example=PLAYER_EXAMPLE)
    @blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown player")
    def get(self, player_id: str) -> Response:
        """A player's public profile: name, kind, created, matches played and won."""
        return json_response(profile(load_player(lobby().players, player_id)))
