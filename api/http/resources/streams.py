"""``GET /v1/games/{id}/stream``, ``POST /v1/games/{id}/stream-ticket`` and
``GET /v1/tables/{id}/stream``: Server-Sent Events (see :mod:`api.live.streams`).

Who may stream a game, as for its view: a seat (``Authorization: Bearer <seat token>``, or a
stream ticket as ``?ticket=``), else a spectator (a private table's game with its invite
code). Every refusal (401, 404, 422) is a problem document answered before the stream starts.
"""

from __future__ import annotations

import secrets
from typing import Any, Final

from flask import Response, current_app, request
from flask.views import MethodView

from api.errors import FieldError
from api.games.store import MAX_SEQ, TICKET_TTL
from api.games.turns import clocked, clocked_meta, computers_unavailable
from api.http.errors import UNAUTHORIZED, Problem
from api.http.resources.blueprint import OPTIONAL_SEAT_TOKEN, SEAT_TOKEN, Blueprint
from api.http.resources.lobby_support import (
    OPTIONAL_PLAYER_TOKEN,
    current_player,
    invite_code,
    spectate,
)
from api.http.schemas import StreamQuerySchema, TicketSchema
from api.http.schemas.lobby import InviteQuerySchema
from api.http.support import (
    authenticate,
    bearer_token,
    checked_game_id,
    json_response,
    seated_game,
    services,
)
from api.keys import notify_channel, table_channel
from api.live.streams import HEADERS, MIMETYPE, GameSource, StreamEnded, TableSource, follow
from api.tables.service import clocked_table, finish_if_over, load_table, table_view, visible
from engine.numerals import parse_natural

blp = Blueprint("streams", __name__, url_prefix="/v1",
                description="Server-Sent Events of a game or a table")

LAST_EVENT_ID: Final = "Last-Event-ID"
GAME_STREAM_EXAMPLE: Final = (
    "retry: 2000\n"
    "event: view\n"
    'data: {"game_id":"q3V9k2xR0aLmT7wZ","version":3,"seat":0,"to_act":1, …}\n\n'
    "event: game_event\nid: 11\n"
    'data: {"seq":11,"type":"card_played","seat":1,"card":"QS"}\n\n'
    "event: view\n"
    'data: {"game_id":"q3V9k2xR0aLmT7wZ","version":4,"seat":0,"to_act":0, …}\n\n'
    ": heartbeat\n\n"
    "event: presence\n"
    'data: {"seats":[{"seat":0,"kind":"human","name":"Ann","level":null,"connected":true},'
    '{"seat":1,"kind":"human","name":"Bob","level":null,"connected":false}]}\n\n')
TABLE_STREAM_EXAMPLE: Final = (
    "retry: 2000\nevent: table\nid: 2\n"
    'data: {"table_id":"tB7q2WcXk9Lp","version":2,"status":"playing", …}\n\n'
    ": heartbeat\n\n")
_GAME_STREAM_DOC: Final = (
    "The stream: `event: view` (the caller's view) first; on a resume the events after "
    "`Last-Event-ID` (or `?after=`), each `event: game_event` with `id:` its `seq` and "
    "`data:` the event as GET /v1/games/{game_id}/events gives it; after every save its "
    "events (`game_event`) and then the new `view`; a `: heartbeat` comment every 15 s "
    "(SIXTYSIX_STREAM_HEARTBEAT), after which `event: presence` (data: the view's `seats`) "
    "if a seat's `connected` changed without a save. Only `game_event` has an `id`.")


def _stream(chunks: Any) -> Response:
    return Response(chunks, mimetype=MIMETYPE, headers=HEADERS, direct_passthrough=True)


def _resume_after(query: dict[str, Any]) -> int | None:
    """``Last-Event-ID`` (sent by a reconnecting EventSource), else ``?after=``."""
    raw = request.headers.get(LAST_EVENT_ID)
    if raw is None:
        after: int | None = query.get("after")
        return after
    seq = parse_natural(raw.strip())
    if seq is None or seq > MAX_SEQ:
        raise FieldError(LAST_EVENT_ID, f"must be an event seq, 0 to {MAX_SEQ}")
    return seq


def _ticket_refused() -> Problem:
    return Problem(UNAUTHORIZED, "the stream ticket is unknown, used or expired: ask for a "
                   "new one with POST /v1/games/{game_id}/stream-ticket",
                   headers={"WWW-Authenticate": 'Bearer realm="sixtysix"'})


