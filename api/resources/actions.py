"""``POST /v1/games/{game_id}/actions``: a seat acts; the computers reply; one save."""

from __future__ import annotations

from typing import Any, Final

from flask import Response, current_app
from flask.views import MethodView

from api import idempotency
from api.http import (
    authenticate,
    bearer_token,
    check_if_match,
    checked_game_id,
    etag,
    json_response,
    services,
)
from api.resources.blueprint import SEAT_TOKEN, Blueprint
from api.schemas import ActionSchema, GameViewSchema
from api.service import act, game_view, parse_action
from api.store import Game, IdempotentWrite, VersionConflict, idem_key
from api.tokens import digest

blp = Blueprint("actions", __name__, url_prefix="/v1/games",
                description="Play: a seat's action, answered with its new view")

ACTION_EXAMPLE: Final = {"type": "play", "card": "QH"}


@blp.route("/<game_id>/actions")
class Actions(MethodView):
    @blp.doc(security=SEAT_TOKEN)
    @blp.arguments(ActionSchema(), example=ACTION_EXAMPLE)
    @blp.response(200, GameViewSchema)
    @blp.alt_response(401, response="DEFAULT_ERROR", description="Missing or unknown token")
    @blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown game")
    @blp.alt_response(409, response="DEFAULT_ERROR", description=(
        "illegal-action (with reason and legal_actions) or version-conflict (someone acted "
        "first; reload)"))
    @blp.alt_response(412, response="DEFAULT_ERROR", description="If-Match is not the version")
    def post(self, body: dict[str, Any], game_id: str) -> Response:
        """Apply the seat's action, then every computer reply, and save once.

        Answers the caller's new view (its ``events`` are this request's). ``If-Match`` with
        the version the client saw makes a stale action a 412 instead of applying it to a
        changed game. With an ``Idempotency-Key`` a repeated request replays the first answer.
        """
        store = services().store
        game_id = checked_game_id(game_id)
        token = bearer_token(required=True)
        assert token is not None
        key = idempotency.key()
        fp = idempotency.fingerprint(digest(token), body)
        record_key = idem_key(game_id, key) if key is not None else None
        game = store.load(game_id)
        seat = authenticate(game.meta, token)
        # after the load: a record saved with that version or an earlier one is seen here
        if record_key is not None and (stored := store.get_record(record_key)) is not None:
            return idempotency.replay(idempotency.check(stored, fp))
        check_if_match(game.version)
        action = parse_action(body)

        def record(saved: Game) -> dict[str, Any]:
            return idempotency.record(fp, 200, game_view(saved, seat),
                                      {"ETag": etag(saved.version)})

        write = None
        if record_key is not None:
            write = IdempotentWrite(record_key, record,
                                    current_app.config["SIXTYSIX_IDEMPOTENCY_TTL"])
        try:
            saved = act(store, game, seat, action, write)
        except VersionConflict:
            if record_key is not None and (stored := store.get_record(record_key)) is not None:
                return idempotency.replay(idempotency.check(stored, fp))
            raise
        return json_response(game_view(saved, seat), 200, {"ETag": etag(saved.version)})
