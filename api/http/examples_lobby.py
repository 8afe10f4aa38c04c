"""Error examples of the lobby, tour, leaderboard, ratings and players operations, copied from
real answers (tests/api/http/test_openapi_examples.py replays each one and compares).

Ann (player :data:`PLAYER_ID`) has created table :data:`TABLE_ID` (two seats, one open) and
has no tour stamp; only the ids and the request id differ from run to run.
"""

from __future__ import annotations

from typing import Any, Final

from api.http.examples import problem
from api.tour.stations import STATIONS

PLAYER_ID: Final = "pA3x9Qk2LmZ0"
TABLE_ID: Final = "tB7q2WcXk9Lp"
_TABLE: Final = f"/v1/tables/{TABLE_ID}"
_PLAYER_UNAUTHORIZED: Final = "Missing or unknown player token"
_INVALID: Final = "Invalid request field"
_CONFLICT: Final = "Not possible at this table now"


def _validation(path: str, field: str, message: str, **extra: Any) -> dict[str, Any]:
    return problem("validation-error", _INVALID, 422, f"{field}: {message}", path,
                   errors={field: [message]}, **extra)


def _table_conflict(action: str, reason: str) -> dict[str, Any]:
    return problem("table-conflict", _CONFLICT, 409, reason, f"{_TABLE}/{action}", reason=reason)


#: Each error answer, by a name (the keys are unique across :data:`api.http.examples.ERRORS`).
LOBBY_ERRORS: Final[dict[str, dict[str, Any]]] = {
    "missing_player_token": problem(
        "unauthorized", _PLAYER_UNAUTHORIZED, 401,
        "this request needs Authorization: Bearer <player token>", "/v1/players/me"),
    "unknown_player_token": problem(
        "unauthorized", _PLAYER_UNAUTHORIZED, 401,
        "the token belongs to no player (a seat token is not a player token)", "/v1/tour"),
    "player_not_found": problem(
        "player-not-found", "No such player", 404, f"no player {PLAYER_ID!r}",
        f"/v1/players/{PLAYER_ID}", player_id=PLAYER_ID),
    "not_your_player": problem(
        "not-your-player", "Only the player's own token may do this", 403,
        f"this is player {PLAYER_ID!r}'s own: send his player token",
        f"/v1/players/{PLAYER_ID}/export", player_id=PLAYER_ID),
    "player_busy": problem(
        "player-busy", "The player is at a game in play or holds an open table", 409,
        f"player {PLAYER_ID!r} holds an open table: leave it first",
        f"/v1/players/{PLAYER_ID}"),
    "name_taken": problem(
        "name-taken", "Name taken", 409,
        "the name 'ann' is taken, or looks like one that is (names are unique without regard "
        "to case or to look-alike letters)", "/v1/players"),
    "invalid_name": _validation("/v1/players", "name", "must be at least 3 characters; got 1"),
    "table_not_found": problem(
        "table-not-found", "No such table", 404,
        f"no table {TABLE_ID!r} (unknown, expired, or private and no invite code given)",
        _TABLE, table_id=TABLE_ID),
    "already_seated": _table_conflict("join", "you already have a seat at this table"),
    "no_seat": _table_conflict("leave", "you have no seat at this table"),
    "no_rematch_yet": _table_conflict("rematch",
                                      "the table is open: a rematch follows a finished match"),
    "too_many_open_tables": problem(
        "too-many-open-tables", "You have as many open tables as allowed", 409,
        "you have 1 open table, the most allowed (max_open_tables 1): free one by leaving it "
        "(POST /v1/tables/{table_id}/leave; a table nobody is left at closes), or wait until "
        "one fills and starts or expires", "/v1/tables", max_open_tables=1,
        open_tables=[TABLE_ID]),
    "unknown_level": _validation("/v1/tables", "seats.1.level", "unknown level 'genius'",
                                 allowed=["random", "easy", "normal", "strong"]),
    "no_such_seat": _validation(f"{_TABLE}/join", "seat", "this table has seats 0..1"),
    "station_not_found": problem(
        "station-not-found", "No such tour station", 404,
        "no tour station 'route-67'; the stations are "
        + ", ".join(s.slug for s in STATIONS), "/v1/tour/route-67/start", station="route-67"),
    "station_not_open": problem(
        "station-not-open", "The station is not open yet", 409,
        "St. Louis opens when Chicago is stamped: win the match there first",
        "/v1/tour/st-louis/start", station="st-louis"),
    "table_outcome_unknown": problem(
        "outcome-unknown", "The game store did not confirm the write", 503,
        "the game store did not answer in time: the change may have been applied. Do not send "
        "it again blindly: reload the table (GET it) and see whether it holds it",
        f"{_TABLE}/join", table_id=TABLE_ID),
    "saved_view_unavailable": problem(
        "saved-view-unavailable", "Saved; the answer could not be read", 503,
        "the change was saved, but the game store stopped answering before the table could be "
        "read: do not send it again; reload the table (GET it) when the store is back",
        f"{_TABLE}/join", table_id=TABLE_ID, version=2),
    "invalid_kind": _validation("/v1/ratings", "kind", "Must be one of: human, bot, computer."),
    "invalid_period": _validation("/v1/leaderboard", "period", "Must be one of: all, month."),
    "invalid_status": _validation("/v1/tables", "status", "Must be one of: open, playing."),
}
