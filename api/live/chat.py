"""Chat at a game's table: what a message may hold, and its form in the event log.

A message is text of the one policy of :mod:`api.text_policy` (NFC, spaces at the ends
trimmed, no control, format or invisible character) of 1 to :data:`MAX_CHARS` characters
(:func:`check_text`: a 422 on ``text`` naming the first refused character).

A message is logged as an event of type ``chat`` (:func:`chat_event`) in the game's event log
beside the engine's events, with the public members ``seat``, ``name`` (the seat's), ``text``
and ``at`` (UTC, ISO 8601, seconds): every seat and every spectator who may watch the game
sees it. It is not an engine event: the engine never produces, reads or replays one; the
game's record lists the messages apart (:func:`record_entry`).
"""

from __future__ import annotations

import time
from typing import Any, Final

from api.games.meta import GameMeta
from api.games.store import Logged
from api.players.service import iso
from api.text_policy import checked
from engine import Event

CHAT: Final = "chat"
#: Most characters (code points, after normalisation) of one message.
MAX_CHARS: Final = 200


def check_text(raw: str) -> str:
    """``raw`` normalised; a text that is no chat message is a 422 on ``text``."""
    return checked(raw, "text", 1, MAX_CHARS)


def chat_event(meta: GameMeta, seat: int, text: str, now: float | None = None,
               ) -> Event:
    """The ``chat`` event of ``seat``'s message ``text`` (already checked), sent at ``now``
    (Unix seconds; default: the present)."""
    return Event(CHAT, {"seat": seat, "name": meta["seats"][seat]["name"], "text": text,
                        "at": iso(time.time() if now is None else now)})


def is_chat(logged: Logged) -> bool:
    return logged.event.type == CHAT


def message(logged: Logged) -> dict[str, Any]:
    """A logged message as ``POST /v1/games/{id}/chat`` answers it: ``seq``, ``seat``,
    ``name``, ``text``, ``at``."""
    return {"seq": logged.seq, **logged.event.data}


def record_entry(logged: Logged) -> dict[str, Any]:
    """A logged message as the game's record lists it: ``seq``, ``seat``, ``text``, ``at``."""
    data = logged.event.data
    return {"seq": logged.seq, "seat": data["seat"], "text": data["text"], "at": data["at"]}
