"""Examples of the OpenAPI document, copied from real answers
(tests/api/http/test_openapi_examples.py replays each one and compares).

The game is docs/api.md's seeded one: Ann in seat 0 against the random computer, ``deck`` and
``first_dealer`` given, seen by Ann right after the deal. Only the game id, the token and the
request id differ from run to run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from api.games import rated
from engine import Rules

GAME_ID: Final = "q3V9k2xR0aLmT7wZ"
TOKEN: Final = "iKE_fe2tAqCEDfQFHujd0_mfF0RHdTkNw4gZa3oU2v4"
REQUEST_ID: Final = "4c1f6078d1b74eeebd1006b443acea6e"
PROBLEMS: Final = "https://sixtysix.dev/problems/"

#: The body that creates the example game.
SEEDED_CREATE: Final[dict[str, Any]] = {
    "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}],
    "first_dealer": 1,
    "deck": ["KH", "QH", "AS", "AH", "TH", "KS", "TS", "9C", "JC", "QS", "9D", "JD", "9H",
             "AC", "TC", "KC", "QC", "JS", "9S", "AD", "TD", "KD", "QD", "JH"],
}

_SEATS: Final = [{"seat": 0, "kind": "human", "name": "Ann", "level": None},
                 {"seat": 1, "kind": "computer", "name": "Computer (random)", "level": "random"}]

CREATED: Final[dict[str, Any]] = {
    "game_id": GAME_ID, "version": 1, "variant": "sixty-six", "rated": False,
    "unrated_reason": rated.DECK,
    "seats": [{**_SEATS[0], "token": TOKEN}, {**_SEATS[1], "token": None}],
}

#: The validation message of an unknown action type.
_TYPES: Final = ("Must be one of: play, meld, exchange, close, declare, continue, resign, "
                 "abort, bid, pass, take_musik, discard, raise, pause.")
_HAND: Final = ["JC", "9C", "AS", "TS", "KH", "QH"]
_LEGAL: Final = [*({"type": "play", "card": c} for c in _HAND), {"type": "meld", "suit": "H"},
                 {"type": "close"}]

#: The rules of a default two-hand game, every option, as the API shows them.
RULES: Final[dict[str, Any]] = Rules.from_dict({"variant": "sixty-six"}).as_dict()

VIEW: Final[dict[str, Any]] = {
    "game_id": GAME_ID, "version": 1, "rated": False, "unrated_reason": rated.DECK,
    "seats": [{**s, "connected": True} for s in _SEATS], "hinted_hands": [],
    "seat": 0, "game": "sixty-six", "variant": "sixty-six",
    "rules": RULES,
    "settings": {"point_counter": False, "hint_66": False, "auto_continue": False},
    "status": "playing", "hand_no": 1, "dealer": 1, "forehand": 0, "sitting_out": None,
    "to_act": 0, "hand": _HAND, "hand_sizes": [6, 6], "trump_suit": "H", "trump_card": "9H",
    "turned_card": "9H", "talon_size": 12, "closed_by": None, "closed_after_tricks": None,
    "phase": 1, "leader": 0, "trick": [], "last_trick": None, "tricks": [],
    "tricks_won": [{"side": 0, "seats": [0], "tricks": 0}, {"side": 1, "seats": [1], "tricks": 0}],
    "known_cards": {}, "melds": [], "legal_actions": _LEGAL, "can_resign": True,
    "can_abort": False,
    "computers_unavailable": False,
    "match": {"match_no": 1, "target": 7, "points": [0, 0], "needed": [7, 7], "bummerl": [0, 0],
              "matches_won": [0, 0], "set_bummerl": 1, "winner": None, "set_winner": None,
              "result_reason": None, "resigned_by": None, "aborted_by": None,
              "timed_out_by": None},
    "settlement": None, "clock": None,
    "events": [
        {"seq": 1, "type": "hand_dealt", "hand_no": 1, "dealer": 1, "forehand": 0,
         "active": [0, 1], "trump_suit": "H", "trump_card": "9H", "talon_size": 12},
        {"seq": 2, "type": "cards_dealt", "seat": 0, "cards": _HAND},
        {"seq": 3, "type": "cards_dealt", "seat": 1}],
}


def problem(slug: str, title: str, status: int, detail: str, path: str,
            **extra: Any) -> dict[str, Any]:
    """A problem document as :func:`api.http.errors.problem_response` writes it."""
    return {"type": PROBLEMS + slug, "title": title, "status": status, "detail": detail,
            "instance": path, "request_id": REQUEST_ID, **extra}


_GAME: Final = f"/v1/games/{GAME_ID}"
_ACTIONS: Final = f"{_GAME}/actions"

#: Each error answer, by a name: (summary, problem document).
ERRORS: Final[dict[str, dict[str, Any]]] = {
    "malformed_json": problem(
        "bad-request", "Malformed request", 400, "body: Invalid JSON body.", "/v1/games",
        errors={"body": ["Invalid JSON body."]}),
    "missing_token": problem(
        "unauthorized", "Missing or unknown seat token", 401,
        "this request needs Authorization: Bearer <seat token>", _ACTIONS),
    "unknown_token": problem(
        "unauthorized", "Missing or unknown seat token", 401,
        "the token belongs to no seat of this game", _ACTIONS),
    "game_not_found": problem(
        "game-not-found", "No such game", 404,
        f"no game {GAME_ID!r} (unknown or expired)", _GAME, game_id=GAME_ID),
    "illegal_action": problem(
        "illegal-action", "Action not allowed now", 409, "you do not hold KD", _ACTIONS,
        reason="you do not hold KD", legal_actions=_LEGAL),
    "version_conflict": problem(
        "version-conflict", "The game changed meanwhile; nothing was applied", 409,
        f"game {GAME_ID!r} is at version 2, not 1: reload and retry", _ACTIONS,
        current_version=2),
    "request_in_progress": problem(
        "request-in-progress", "A request with this Idempotency-Key is in progress", 409,
        "the first request with this Idempotency-Key is still running; retry shortly",
        "/v1/games"),
    "no_decision": problem(
        "no-decision", "The seat has no decision to make now", 409,
        "seat 1 has no card to play or action to take now; ask when it is your turn",
        f"{_GAME}/hint"),
    "stale_version": problem(
        "stale-version", "If-Match does not match the version", 412,
        "If-Match names another version; the game is at version 1: reload and retry",
        _ACTIONS, current_version=1),
    "validation_error": problem(
        "validation-error", "Invalid request field", 422,
        f"type: {_TYPES}", _ACTIONS, errors={"type": [_TYPES]}),
    "idempotency_key_reused": problem(
        "idempotency-key-reused", "Idempotency-Key already used for another request", 422,
        "this Idempotency-Key was used for a different request; use a new key", _ACTIONS),
    "store_unavailable": problem(
        "store-unavailable", "Game store unreachable", 503,
        "the game store is unreachable; retry later", _GAME),
    "outcome_unknown": problem(
        "outcome-unknown", "The game store did not confirm the write", 503,
        "the game store did not answer in time: the request may have been applied. Do not send "
        "it again blindly: repeat it with the same Idempotency-Key (answered from the first if "
        "it was applied, else applied once), or reload the view (GET the game: its version says "
        "whether the write was applied)", _ACTIONS, game_id=GAME_ID),
    "advice_queue_full": problem(
        "advice-queue-full", "Too many hints and analyses are waiting for the computer", 503,
        "8 hints or analyses are already waiting for a worker; retry later (nothing was done)",
        "/v1/analysis", queue_limit=8),
    "computers_busy": problem(
        "computers-busy", "The computers cannot take another game now", 503,
        "the computers cannot answer the games under way in time even at their least work; no "
        "new game against them now, retry later (nothing was done)", "/v1/games"),
    "advice_timeout": problem(
        "advice-timeout", "The computer did not answer in time", 503,
        "no answer within 15 s; retry later (nothing was saved)", "/v1/analysis"),
    "workers_unavailable": problem(
        "workers-unavailable", "No worker process of the computers runs", 503,
        "the worker tier runs no process for the computer now; retry later (nothing was done)",
        "/v1/analysis"),
    "too_many_games": problem(
        "too-many-games", "Too many active games from this address", 403,
        "this address already has 200 active games, the most allowed: finish one (a finished "
        "match frees its place) or let one expire", "/v1/games", max_games=200),
    "chat_full": problem(
        "chat-full", "The game's chat is full", 409,
        f"game {GAME_ID!r} holds 500 chat messages, the most allowed: no more can be sent to "
        "this game", f"{_GAME}/chat", max_messages=500),
    "invalid_chat_text": problem(
        "validation-error", "Invalid request field", 422,
        "text: must be one line of visible text: character 4 is a control character "
        "(U+000A)", f"{_GAME}/chat",
        errors={"text": ["must be one line of visible text: character 4 is a control "
                         "character (U+000A)"]}),
    "store_full": problem(
        "insufficient-storage", "The game store is full", 507,
        "the game store is full; nothing was saved", "/v1/games"),
}


#: The body that creates the Tausendeins example: Ann against Bob, every rule at its default
#: (an auction, then the tricks from the stock), deck and first dealer given.
TAUSENDEINS_CREATE: Final[dict[str, Any]] = {
    "variant": "tausendeins",
    "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
    "first_dealer": 1,
    "deck": ["KH", "AC", "9H", "TS", "AS", "9S", "JD", "QD", "JS", "JC", "KC", "KD", "QC", "TD",
             "9C", "AD", "QS", "9D", "QH", "JH", "KS", "TC", "TH", "AH"],
}


def tausendeins_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """How the seats of the Tausendeins example play: a meld whenever one is offered, else
    the first of the legal actions."""
    return next((a for a in legal if a["type"] == "meld"), legal[0])


#: Ann's views of the Tausendeins example (api/http/examples_tausendeins.json, written by
#: ``SIXTYSIX_WRITE_EXAMPLES=1 python -m pytest tests/api/http/test_openapi_examples.py``):
#: ``trump_set``, just after the first marriage set trump; ``settled``, the first deal's
#: settlement with its working.
TAUSENDEINS_VIEWS: Final[dict[str, dict[str, Any]]] = json.loads(
    (Path(__file__).with_name("examples_tausendeins.json")).read_text(encoding="utf-8"))

#: The examples of a game view (``GET /v1/games/{game_id}``), by name.
VIEW_EXAMPLES: Final = {
    "sixty_six": {"summary": "Sixty-Six: Ann's view right after the deal", "value": VIEW},
    "tausendeins_trump_set": {
        "summary": "Tausendeins: Ann's view just after a marriage made its suit trump",
        "value": TAUSENDEINS_VIEWS["trump_set"]},
    "tausendeins_settled": {
        "summary": "Tausendeins: a deal's settlement, with its working",
        "value": TAUSENDEINS_VIEWS["settled"]},
}
