"""The parts of the OpenAPI document the resources' decorators cannot give (an apispec plugin).

* request headers: ``If-Match`` on actions, ``Idempotency-Key`` and ``Prefer`` on creations
  and actions, ``If-None-Match`` on the view; response headers ``ETag``, ``Location``,
  ``Preference-Applied``, ``Retry-After`` and ``WWW-Authenticate`` (components ``headers``
  and ``parameters``);
* one response component per kind of error, each with real examples (:mod:`api.http.examples`,
  :mod:`api.http.examples_lobby`); every ``/v1`` operation may answer 503 (Redis unreachable),
  every one with a JSON body or a conditional header 400; a 422 names the operation's own
  examples (a lobby operation's query, player or table fields);
* ``operationId`` of every operation, and ``links`` (:data:`LINKS`) from the 201 of ``POST
  /v1/games`` to the view, actions, events and hint of the new game with its first seat's
  token, and from the lobby's answers to what they name (a new player's profile, a listed
  player, a table's game, a tour game, a match's record), so a reader and a stateful client
  see how the calls chain.
"""

from __future__ import annotations

import re
from typing import Any, Final

from apispec import APISpec, BasePlugin

from api.games.advice import RECORD_REQUIRED, REQUIRED
from api.games.tausendeins_position import REQUIRED as T1001_REQUIRED
from api.http.errors import PROBLEM_JSON
from api.http.examples import ERRORS
from api.http.examples_lobby import LOBBY_ERRORS
from api.http.schemas import TausendeinsTrickSchema

_PROBLEM: Final = {"$ref": "#/components/schemas/Problem"}
#: Every error example by name: the games' and the lobby's.
ALL_ERRORS: Final = {**ERRORS, **LOBBY_ERRORS}

HEADERS: Final[dict[str, dict[str, Any]]] = {
    "ETag": {"description": "The game's version, quoted: send it back in If-Match (actions) "
                            "or If-None-Match (view)",
             "schema": {"type": "string", "pattern": '^"[0-9]+"$'}, "example": '"1"'},
    "Location": {"description": "Path of the new game", "schema": {"type": "string"},
                 "example": "/v1/games/q3V9k2xR0aLmT7wZ"},
    "Retry-After": {"description": "Seconds to wait before sending the request again",
                    "schema": {"type": "integer", "minimum": 1}, "example": 5},
    "Preference-Applied": {
        "description": "RFC 7240: the Prefer preference the answer honours: respond-async "
                       "(answered at once; the computers to move are shown in to_act) or "
                       "wait=N (waited at most N seconds for the computers)",
        "schema": {"type": "string"}, "example": "respond-async"},
    "WWW-Authenticate": {"description": "The scheme to use", "schema": {"type": "string"},
                         "example": 'Bearer realm="sixtysix"'},
    "PlayerLocation": {"description": "Path of the new player's profile",
                       "schema": {"type": "string"}, "example": "/v1/players/pA3x9Qk2LmZ0"},
    "TableLocation": {"description": "Path of the table", "schema": {"type": "string"},
                      "example": "/v1/tables/tB7q2WcXk9Lp"},
}

