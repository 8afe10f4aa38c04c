"""``/v1/tables``: the lobby. Create a table, list open ones, join, leave, view, rematch."""

from __future__ import annotations

import logging
from contextlib import suppress
from typing import Any, Final

import redis
from flask import Response, current_app
from flask.views import MethodView

from api.games.store import GameNotFound
from api.games.turns import enqueue_computers, require_queue, schedule_clock
from api.http import metrics
from api.http.errors import SAVED_VIEW_UNAVAILABLE, Problem
from api.http.resources.blueprint import Blueprint
from api.http.resources.lobby_support import (
    OPTIONAL_PLAYER_TOKEN,
    PLAYER_TOKEN,
    current_player,
    invite_code,
    required_player,
)
from api.http.schemas.lobby import (
    CreateTableSchema,
    InviteQuerySchema,
    JoinSchema,
    TablePageSchema,
    TableSchema,
    TablesQuerySchema,
)
from api.http.support import bearer_token, json_response, services
from api.players.store import Player
from api.ratings.service import rate_seats
from api.tables.service import (
    PLAYING,
    clocked_table,
    create_table,
    finish_if_over,
    join,
    leave,
    listing,
    load_table,
    rematch,
    table_view,
    visible,
    your_seat_token,
)
from api.tables.store import Table

log = logging.getLogger(__name__)

blp = Blueprint("tables", __name__, url_prefix="/v1/tables",
                description="The lobby: tables that players create, find, join and play at")

CREATE_EXAMPLE: Final = {
    "variant": "four-hand", "match_points": 7,
    "settings": {"point_counter": False, "hint_66": False, "auto_continue": False},
    "seats": [{"kind": "player"}, {"kind": "computer", "level": "normal"}, {"kind": "open"},
              {"kind": "computer", "level": "normal"}],
    "visibility": "public",
}
_SEATS: Final = [
    {"seat": 0, "kind": "player", "player_id": "pA3x9Qk2LmZ0", "name": "Ann", "bot": False,
     "rating": 1538},
    {"seat": 1, "kind": "computer", "level": "normal", "name": "Computer (normal)",
     "rating": 1751},
    {"seat": 2, "kind": "open"},
    {"seat": 3, "kind": "computer", "level": "normal", "name": "Computer (normal)",
     "rating": 1751}]
SUMMARY_EXAMPLE: Final = {
    "table_id": "tB7q2WcXk9Lp", "version": 1, "variant": "four-hand",
    "rules": {"deck": 24, "ten_rank": "high",
              "exchange_min_talon": 2, "exchange_requires_trick": False, "close_min_talon": 3,
              "meld_before_first_trick": "pending", "false_declaration": "fixed",
              "last_trick_bonus": 10, "match_points": 7, "schneider_bummerl": True,
              "set_bummerl": 1,
              "closing": True, "automatic_66": False, "meld_credit": "immediate",
              "played_out_points": "table"},
    "match_points": 7,
    "settings": {"point_counter": False, "hint_66": False, "auto_continue": False},
    "visibility": "public", "rated": True, "status": "open", "seats": _SEATS, "open_seats": 1,
    "created_at": "2025-01-31T12:00:00Z", "expires_at": "2025-01-31T13:00:00Z",
    "game_id": None, "result": None,
}
TABLE_EXAMPLE: Final = {**SUMMARY_EXAMPLE, "games": [], "rematch": [], "spectators": 0,
                        "you": {"seat": 0, "game_id": None, "token": None},
                        "invite_code": None}
STARTED_EXAMPLE: Final = {
    **TABLE_EXAMPLE, "version": 2, "status": "playing", "open_seats": 0, "expires_at": None,
    "seats": [*_SEATS[:2], {"seat": 2, "kind": "player", "player_id": "x8Kd0PqLm3Za",
                            "name": "Bob", "bot": False, "rating": None}, _SEATS[3]],
    "game_id": "tB7q2WcXk9Lp.1", "games": ["tB7q2WcXk9Lp.1"],
    "you": {"seat": 2, "game_id": "tB7q2WcXk9Lp.1",
            "token": "eoUOE9s2c2VhdC10b2tlbi1leGFtcGxlLW9ubHktZm9y"}}
