"""Request and response helpers shared by the resources: services, tokens, ETags, JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Response, current_app, g, request

from api.composition import Services
from api.fastjson import dumps
from api.games.meta import GameMeta
from api.games.service import GAME_ID
from api.games.store import Game, GameNotFound
from api.games.tokens import find_seat
from api.http.errors import UNAUTHORIZED, Problem
from api.http.flask_app import AppResponse


def services() -> Services:
    """The request's app's :class:`~api.composition.Services` (built by :mod:`api.app`)."""
    found: Services = current_app.extensions["sixtysix"]
    return found


def checked_game_id(game_id: str) -> str:
    """``game_id`` if it can name a game; anything else is an unknown game (404)."""
    if not GAME_ID.fullmatch(game_id):
        raise GameNotFound(game_id)
    return game_id


def bearer_token(required: bool) -> str | None:
    """The ``Authorization: Bearer`` token; 401 if absent and ``required`` or malformed."""
    header = request.headers.get("Authorization")
    if header is None:
        if required:
            raise _unauthorized("this request needs Authorization: Bearer <seat token>")
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized("use Authorization: Bearer <seat token>")
    return token.strip()


def required_token() -> str:
    """The ``Authorization: Bearer`` token; 401 if absent or malformed."""
    token = bearer_token(required=True)
    assert token is not None
    return token


def authenticate(game_id: str, meta: GameMeta, token: str) -> int:
    """The seat of game ``game_id`` whose token this is (see :func:`seat_of`); it is seen
    now (its presence, see :mod:`api.live.presence`)."""
    seat = seat_of(game_id, meta, token)
    services().games.presence.seen(game_id, seat)
    return seat


def seat_of(game_id: str, meta: GameMeta, token: str) -> int:
    """The seat of game ``game_id`` whose token this is, its presence not noted. A token of
    no seat is a 401, but a 404 for a private table's game: to one who holds none of its
    tokens it does not exist, as for an unknown game (its existence never leaks)."""
    seat = find_seat(token, (s["token_sha256"] for s in meta["seats"]))
    if seat is None:
        if meta.get("table", {}).get("private"):
            raise GameNotFound(game_id)
        raise _unauthorized("the token belongs to no seat of this game")
    return seat


def _unauthorized(detail: str) -> Problem:
    return Problem(UNAUTHORIZED, detail, headers={"WWW-Authenticate": 'Bearer realm="sixtysix"'})


def etag(version: int) -> str:
    return f'"{version}"'


def json_response(body: Any, status: int = 200, headers: Mapping[str, str] | None = None,
                  ) -> Response:
    """``body`` as compact JSON (:func:`api.fastjson.dumps`)."""
    return AppResponse(dumps(body), status=status, headers=headers, mimetype="application/json")


def seated_game(game_id: str) -> Game:
    """The game :mod:`api.http.credentials` loaded for this request's seat token, if it did
    (so the action route reads the game once), else the game as the store has it now."""
    game: Game | None = g.pop("sixtysix_seated_game", None)
    if game is not None and game.game_id == game_id:
        return game
    return services().games.load(game_id)