PARAMETERS: Final[dict[str, dict[str, Any]]] = {
    "IfMatch": {
        "in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"},
        "example": '"1"',
        "description": "The version (ETag) the action was chosen on (RFC 9110: *, or a list "
                       "of entity-tags, compared strongly): if the game is at another version "
                       "nothing is applied and the answer is 412; a malformed value is a 400"},
    "IfNoneMatch": {
        "in": "header", "name": "If-None-Match", "required": False,
        "schema": {"type": "string"}, "example": '"1"',
        "description": "The version (ETag) the client holds (RFC 9110: *, or a list of "
                       "entity-tags, compared weakly): 304 if the game is still at it; a "
                       "malformed value is a 400"},
    "Prefer": {
        "in": "header", "name": "Prefer", "required": False, "schema": {"type": "string"},
        "example": "respond-async",
        "description": "RFC 7240. By default the answer waits (at most "
                       "SIXTYSIX_COMPUTER_WAIT seconds, 10) until the computers have replied "
                       "and a human must act. respond-async: answer at once, after this "
                       "request's own save (Preference-Applied: respond-async); wait=N: wait "
                       "at most N seconds (0..SIXTYSIX_MAX_WAIT)"},
    "IdempotencyKey": {
        "in": "header", "name": "Idempotency-Key", "required": False,
        "schema": {"type": "string", "minLength": 1, "maxLength": 255},
        "example": "0b6f2c1e-3f5a-4c2b-9f1d-7e8a9b0c1d2e",
        "description": "A key of the client's choosing (1–255 characters; use a random UUID): "
                       "the same request sent again with it is answered with the first answer "
                       "instead of being applied twice; the same key with another request is "
                       "a 422"},
    "LastEventId": {
        "in": "header", "name": "Last-Event-ID", "required": False,
        "schema": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}, "example": 11,
        "description": "Resume after this event seq (a reconnecting EventSource sends the id "
                       "of the last event it got); wins over ?after="},
    "CreateIdempotencyKey": {
        "in": "header", "name": "Idempotency-Key", "required": False,
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{22,255}$"},
        "example": "0b6f2c1e-3f5a-4c2b-9f1d-7e8a9b0c1d2e",
        "description": "A secret key of the client's choosing, at least 22 characters of "
                       "A-Z a-z 0-9 _ - (a random UUID, or 16 random bytes in base64url; "
                       "another is a 400): the same create sent again with it is answered "
                       "with the first answer, seat tokens included, so anyone holding the "
                       "key gets the tokens; the same key with another body is a 422"},
}


def _errors(description: str, *names: str, headers: tuple[str, ...] = ()) -> dict[str, Any]:
    examples = {name: {"summary": ALL_ERRORS[name]["detail"], "value": ALL_ERRORS[name]}
                for name in names}
    out: dict[str, Any] = {"description": description,
                           "content": {PROBLEM_JSON: {"schema": _PROBLEM, "examples": examples}}}
    if headers:
        out["headers"] = {h: {"$ref": f"#/components/headers/{h}"} for h in headers}
    return out