@blp.route("/games/<game_id>/stream")
class GameStream(MethodView):
    @blp.doc(security=OPTIONAL_SEAT_TOKEN)
    @blp.arguments(StreamQuerySchema(), location="query")
    @blp.response(200, content_type=MIMETYPE, description=_GAME_STREAM_DOC,
                  example=GAME_STREAM_EXAMPLE)
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="GameNotFound")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """The game as Server-Sent Events, for the seat or a spectator (``text/event-stream``).

        A seat sends ``Authorization: Bearer <seat token>``; a browser's ``EventSource``,
        which cannot, passes ``?ticket=`` from ``POST /v1/games/{game_id}/stream-ticket``
        (one use, 60 s). Without either the stream is a spectator's (a private table's game
        needs its invite code). The events are the caller's, filtered as by ``/events``: a
        seat never gets another seat's cards. Resume with ``Last-Event-ID`` (or ``?after=``):
        nothing is lost or repeated. While a seat's stream is open the seat is ``connected``.
        """
        svc = services()
        game_id = checked_game_id(game_id)
        after = _resume_after(query)
        token = bearer_token(required=False)
        game = svc.games.load(game_id)
        seat: int | None = None
        if token is not None:
            seat = authenticate(game_id, game.meta, token)
        elif "ticket" in query:
            seat = svc.games.use_ticket(game_id, query["ticket"])
            if seat is None:
                raise _ticket_refused()
        else:
            spectate(game_id, game.meta, query.get("invite_code"))
        game = clocked(svc, game, 0)  # a passed deadline: applied first (a computer's: queued)
        source = GameSource(svc.games, game, seat, after,
                            lambda seen: computers_unavailable(svc, seen))
        return _stream(follow(svc.notifier, notify_channel(game_id), source,
                              current_app.config["SIXTYSIX_STREAM_HEARTBEAT"]))


@blp.route("/games/<game_id>/stream-ticket")
class StreamTicket(MethodView):
    @blp.doc(security=SEAT_TOKEN)
    @blp.response(200, TicketSchema, example={"ticket": "Jx8…", "expires_in": TICKET_TTL})
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="GameNotFound")
    def post(self, game_id: str) -> Response:
        """A ticket that opens the seat's stream once, within 60 s: ``?ticket=`` on
        ``GET /v1/games/{game_id}/stream``, for clients (``EventSource``) that cannot send
        ``Authorization``. A seat token never goes into a URL (URLs end up in logs)."""
        svc = services()
        game_id = checked_game_id(game_id)
        token = bearer_token(required=True)
        assert token is not None
        meta = seated_game(game_id).meta  # loaded with the token's check
        seat = authenticate(game_id, meta, token)
        clocked_meta(svc, game_id, meta)  # a passed deadline: applied first
        ticket = secrets.token_urlsafe(24)
        svc.games.issue_ticket(game_id, seat, ticket)
        return json_response({"ticket": ticket, "expires_in": TICKET_TTL})


@blp.route("/tables/<table_id>/stream")
class TableStream(MethodView):
    @blp.doc(security=OPTIONAL_PLAYER_TOKEN)
    @blp.arguments(InviteQuerySchema(), location="query")
    @blp.response(200, content_type=MIMETYPE, example=TABLE_STREAM_EXAMPLE, description=(
        "`event: table` (the table as GET /v1/tables/{table_id} shows it to the caller, "
        "`id:` its version) first and after every change: seats taken and left, the "
        "game's start (`status` playing, `game_id`), its end; `: heartbeat` comments."))
    @blp.alt_response(401, response="PlayerUnauthorized")
    @blp.alt_response(404, response="TableNotFound")
    def get(self, query: dict[str, Any], table_id: str) -> Response:
        """The table as Server-Sent Events: every change of its seats and status.

        As ``GET /v1/tables/{table_id}``: a seated player's token (his view then holds his
        seat token once the game started), or the invite code of a private table, or
        nothing for a public one.
        """
        svc = services()
        player = current_player(required=False)
        invite = invite_code(query.get("invite_code"))
        table = visible(load_table(svc.tables, table_id), table_id, player, invite)
        clocked_table(svc, table)  # its game's passed deadline: applied first

        def render() -> tuple[int, dict[str, Any]]:
            table = load_table(svc.tables, table_id)
            if table is None:
                raise StreamEnded
            if finish_if_over(svc.games, table, svc.after_save):
                return render()
            return table.version, table_view(table, player, svc.tables.watchers(table_id))

        return _stream(follow(svc.notifier, table_channel(table_id), TableSource(render),
                              current_app.config["SIXTYSIX_STREAM_HEARTBEAT"]))