_ERRORS: Final = ((401, "PlayerUnauthorized"), (404, "TableNotFound"), (409, "TableConflict"))
_LOCATION: Final = {"Location": "TableLocation"}


def _answer(table: Table, player: Player | None, status: int = 200) -> Response:
    """The table view; a seated caller's seat token is minted on his first fetch."""
    token = your_seat_token(services().games, table, player,
                            bearer_token(required=False) if player is not None else None)
    view = table_view(table, player, services().tables.watchers(table.table_id), token)
    rate_seats(services().ratings, [view])
    return json_response(view, status, {"Location": f"/v1/tables/{table.table_id}"})


def _changed(table: Table, player: Player, status: int = 200) -> Response:
    """The answer of a saved change: :func:`_answer` of the table after :func:`_started`. A
    store that stops answering now is a 503 ``saved-view-unavailable``, never a "retry later":
    the change stands (the worker's sweep enqueues a started game's computers)."""
    try:
        return _answer(_started(table), player, status)
    except redis.RedisError as exc:
        log.warning("table %s changed; its answer not read (%s)", table.table_id,
                    type(exc).__name__)
        metrics.redis_error(exc)
        raise Problem(SAVED_VIEW_UNAVAILABLE, "the change was saved, but the game store stopped "
                      "answering before the table could be read: do not send it again; reload "
                      "the table (GET it) when the store is back", table_id=table.table_id,
                      version=table.version) from exc


def _started(table: Table) -> Table:
    """Enqueue the computers' opening moves of the game ``table`` is playing, if any, and
    schedule its clock's first deadline (a human to act first)."""
    game_id = table.doc.game_id
    if table.doc.status == PLAYING and game_id:
        svc = services()
        with suppress(GameNotFound):
            game = svc.games.load(game_id)
            if game.version == 1:  # just started: nobody has scheduled its deadline yet
                schedule_clock(svc, game)
            enqueue_computers(svc, game, check=True)
    return table


def _document_errors(view: Any) -> Any:
    for status, response in _ERRORS:
        view = blp.alt_response(status, response=response)(view)
    return view