#: Error responses by component name; the resources refer to them in ``alt_response``.
RESPONSES: Final[dict[str, dict[str, Any]]] = {
    "BadRequest": _errors("The body is not JSON, or a header is malformed", "malformed_json"),
    "Unauthorized": _errors("Missing, malformed or unknown seat token", "missing_token",
                            "unknown_token", headers=("WWW-Authenticate",)),
    "GameNotFound": _errors("No such game (unknown or expired; a private table's game too, "
                            "to a token of none of its seats)", "game_not_found"),
    "ActionConflict": _errors(
        "illegal-action (with the reason and the legal actions), version-conflict (someone "
        "acted first; nothing was applied: reload) or request-in-progress (the first request "
        "with this Idempotency-Key is still running)",
        "illegal_action", "version_conflict", "request_in_progress",
        headers=("ETag", "Retry-After")),
    "HintConflict": _errors(
        "no-decision (not the seat's turn, or the hand is over) or version-conflict (the "
        "game changed while the computer thought; nothing was marked)",
        "no_decision", "version_conflict"),
    "ChatFull": _errors("chat-full: the game holds SIXTYSIX_MAX_CHAT chat messages; nothing "
                        "was logged", "chat_full"),
    "InvalidChat": _errors("The text is missing, empty, too long or holds a refused "
                           "character (errors names text), or the Idempotency-Key was used "
                           "for another text", "invalid_chat_text", "idempotency_key_reused"),
    "CreateInProgress": _errors("A creation with this Idempotency-Key is still running",
                                "request_in_progress", headers=("Retry-After",)),
    "StaleVersion": _errors("If-Match names another version than the game's; nothing was "
                            "applied", "stale_version", headers=("ETag",)),
    "InvalidRequest": _errors("A field is missing or has a value that is not allowed (errors "
                              "names it), or the Idempotency-Key was used for another request",
                              "validation_error", "idempotency_key_reused"),
    "StoreUnavailable": _errors("The game store (Redis) is unreachable", "store_unavailable",
                                headers=("Retry-After",)),
    "Unconfirmed": _errors(
        "store-unavailable (nothing was applied; retry after Retry-After) or outcome-unknown "
        "(no Retry-After: the store did not confirm the save, it may have been applied; repeat "
        "the request with the same Idempotency-Key or reload the view, whose version tells). "
        "Never a 503 for a save the store confirmed: if the store stops answering while the "
        "answer waits for the computers, the answer is the view right after the save",
        "store_unavailable", "outcome_unknown", headers=("Retry-After",)),
    "TableUnconfirmed": _errors(
        "store-unavailable (nothing was changed; retry after Retry-After), outcome-unknown (no "
        "Retry-After: the change may have been applied; reload the table, do not repeat it "
        "blindly) or saved-view-unavailable (no Retry-After: the change was saved but its "
        "answer could not be read; reload the table, do not repeat it)",
        "store_unavailable", "table_outcome_unknown", "saved_view_unavailable",
        headers=("Retry-After",)),
    "TooManyGames": _errors("too-many-games: the client address has "
                            "SIXTYSIX_MAX_GAMES_PER_ADDRESS active games", "too_many_games"),
    "ComputersBusy": _errors(
        "computers-busy (the computers cannot answer the games under way within their reply "
        "deadline, SIXTYSIX_REPLY_TARGET, even at their least work, so no new game with a "
        "computer seat is created now: nothing was done, the games under way are served; "
        "retry after Retry-After), store-unavailable (nothing was applied; retry after "
        "Retry-After) or outcome-unknown (no Retry-After: the store did not confirm the "
        "save, it may have been applied; repeat the request with the same Idempotency-Key)",
        "computers_busy", "store_unavailable", "outcome_unknown", headers=("Retry-After",)),
    "AdviceUnavailable": _errors(
        "advice-queue-full (as many hints and analyses as SIXTYSIX_ADVICE_QUEUE allows wait "
        "for a worker; nothing was done), advice-timeout (no worker answered within "
        "SIXTYSIX_ADVICE_WAIT seconds; nothing was saved), workers-unavailable (no worker "
        "process runs; nothing was done) or store-unavailable: retry after "
        "Retry-After; a hint's mark may also be outcome-unknown (no Retry-After: reload)",
        "advice_queue_full", "advice_timeout", "workers_unavailable", "store_unavailable",
        "outcome_unknown",
        headers=("Retry-After",)),
    "StoreFull": _errors("insufficient-storage: the game store is full (Redis maxmemory); "
                         "nothing was saved", "store_full"),
    "PlayerUnauthorized": _errors("Missing or unknown player token (a seat token is not one)",
                                  "missing_player_token", "unknown_player_token",
                                  headers=("WWW-Authenticate",)),
    "PlayerNotFound": _errors("player-not-found: no player with this id", "player_not_found"),
    "NotYourPlayer": _errors("not-your-player: the token is another player's (only his own "
                             "may export or delete him)", "not_your_player"),
    "PlayerBusy": _errors("player-busy: the player sits at a game in play or holds an open "
                          "table (finish or resign, leave it, then delete)", "player_busy"),
    "NameTaken": _errors("name-taken: another player has this name or one that looks like it "
                         "(names are unique without regard to case or to look-alike letters: "
                         "their Unicode TR39 skeletons differ)", "name_taken"),
    "InvalidPlayer": _errors("The name is missing, not 3 to 20 letters, digits, spaces, - "
                             "or _, or holds a control, format or invisible character, or the "
                             "kind is not human or bot (errors names the field and why)",
                             "invalid_name"),
    "TableNotFound": _errors("table-not-found: unknown or expired table, or a private one and "
                             "no (or a wrong) invite code", "table_not_found"),
    "TableConflict": _errors(
        "table-conflict, with the reason (already seated, every seat taken, not open, no seat "
        "to leave, no finished match to rematch...), table-busy (the table kept changing "
        "meanwhile; nothing was done: try again), or on creation too-many-open-tables (the "
        "player has SIXTYSIX_MAX_OPEN_TABLES open tables, default 10: max_open_tables and "
        "open_tables say so; leave one, or wait until one starts or expires)",
        "already_seated", "no_seat", "no_rematch_yet", "too_many_open_tables"),
    "InvalidTable": _errors("A field of the table is missing or not allowed (errors names it; "
                            "an unknown choice lists the allowed ones)",
                            "unknown_level", "no_such_seat"),
    "StationNotFound": _errors("station-not-found: no tour station of this name (the detail "
                               "lists them)", "station_not_found"),
    "StationNotOpen": _errors("station-not-open: the station before it is not stamped yet",
                              "station_not_open"),
    "InvalidQuery": _errors("A query parameter has a value that is not allowed (errors names "
                            "it)", "invalid_kind", "invalid_period", "invalid_status"),
}

