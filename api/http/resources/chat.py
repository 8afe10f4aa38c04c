"""``POST /v1/games/{game_id}/chat``: a seat's chat message, logged as a ``chat`` event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from flask import Response, current_app

from api.games.store import MarkSlot
from api.games.tokens import digest
from api.games.turns import clocked_meta
from api.http import idempotency
from api.http.resources.blueprint import SEAT_TOKEN, Blueprint
from api.http.schemas.chat import ChatMessageSchema, ChatSchema
from api.http.support import (
    authenticate,
    checked_game_id,
    json_response,
    required_token,
    seated_game,
    services,
)
from api.live.chat import chat_event, check_text, message

blp = Blueprint("chat", __name__, url_prefix="/v1/games",
                description="Chat: the seats' messages, read as chat events")

CHAT_EXAMPLE: Final = {"text": "Good luck!"}
MESSAGE_EXAMPLE: Final = {"seq": 4, "seat": 0, "name": "Ann", "text": "Good luck!",
                          "at": "2026-12-01T08:51:08Z"}


#: The body's schema, for the documentation and for :func:`chat`.
CHAT_SCHEMA: Final = ChatSchema()


@blp.doc(security=SEAT_TOKEN)
@blp.arguments(CHAT_SCHEMA, example=CHAT_EXAMPLE)
@blp.response(201, ChatMessageSchema, example=MESSAGE_EXAMPLE)
@blp.alt_response(401, response="Unauthorized")
@blp.alt_response(404, response="GameNotFound")
@blp.alt_response(409, response="ChatFull")
def _documented(body: dict[str, Any], game_id: str) -> Response:
    """Send a chat message to the table: every seat and every spectator of the game reads
    it as a ``chat`` event (``seat``, ``name``, ``text``, ``at``) in
    ``GET /v1/games/{game_id}/events``, and the game's record lists it.

    A message does not change the game's version: an action's ``If-Match`` stays valid,
    the view and its ``ETag`` stay the same, and a long-poll on ``after_version`` is not
    woken by it. Answers the message as logged (``seq`` is its number in the event log).
    Refused: 422 on ``text`` (see its rules), 429 past ``SIXTYSIX_RATE_CHAT`` per seat
    token, 409 ``chat-full`` once the game holds ``SIXTYSIX_MAX_CHAT`` messages.

    With an ``Idempotency-Key`` (scoped by the seat token) a message is logged once: the
    same key with the same text answers the first message again (``Idempotent-Replayed:
    true``), with another text it is a 422. A 503 ``outcome-unknown`` says the message may
    have been logged: repeat it with the same key, or read the events before sending it
    again without one.
    """
    return post_chat(lambda: body, game_id)


@blp.route("/<game_id>/chat", endpoint="Chat", methods=["POST"])
@blp.documented_as(_documented)
def chat(game_id: str) -> Response:
    """The operation ``_documented`` documents, its body read once the token is known to be a
    seat's (a 401 before a 422; see
    :meth:`~api.http.resources.blueprint.Blueprint.documented_as`)."""
    return post_chat(lambda: blp.json_body(CHAT_SCHEMA), game_id)


def post_chat(load_body: Callable[[], dict[str, Any]], game_id: str) -> Response:
    """The seat's chat message (the body ``load_body`` loads) on game ``game_id``."""
    store = services().games
    token = required_token()
    key = idempotency.key()
    game = seated_game(checked_game_id(game_id))  # loaded with the token's check
    meta = game.meta
    seat = authenticate(game_id, meta, token)
    text = check_text(load_body()["text"])
    clocked_meta(services(), game_id, meta)  # a passed deadline is applied first
    event = chat_event(meta, seat, text)
    config = current_app.config
    record = None if key is None else (
        MarkSlot.of(game_id, f"chat:{digest(token)}:{key}"), config["SIXTYSIX_IDEMPOTENCY_TTL"])
    logged, replayed = store.chat(game_id, event, config["SIXTYSIX_MAX_CHAT"], record)
    if not replayed:
        if (archiver := services().archiver) is not None:
            archiver.note(game)  # a finished game's archive takes the message too
        return json_response(message(logged), 201)
    if logged.event.data["text"] != event.data["text"]:
        raise idempotency.reused()
    return json_response(message(logged), 201, {"Idempotent-Replayed": "true"})