@blp.route("")
class Tables(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.arguments(CreateTableSchema(), example=CREATE_EXAMPLE)
    @blp.response(201, TableSchema, example=TABLE_EXAMPLE, headers=_LOCATION)
    @_document_errors
    def post(self, body: dict[str, Any]) -> Response:
        """Create a table: ``variant``, ``rules``, ``match_points``, ``settings``, ``seats``
        (as many as the variant seats, each ``{"kind": "open"}``, ``{"kind": "computer",
        "level"}`` or the creator's own ``{"kind": "player"}``, exactly one; a level only
        for a computer: else a 422 naming the field) and ``visibility`` (``public`` or
        ``private``).

        A private table answers its ``invite_code`` (to pass on: joining and watching need
        it). An open table expires after an hour (``SIXTYSIX_TABLE_OPEN_TTL``) unless its
        seats are filled; with no open seat the game starts at once. A player has at most 10
        open tables (``SIXTYSIX_MAX_OPEN_TABLES``: created, waiting for players, and he
        still sits at them); one more is a 409 ``too-many-open-tables`` with
        ``max_open_tables`` and his ``open_tables``: leave one, or wait until one starts or
        expires.
        """
        player = required_player()
        svc = services()
        require_queue(svc, body["seats"])
        table = create_table(svc.tables, svc.players, player, body,
                             current_app.config["SIXTYSIX_TABLE_OPEN_TTL"],
                             current_app.config["SIXTYSIX_MAX_OPEN_TABLES"])
        return _changed(table, player, 201)

    @blp.arguments(TablesQuerySchema(), location="query")
    @blp.response(200, TablePageSchema, example={"tables": [SUMMARY_EXAMPLE],
                                                 "next_cursor": None})
    def get(self, query: dict[str, Any]) -> Response:
        """Public tables, newest first: ``status=open`` (default; seats free) or ``playing``
        (to watch), optionally of one ``variant``, with seats, names, each seat's display rating
        for the variant (``GET /v1/ratings``) and rules.

        Page on with ``cursor=next_cursor`` until it is null; a page may hold fewer than
        ``limit`` tables.
        """
        page, cursor = listing(services().tables, query["status"], query.get("variant"),
                               query.get("cursor"), query["limit"],
                               current_app.config["SIXTYSIX_TABLE_OPEN_TTL"])
        rate_seats(services().ratings, page)
        return json_response({"tables": page, "next_cursor": cursor})


@blp.route("/<table_id>")
class TableResource(MethodView):
    @blp.doc(security=OPTIONAL_PLAYER_TOKEN)
    @blp.arguments(InviteQuerySchema(), location="query")
    @blp.response(200, TableSchema, example=STARTED_EXAMPLE, headers=_LOCATION)
    @_document_errors
    def get(self, query: dict[str, Any], table_id: str) -> Response:
        """The table: seats, status (``open``, ``playing``, ``finished``, ``closed``), its
        games and how many watch; to a seated player (player token) also ``you``: his seat,
        the current ``game_id`` and his **seat token** for it (minted on his first fetch,
        then the same on every device holding his player token; never stored readable).

        A private table needs a seated player's token or the invite code (``?invite_code=``
        or ``X-Invite-Code``); otherwise it is a 404, as for an unknown table.
        """
        svc = services()
        player = current_player(required=False)
        invite = invite_code(query.get("invite_code"))
        table = visible(load_table(svc.tables, table_id), table_id, player, invite)
        clocked_table(svc, table)  # its game's passed deadline: applied first
        if finish_if_over(svc.games, table, svc.after_save):
            table = visible(load_table(svc.tables, table_id), table_id, player, invite)
        return _answer(table, player)


@blp.route("/<table_id>/join")
class Join(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.arguments(JoinSchema(), example={"seat": 2})
    @blp.response(200, TableSchema, example=STARTED_EXAMPLE, headers=_LOCATION)
    @_document_errors
    def post(self, body: dict[str, Any], table_id: str) -> Response:
        """Take an open seat: ``seat`` (one of the table's, else a 422) or the first free
        one; a private table needs ``invite_code``. When the last seat is taken the game
        starts (the answer then holds your seat token). A player has one seat at a table; a
        full or started table is a 409.
        """
        player = required_player()
        svc = services()
        table = join(svc.tables, svc.players, player, table_id, body.get("seat"),
                     invite_code(body.get("invite_code")))
        return _changed(table, player)


@blp.route("/<table_id>/leave")
class Leave(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.response(200, TableSchema, example=TABLE_EXAMPLE, headers=_LOCATION)
    @_document_errors
    def post(self, table_id: str) -> Response:
        """Free your seat before the start; a table that no player sits at is closed."""
        player = required_player()
        svc = services()
        return _changed(leave(svc.tables, svc.players, player, table_id), player)


@blp.route("/<table_id>/rematch")
class Rematch(MethodView):
    @blp.doc(security=PLAYER_TOKEN)
    @blp.response(200, TableSchema, example=STARTED_EXAMPLE, headers=_LOCATION)
    @_document_errors
    def post(self, table_id: str) -> Response:
        """Ask for a rematch after the match; when every player seat has asked, the next
        match starts at the same table with the same seats, the deal passing on to the seat
        after the last dealer. ``games`` lists the table's games in order.
        """
        player = required_player()
        svc = services()
        return _changed(rematch(svc.tables, svc.players, svc.games, player, table_id,
                                svc.after_save), player)