#: The first path segments of the lobby's operations (players, tables, tour and rankings).
LOBBY_PREFIXES: Final = ("/v1/players", "/v1/tables", "/v1/tour", "/v1/leaderboard",
                         "/v1/ratings")
#: The 422 of lobby operations with a body; a lobby operation with a query has InvalidQuery.
LOBBY_INVALID_BODY: Final = {("/v1/players", "post"): "InvalidPlayer",
                             ("/v1/tables", "post"): "InvalidTable",
                             ("/v1/tables/{table_id}/join", "post"): "InvalidTable"}

#: The 200 of ``GET /v1/games/{game_id}/record?format=text`` (engine.record's text form).
RECORD_TEXT_EXAMPLE: Final = (
    "# sixtysix record of game 1d0QITWlkkAbh5EN at version 4 (match_over)\n"
    "variant=sixty-six\n"
    "dealer=1 deck=KH QH AS AH TH KS TS 9C JC QS 9D JD 9H AC TC KC QC JS 9S AD TD KD QD JH"
    " | 0:meld:H 0:play:QH 1:play:TH 0:resign\n")

#: Operations that write: their 503 may be outcome-unknown, and a full store is a 507.
WRITES: Final = {("/v1/games", "post"), ("/v1/games/{game_id}/actions", "post"),
                 ("/v1/games/{game_id}/hint", "post"), ("/v1/games/{game_id}/chat", "post")}

#: The lobby's table changes: their 503 may be outcome-unknown or saved-view-unavailable.
TABLE_WRITES: Final = {("/v1/tables", "post"), ("/v1/tables/{table_id}/join", "post"),
                       ("/v1/tables/{table_id}/leave", "post"),
                       ("/v1/tables/{table_id}/rematch", "post")}

CHAT: Final = ("/v1/games/{game_id}/chat", "post")

#: operationId by (path, method).
OPERATION_IDS: Final = {
    ("/v1/games", "post"): "createGame",
    ("/v1/games/{game_id}", "get"): "getGame",
    ("/v1/games/{game_id}/actions", "post"): "postAction",
    ("/v1/games/{game_id}/events", "get"): "listEvents",
    ("/v1/games/{game_id}/chat", "post"): "postChat",
    ("/v1/games/{game_id}/hint", "post"): "getHint",
    ("/v1/games/{game_id}/stream", "get"): "streamGame",
    ("/v1/games/{game_id}/stream-ticket", "post"): "createStreamTicket",
    ("/v1/tables/{table_id}/stream", "get"): "streamTable",
    ("/v1/analysis", "post"): "analysePosition",
    ("/v1/rules", "get"): "getRules",
    ("/healthz", "get"): "getHealth",
    ("/readyz", "get"): "getReadiness",
    ("/v1/games/{game_id}/record", "get"): "getRecord",
    ("/v1/players", "post"): "createPlayer",
    ("/v1/players/me", "get"): "getMe",
    ("/v1/players/me/games", "get"): "listMyGames",
    ("/v1/players/{player_id}", "get"): "getPlayer",
    ("/v1/players/{player_id}/games", "get"): "listPlayerGames",
    ("/v1/players/{player_id}", "delete"): "deletePlayer",
    ("/v1/players/{player_id}/export", "get"): "exportPlayer",
    ("/v1/tables", "post"): "createTable",
    ("/v1/tables", "get"): "listTables",
    ("/v1/tables/{table_id}", "get"): "getTable",
    ("/v1/tables/{table_id}/join", "post"): "joinTable",
    ("/v1/tables/{table_id}/leave", "post"): "leaveTable",
    ("/v1/tables/{table_id}/rematch", "post"): "requestRematch",
    ("/v1/tour", "get"): "getTour",
    ("/v1/tour/{station}/start", "post"): "startTourStation",
    ("/v1/leaderboard", "get"): "getLeaderboard",
    ("/v1/ratings", "get"): "listRatings",
}

