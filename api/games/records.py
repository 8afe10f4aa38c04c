"""Records of play over HTTP: who may read a game's record, and the record as served.

The record itself is built by :mod:`engine.record` from the game's full event log: after the
game (``match_over`` or ``aborted``) with every hand's deck; while it runs, for one of its
seats, without decks (that seat's own dealt cards instead) — every action is public, so
nothing else needs hiding. The seats' chat messages (:mod:`api.live.chat`), which are no engine
events, are kept out of the engine's part and listed apart as ``chat`` (``seq``, ``seat``,
``text``, ``at``; every message is public); a replay ignores them. The text form has no chat.
nothing else needs hiding. ``clock`` names the game's clock settings (``null`` without one);
the actions the clock made are marked ``"timeout": true`` (see :mod:`engine.record`).
"""

from __future__ import annotations

from typing import Any

from api.errors import FieldError
from api.games.service import public_seats
from api.games.store import Game, GameStore
from api.live.chat import is_chat, record_entry
from api.live.clock import SETTINGS
from engine.hosted import build_record, capabilities_of, is_over, status_of
from engine.record import to_text


def may_read_record(game: Game, seat: int | None) -> bool:
    """Whether a caller (``seat``: the seat of its token, ``None`` without one) may read the
    record of ``game``: its seats always (decks hidden while it runs); anyone who may watch
    the game once it is over. Who may watch is the resource's check, made first
    (:func:`api.http.resources.lobby_support.admit`: a private table's game needs its invite
    code, else it is a 404)."""
    return seat is not None or is_over(game.state)


def game_record(store: GameStore, game: Game, seat: int | None) -> dict[str, Any]:
    """The record of ``game`` as ``seat`` may see it (check :func:`may_read_record` first)."""
    logged = store.all_events(game)
    record = build_record(game.state, [e.event for e in logged if not is_chat(e)],
                   reveal=is_over(game.state), seat=seat)
    timing = game.meta.get("clock")
    return {"game_id": game.game_id, "version": game.version, "status": status_of(game.state),
            "seats": public_seats(game.meta),
            "clock": None if timing is None else {k: timing[k] for k in SETTINGS},
            **record, "chat": [record_entry(e) for e in logged if is_chat(e)]}


def record_text(record: dict[str, Any]) -> str:
    """The text form of a served record, headed by a comment naming the game; a 422 on
    ``format`` for a record of a game without the text form (Tausendeins: JSON only)."""
    if not capabilities_of(record["variant"]).text_record:
        raise FieldError("format", f"a {record['variant'].capitalize()} record has the JSON "
                         "form only; ask for format=json")
    return (f"# sixtysix record of game {record['game_id']} at version {record['version']} "
            f"({record['status']})\n" + to_text(record))
