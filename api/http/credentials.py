"""Credentials before the body: an operation that needs a token answers 401 before its body or
query is read or validated.

The operations are those whose OpenAPI ``security`` names one scheme and no anonymous
alternative (``SEAT_TOKEN``, ``PLAYER_TOKEN``), read from the views' documentation once the
blueprints are registered (:func:`index`). A hook that runs before the body is read
(:func:`init`, ahead of :mod:`api.http.body`) refuses a missing or malformed
``Authorization``; a player token is looked up there too (and kept for the view, see
:func:`api.http.resources.lobby_support.current_player`). Whose seat a seat token is is told
from its game, which the hook loads for a route of one game: a token of no seat is a 401 (a
404 at a private table) before the body or query is read, and the action route acts on the
game loaded then (:func:`api.http.support.seated_game`), so an action still reads the game once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from flask import Flask, current_app, g, request

from api.http.resources.lobby_support import required_player
from api.http.support import checked_game_id, required_token, seat_of, services

#: ``app.extensions`` key of the operations that need a token: (endpoint, method) → scheme.
KEY: Final = "sixtysix_credentials"
SEAT: Final = "seatToken"
PLAYER: Final = "playerToken"


def documented_operations(app: Flask) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """Each routed operation of ``app`` with a flask-smorest documentation: its URL rule,
    method, endpoint and ``_apidoc``."""
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        view_class = getattr(view, "view_class", None)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            function = view if view_class is None else getattr(view_class, method.lower(), None)
            apidoc = getattr(function, "_apidoc", None)
            if apidoc is not None:
                yield rule.rule, method, rule.endpoint, apidoc


def required_scheme(apidoc: dict[str, Any]) -> str | None:
    """The one security scheme an operation requires, or ``None`` (none, or optional)."""
    security = apidoc.get("manual_doc", {}).get("security")
    if not security or any(not alternative for alternative in security):
        return None
    (scheme,) = {name for alternative in security for name in alternative}
    return str(scheme)


def index(app: Flask) -> None:
    """Note which operations of ``app`` need which token (after its blueprints are in)."""
    app.extensions[KEY] = {
        (endpoint, method): scheme
        for _, method, endpoint, apidoc in documented_operations(app)
        if (scheme := required_scheme(apidoc)) is not None}


def _check() -> None:
    scheme = current_app.extensions[KEY].get((request.endpoint, request.method))
    if scheme == PLAYER:
        required_player()
    elif scheme == SEAT:
        token = required_token()
        game_id = (request.view_args or {}).get("game_id")
        if isinstance(game_id, str):  # whose seat: 401 (404 at a private table) before the body
            game = services().games.load(checked_game_id(game_id))
            seat_of(game_id, game.meta, token)
            g.sixtysix_seated_game = game  # for seated_game()


def init(app: Flask) -> None:
    """Check the credentials of every request to ``app`` before its body is read."""
    app.extensions[KEY] = {}
    app.before_request(_check)