#: Request header parameters by (path, method).
HEADER_PARAMETERS: Final = {
    ("/v1/games", "post"): ("CreateIdempotencyKey", "Prefer"),
    ("/v1/games/{game_id}", "get"): ("IfNoneMatch",),
    ("/v1/games/{game_id}/actions", "post"): ("IfMatch", "IdempotencyKey", "Prefer"),
    ("/v1/games/{game_id}/chat", "post"): ("IdempotencyKey",),
    ("/v1/games/{game_id}/stream", "get"): ("LastEventId",),
}

#: Header parameters a malformed value of which is a 400.
_CONDITIONS: Final = frozenset(("IfMatch", "IfNoneMatch"))

_GAME_ID: Final = "$response.body#/game_id"
_SEAT_0: Final = "Bearer {$response.body#/seats/0/token}"

#: Links of the 201 of POST /v1/games: what to call next with the new game.
CREATED_LINKS: Final = {
    link: {"operationId": target, "description": text,
           "parameters": {"path.game_id": _GAME_ID, "header.Authorization": _SEAT_0}}
    for link, target, text in (
        ("GetView", "getGame", "Seat 0's view of the new game"),
        ("PostAction", "postAction", "An action of seat 0 (the first human seat when seat 0 "
                                     "is one; a computer seat has no token)"),
        ("ListEvents", "listEvents", "Seat 0's events of the new game"),
        ("GetHint", "getHint", "The computer's advice to seat 0"),
        ("PostChat", "postChat", "A chat message of seat 0"),
    )
}


def _link(target: str, description: str, **parameters: str) -> dict[str, Any]:
    """A link to ``target``; parameter ``path_x`` is ``path.x``, ``header_x`` ``header.x``."""
    return {"operationId": target, "description": description,
            "parameters": {k.replace("_", ".", 1): v for k, v in parameters.items()}}


_TOKEN_OF: Final = "Bearer {$response.body#/%s}"
_PROFILE: Final = {"ListPlayerGames": _link("listPlayerGames", "The player's finished matches",
                                            path_player_id="$response.body#/player_id")}

#: Links of lobby answers by (path, method, status): what to call next with what they name.
LINKS: Final[dict[tuple[str, str, int], dict[str, Any]]] = {
    ("/v1/games", "post", 201): CREATED_LINKS,
    ("/v1/players", "post", 201): {
        "GetMe": _link("getMe", "The new player's own profile, with his player token",
                       header_Authorization=_TOKEN_OF % "token"),
        "GetPlayer": _link("getPlayer", "The new player's public profile",
                           path_player_id="$response.body#/player_id"),
        "CreateTable": _link("createTable", "A table created by the new player",
                             header_Authorization=_TOKEN_OF % "token")},
    ("/v1/players/me", "get", 200): _PROFILE,
    ("/v1/players/{player_id}", "get", 200): _PROFILE,
    ("/v1/players/{player_id}/games", "get", 200): {
        "GetRecord": _link("getRecord", "The record of play of the newest match listed",
                           path_game_id="$response.body#/games/0/game_id")},
    ("/v1/leaderboard", "get", 200): {
        "GetPlayer": _link("getPlayer", "The profile of the first player listed",
                           path_player_id="$response.body#/entries/0/player_id")},
    ("/v1/ratings", "get", 200): {
        "GetPlayer": _link("getPlayer", "The profile of the first player listed (kind human "
                                        "or bot; a computer level has none)",
                           path_player_id="$response.body#/ratings/0/id")},
    ("/v1/tables", "post", 201): {
        "GetTable": _link("getTable", "The new table (its seat token once the game starts)",
                          path_table_id="$response.body#/table_id")},
    ("/v1/tables/{table_id}", "get", 200): {
        "GetView": _link("getGame", "The caller's view of the table's game, with his seat "
                                    "token (when he is seated and it has started)",
                         path_game_id="$response.body#/you/game_id",
                         header_Authorization=_TOKEN_OF % "you/token")},
    ("/v1/tour/{station}/start", "post", 201): {
        link: _link(target, text, path_game_id=_GAME_ID,
                    header_Authorization=_TOKEN_OF % "token")
        for link, target, text in (
            ("GetView", "getGame", "The player's view of the tour game"),
            ("PostAction", "postAction", "The player's action in the tour game"))},
}


