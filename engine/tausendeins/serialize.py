"""Versioned JSON of a :class:`~engine.tausendeins.state.T1001State`.

``from_dict(to_dict(s))`` reproduces ``s`` exactly at every step; :func:`to_json` and
:func:`from_json` are the text form. Hands, the discards, the shown cards and taken cards are
bitmasks; the stock, musiks, trick and preset decks are strings of card codes (the stock top
last). Anything that does not load raises :class:`~engine.errors.InvalidState`.
"""

from __future__ import annotations

import json
from typing import Any, Final

from engine.cards import CARD_CODES, parse_card
from engine.errors import EngineError, InvalidState
from engine.tausendeins.options import NAME, T1001Rules
from engine.tausendeins.state import Call, Marriage, T1001State

SCHEMA_VERSION: Final = 1


def _cards(cards: list[int] | tuple[int, ...]) -> str:
    return "".join(CARD_CODES[c] for c in cards)


def _parse(text: str) -> list[int]:
    return [parse_card(text[i:i + 2]) for i in range(0, len(text), 2)]


def to_dict(state: T1001State) -> dict[str, Any]:
    return {
        "v": SCHEMA_VERSION, "var": NAME, "opt": state.rules.changed_options(),
        "dl": state.dealer, "hn": state.hand_no, "to": list(state.totals), "st": state.status,
        "wi": state.winner, "en": list(state.ended) if state.ended else None,
        "mv": state.moved, "ak": state.acks, "pd": [_cards(d) for d in state.preset_decks],
        "sg": state.stage, "hs": list(state.hands), "sk": _cards(state.stock),
        "mu": [_cards(m) for m in state.musiks], "mt": state.musik_taken, "di": state.discards,
        "ca": [[c.seat, c.bid] for c in state.calls], "ct": state.contract,
        "de": state.declarer, "ra": state.raised, "tr": state.trump,
        "ma": [[m.seat, m.suit, m.value, m.trick_no, m.state, m.credited_at]
               for m in state.marriages],
        "ms": state.melded_suit, "sh": state.shown, "ld": state.leader,
        "tk": _cards(state.trick),
        "tt": [[lead, _cards(cards), win] for lead, cards, win in state.tricks],
        "tn": list(state.taken), "se": state.settlement,
    }


def from_dict(data: dict[str, Any]) -> T1001State:
    """Load :func:`to_dict`'s form; raises :class:`InvalidState`."""
    try:
        if data["v"] != SCHEMA_VERSION or data["var"] != NAME:
            raise InvalidState(f"not a {NAME} state of schema {SCHEMA_VERSION}: "
                               f"{data['var']!r} version {data['v']!r}")
        s = T1001State(T1001Rules.make(dict(data["opt"])))
        s.dealer, s.hand_no, s.totals = data["dl"], data["hn"], list(data["to"])
        s.status, s.winner, s.moved, s.acks = data["st"], data["wi"], data["mv"], data["ak"]
        s.ended = (data["en"][0], data["en"][1]) if data["en"] else None
        s.preset_decks = [_parse(d) for d in data["pd"]]
        s.stage, s.hands, s.stock = data["sg"], list(data["hs"]), _parse(data["sk"])
        s.musiks = [_parse(m) for m in data["mu"]]
        s.musik_taken, s.discards = data["mt"], data["di"]
        s.calls = [Call(c[0], c[1]) for c in data["ca"]]
        s.contract, s.declarer, s.raised = data["ct"], data["de"], data["ra"]
        s.trump = data["tr"]
        s.marriages = [Marriage(*m) for m in data["ma"]]
        s.melded_suit, s.shown, s.leader = data["ms"], data["sh"], data["ld"]
        s.trick = _parse(data["tk"])
        s.tricks = []
        for lead, cards, win in data["tt"]:
            a, b = _parse(cards)
            s.tricks.append((lead, (a, b), win))
        s.taken, s.settlement = list(data["tn"]), data["se"]
        return s
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, EngineError) as exc:
        raise InvalidState(f"corrupt {NAME} state: {exc!r}") from exc


def to_json(state: T1001State) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_json(text: str | bytes) -> T1001State:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidState(f"game state is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise InvalidState("game state must be a JSON object")
    return from_dict(data)
