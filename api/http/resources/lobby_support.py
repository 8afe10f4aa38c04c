"""What the players and tables resources share: the player token, invite codes.

A player token travels as ``Authorization: Bearer <player token>`` (OpenAPI scheme
``playerToken``); an invite code as ``?invite_code=`` or the ``X-Invite-Code`` header.
"""

from __future__ import annotations

import hmac
from typing import Final

from flask import g, request

from api.games.meta import GameMeta
from api.games.store import GameNotFound
from api.games.tokens import digest
from api.http.errors import UNAUTHORIZED, Problem, ProblemType
from api.http.support import bearer_token, services
from api.players.service import player_of_token
from api.players.store import Player

INVITE_HEADER: Final = "X-Invite-Code"
#: ``flask.g`` attribute of the request's player, once looked up.
_PLAYER: Final = "sixtysix_player"
PLAYER_UNAUTHORIZED: Final = ProblemType(UNAUTHORIZED.slug, 401, "Missing or unknown player token")
#: OpenAPI security of endpoints that need a player token, and of those where it is optional.
PLAYER_TOKEN: Final[list[dict[str, list[str]]]] = [{"playerToken": []}]
OPTIONAL_PLAYER_TOKEN: Final[list[dict[str, list[str]]]] = [{"playerToken": []}, {}]


def current_player(*, required: bool) -> Player | None:
    """The player of the bearer token; 401 if it is no player's (a seat token never is).
    Looked up once a request (:mod:`api.http.credentials` may have done it already)."""
    known: Player | None = g.get(_PLAYER)
    if known is not None:
        return known
    token = bearer_token(required=False)
    if token is None:
        if required:
            raise _unauthorized("this request needs Authorization: Bearer <player token>")
        return None
    player = player_of_token(services().players, token)
    if player is None:
        raise _unauthorized("the token belongs to no player (a seat token is not a player "
                            "token)")
    setattr(g, _PLAYER, player)
    return player


def _unauthorized(detail: str) -> Problem:
    return Problem(PLAYER_UNAUTHORIZED, detail,
                   headers={"WWW-Authenticate": 'Bearer realm="sixtysix"'})


def required_player() -> Player:
    player = current_player(required=True)
    assert player is not None
    return player


def admit(game_id: str, meta: GameMeta, query_value: str | None) -> None:
    """Let a caller without a seat token see a game as a spectator (its view, its events, its
    record once over): a private table's game needs its invite code; a wrong or missing one
    is a 404, as for an unknown game. Other games are open to anyone."""
    info = meta.get("table")
    if info is None or not info["private"]:
        return
    code = invite_code(query_value)
    expected = info["invite_sha256"]
    if code is None or expected is None or not hmac.compare_digest(digest(code), expected):
        raise GameNotFound(game_id)


def spectate(game_id: str, meta: GameMeta, query_value: str | None) -> None:
    """:func:`admit` a spectator (no token) to a game, and count him as watching its table."""
    admit(game_id, meta, query_value)
    info = meta.get("table")
    if info is None:
        return
    watcher = digest(request.remote_addr or "unknown")[:32]
    services().tables.watched(info["table_id"], watcher)


def invite_code(query_value: str | None = None) -> str | None:
    """The invite code of the request: the query's, else the ``X-Invite-Code`` header's."""
    return query_value or request.headers.get(INVITE_HEADER) or None
