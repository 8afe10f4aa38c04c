"""``GET /v1/games/{game_id}/record``: the whole game as data, or as text, to replay it."""

from __future__ import annotations

from typing import Any, Final

from flask import Response
from flask.views import MethodView

from api.games.records import game_record, may_read_record, record_text
from api.games.turns import clocked
from api.http.errors import UNAUTHORIZED, Problem
from api.http.examples import RULES
from api.http.resources.blueprint import OPTIONAL_SEAT_TOKEN, Blueprint
from api.http.resources.lobby_support import admit
from api.http.schemas.record import RecordQuerySchema, RecordSchema
from api.http.support import (
    authenticate,
    bearer_token,
    checked_game_id,
    etag,
    json_response,
    services,
)

blp = Blueprint("record", __name__, url_prefix="/v1/games",
                description="A game's record of play: decks, actions, settlements, result")

_DECK: Final = ["KH", "QH", "AS", "AH", "TH", "KS", "TS", "9C", "JC", "QS", "9D", "JD", "9H",
                "AC", "TC", "KC", "QC", "JS", "9S", "AD", "TD", "KD", "QD", "JH"]
#: A short game: Ann melds 40 and leads the Queen, the computer takes it, Ann resigns.
RECORD_EXAMPLE: Final = {
    "game_id": "1d0QITWlkkAbh5EN", "version": 3, "status": "match_over",
    "seats": [{"seat": 0, "kind": "human", "name": "Ann", "level": None},
              {"seat": 1, "kind": "computer", "name": "Computer (random)", "level": "random"}],
    "format": "sixtysix-record", "format_version": 1, "game": "sixty-six",
    "variant": "sixty-six",
    "rules": RULES,
    "complete": True,
    "hands": [{"hand_no": 1, "dealer": 1, "deck": _DECK, "actions": [
        {"seat": 0, "type": "meld", "suit": "H"}, {"seat": 0, "type": "play", "card": "QH"},
        {"seat": 1, "type": "play", "card": "TH"}, {"seat": 0, "type": "resign"}],
        "settlement": None}],
    "result": {"status": "match_over", "reason": "resigned", "by": 0, "winner_side": 1,
               "winners": [1], "score": [0, 0], "bummerl": [0, 0], "matches_won": [0, 0]},
    "chat": [{"seq": 4, "seat": 0, "text": "Good luck!", "at": "2026-12-01T08:51:08Z"}],
}


@blp.route("/<game_id>/record")
class Record(MethodView):
    @blp.doc(security=OPTIONAL_SEAT_TOKEN)
    @blp.arguments(RecordQuerySchema(), location="query")
    @blp.response(200, RecordSchema, example=RECORD_EXAMPLE)
    @blp.alt_response(401, response="Unauthorized")
    @blp.alt_response(404, response="GameNotFound")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """The whole game as data: every hand's deck and dealer, every action in order with
        its seat, each settlement and the result.

        After the game (``match_over`` or ``aborted``) anyone who may watch it may read it
        (a private table's game: with its invite code, ``?invite_code=`` or
        ``X-Invite-Code``, else a 404 as for an unknown game; or a seat token);
        while it runs only its seats (``Authorization: Bearer``), and then without decks:
        each hand lists the caller's own dealt cards instead. ``?format=text`` answers the
        compact text form (``text/plain``): a ``variant=`` line, then one line per hand,
        ``dealer=N deck=C C ... | seat:action ...``. ``python -m engine.replay`` (or
        ``sixtysix replay``) replays either form to the same settlements and result.
        ``chat`` lists the seats' chat messages (JSON only; a replay ignores them). A
        private table's game needs its invite code without a seat token, as to watch it.
        """
        svc = services()
        token = bearer_token(required=False)
        game = svc.games.load(checked_game_id(game_id))
        seat = authenticate(game_id, game.meta, token) if token is not None else None
        if seat is None:
            admit(game.game_id, game.meta, query.get("invite_code"))
        game = clocked(svc, game, 0)  # a deadline passed: applied first (a computer's: queued)
        if not may_read_record(game, seat):
            raise Problem(UNAUTHORIZED, "the record of a game in play is shown only to its "
                          "seats: send Authorization: Bearer <seat token>",
                          headers={"WWW-Authenticate": 'Bearer realm="sixtysix"'})
        record = game_record(svc.games, game, seat)
        headers = {"ETag": etag(game.version), "Vary": "Authorization",
                   "Cache-Control": "private, no-cache"}
        if query["format"] == "text":
            return Response(record_text(record), 200, headers, mimetype="text/plain")
        return json_response(record, 200, headers)