def markdown(text: str) -> str:
    """``text`` (a docstring: reStructuredText) with its inline literals, in double
    backticks, made the single-backtick code spans of CommonMark, which the descriptions of
    an OpenAPI document are written in and Swagger UI and ReDoc render."""
    return _RST_LITERAL.sub(r"`\1`", text)


_RST_LITERAL: Final = re.compile(r"``(.+?)``", re.DOTALL)


def _invalid(path: str, method: str) -> str:
    """The 422 response component of an operation with input."""
    if (path, method) == CHAT:
        return "InvalidChat"
    if (path, method) in LOBBY_INVALID_BODY:
        return LOBBY_INVALID_BODY[(path, method)]
    if path.startswith(LOBBY_PREFIXES):
        return "InvalidQuery"
    return "InvalidRequest"


class DocsPlugin(BasePlugin):
    """Adds the components above and completes each operation."""

    def init_spec(self, spec: APISpec) -> None:
        self._spec = spec
        spec.components.schema("TausendeinsTrick", schema=TausendeinsTrickSchema)
        for name, header in HEADERS.items():
            spec.components.header(name, header)
        for name, parameter in PARAMETERS.items():
            spec.components.parameter(name, parameter["in"], parameter)
        for name, response in RESPONSES.items():
            spec.components.response(name, response)

    def operation_helper(self, path: str | None = None,
                         operations: dict[str, Any] | None = None, **_: Any) -> None:
        if path is None or operations is None:
            return
        for method, operation in operations.items():
            operation.setdefault("security", [])  # none named: public, and says so
            for text in ("summary", "description"):
                if text in operation:
                    operation[text] = markdown(operation[text])
            if (path, method) in OPERATION_IDS:
                operation["operationId"] = OPERATION_IDS[(path, method)]
            if (path, method) in HEADER_PARAMETERS:  # names: apispec makes them references
                operation.setdefault("parameters", []).extend(HEADER_PARAMETERS[(path, method)])
            responses = operation.setdefault("responses", {})
            own = 503 in responses or "503" in responses  # its problems include the store's
            if (path, method) in WRITES:
                responses["507"] = "StoreFull"
                if not own:
                    responses["503"] = "Unconfirmed"
            elif (path, method) in TABLE_WRITES and not own:
                responses["503"] = "TableUnconfirmed"
            elif path.startswith("/v1/") and not own:
                responses["503"] = "StoreUnavailable"
            if "requestBody" in operation or not _CONDITIONS.isdisjoint(
                    HEADER_PARAMETERS.get((path, method), ())):
                responses["400"] = "BadRequest"
            for status in (422, "422"):  # flask-smorest's own 422 of every operation with input
                if status in responses:
                    responses[status] = _invalid(path, method)
        if path == "/v1/games/{game_id}/record" and "get" in operations:
            ok = operations["get"]["responses"]
            ok[200 if 200 in ok else "200"].setdefault("content", {})["text/plain"] = {
                "schema": {"type": "string"}, "example": RECORD_TEXT_EXAMPLE}
        if path == "/v1/analysis":  # a view, a record and a seat, or a Tausendeins view
            analysis = self._spec.components.schemas["AnalysisRequest"]
            analysis.pop("required", None)
            analysis["anyOf"] = [{"required": list(REQUIRED)}, {"required": list(RECORD_REQUIRED)},
                                 {"required": list(T1001_REQUIRED)}]
        for (linked, method, status), links in LINKS.items():
            if linked == path and method in operations:
                answers = operations[method]["responses"]
                answers[status if status in answers else str(status)]["links"] = links
