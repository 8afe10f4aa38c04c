"""Chat at a game's table: what a message may hold, and its form in the event log.

A message is single-line text: the text sent is NFC-normalised and stripped of leading and
trailing whitespace, then it must hold 1 to :data:`MAX_CHARS` characters (code points) and
none of these (:func:`check_text`: a 422 on ``text`` naming the first one found):

* control characters (Unicode category ``Cc``: C0 and C1, tab and newline included; so no
  terminal escape sequence can be sent);
* line and paragraph separators (``Zl``, ``Zp``: a second line by other means);
* the bidirectional embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069
  (they reorder the text around them, the trick of spoofed names and of text that reads
  otherwise than it is; the marks U+200E and U+200F, which right-to-left writing needs, are
  allowed);
* surrogate code points (``Cs``: half a character, which JSON's ``\\ud800`` can carry).

A message is logged as an event of type ``chat`` (:func:`chat_event`) in the game's event log
beside the engine's events, with the public members ``seat``, ``name`` (the seat's), ``text``
and ``at`` (UTC, ISO 8601, seconds): every seat and every spectator who may watch the game
sees it. It is not an engine event: the engine never produces, reads or replays one; the
game's record lists the messages apart (:func:`record_entry`).
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Mapping
from typing import Any, Final

from api.games.store import Logged
from api.http.errors import FieldError
from api.players.service import iso
from engine import Event

CHAT: Final = "chat"
#: Most characters (code points, after normalisation) of one message.
MAX_CHARS: Final = 200
#: Bidirectional embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
BIDI_CONTROLS: Final = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
#: The refused characters as a regular-expression class (ECMA-262 and Python alike): the
#: controls (all of ``Cc``), the line and paragraph separators, the bidirectional controls.
_REFUSED_CLASS: Final = r"\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069"
#: The OpenAPI ``pattern`` of a message: no refused character, and one that is no whitespace.
#: A text it matches of at most :data:`MAX_CHARS` characters is accepted, unless normalising
#: lengthens it past them (only the few characters NFC decomposes do, such as U+0958). The
#: documented form is stricter the other way: controls at the ends, which are stripped, and a
#: decomposed text longer than :data:`MAX_CHARS` that normalising shortens are accepted too.
TEXT_PATTERN: Final = f"^[^{_REFUSED_CLASS}]*[^\\s{_REFUSED_CLASS}][^{_REFUSED_CLASS}]*$"
_REFUSED_CATEGORIES: Final = {"Cc": "a control character", "Zl": "a line separator",
                              "Zp": "a paragraph separator", "Cs": "a surrogate code point"}


def normalised(text: str) -> str:
    """``text`` as it is checked and stored: NFC, without leading or trailing whitespace."""
    return unicodedata.normalize("NFC", text).strip()


def refusal(text: str) -> str | None:
    """Why normalised ``text`` is no chat message, or ``None`` if it is one."""
    if not text:
        return "must not be empty (or only whitespace)"
    if len(text) > MAX_CHARS:
        return f"must be at most {MAX_CHARS} characters; got {len(text)}"
    for index, char in enumerate(text):
        what = ("a bidirectional control" if char in BIDI_CONTROLS
                else _REFUSED_CATEGORIES.get(unicodedata.category(char)))
        if what is not None:
            return (f"must be one line of text without control characters: character "
                    f"{index + 1} is {what} (U+{ord(char):04X})")
    return None


def check_text(raw: str) -> str:
    """``raw`` normalised; a text that is no chat message is a 422 on ``text``."""
    text = normalised(raw)
    reason = refusal(text)
    if reason is not None:
        raise FieldError("text", reason)
    return text


def chat_event(meta: Mapping[str, Any], seat: int, text: str, now: float | None = None,
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
