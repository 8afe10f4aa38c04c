"""Records of Tausendeins play, and their replay (the shape of :mod:`engine.record` and
:mod:`engine.replay`).

:func:`build` makes the record from a game's full event log: ``{"format": "sixtysix-record",
"format_version": 1, "variant": "tausendeins", "rules": {...}, "complete": bool, "hands":
[{"hand_no", "dealer", "deck", "actions": [{"seat": 0, "type": "bid", "points": 110}, ...],
"settlement"}], "result"}``. Decks, and the discards' cards, are shown only with ``reveal``
(after the game); a seat's record of a running game lists its own dealt ``cards`` and its own
discards. :func:`replay` deals each hand from its deck, applies every action and compares the
settlements and the result, raising :class:`~engine.replay.ReplayMismatch` at the first
difference.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from engine.errors import EngineError, IllegalAction, InvalidAction, InvalidOption
from engine.events import Event
from engine.record import FORMAT, FORMAT_VERSION, InvalidRecord
from engine.replay import ReplayMismatch
from engine.tausendeins.actions import T1001Action
from engine.tausendeins.deal import deck_cards, new_game
from engine.tausendeins.game import apply
from engine.tausendeins.options import NAME, T1001Rules
from engine.tausendeins.state import MATCH_OVER, T1001State

#: The event each action emits first, with the action's JSON fields taken from its data.
_ACTION_EVENTS: Final = {"card_played": "play", "meld": "meld", "bid": "bid", "pass": "pass",
                         "musik_taken": "take_musik", "discarded": "discard", "raise": "raise",
                         "continue": "continue", "resigned": "resign", "aborted": "abort"}


def _entry(event: Event, reveal: bool, seat: int | None) -> dict[str, Any] | None:
    kind = _ACTION_EVENTS.get(event.type)
    data = event.data
    if kind is None or data.get("compulsory"):
        return None
    entry: dict[str, Any] = {"seat": data["seat"], "type": kind}
    if kind == "play":
        entry["card"] = data["card"]
    elif kind == "meld":
        entry["suit"] = data["suit"]
    elif kind in ("bid", "raise"):
        entry["points"] = data["points"]
    elif kind == "take_musik":
        entry["musik"] = data["musik"]
    elif kind == "discard":
        private = event.private or {}
        entry["cards"] = private["cards"] if reveal or seat == event.owner else None
    return entry


def result_of(state: T1001State) -> dict[str, Any] | None:
    """How the game ended (``None`` while it runs): ``reason`` points, resigned or aborted."""
    if not state.over:
        return None
    reason, by = state.ended if state.ended is not None else ("points", None)
    return {"status": state.status, "reason": reason, "by": by,
            "winner": state.winner if state.status == MATCH_OVER else None,
            "totals": list(state.totals)}


def build(state: T1001State, events: Iterable[Event], *, reveal: bool,
          seat: int | None = None) -> dict[str, Any]:
    """The record of the game whose complete event log is ``events``."""
    hands: list[dict[str, Any]] = []
    for event in events:
        if event.type == "hand_dealt":
            hands.append({"hand_no": event.data["hand_no"], "dealer": event.data["dealer"],
                          "deck": (event.private or {}).get("deck") if reveal else None,
                          "actions": [], "settlement": None})
        elif not hands:
            continue
        elif event.type == "cards_dealt" and not reveal and seat is not None \
                and event.owner == seat:
            hands[-1]["cards"] = list((event.private or {})["cards"])
        elif event.type == "hand_settled":
            hands[-1]["settlement"] = event.data["settlement"]
        elif (entry := _entry(event, reveal, seat)) is not None:
            hands[-1]["actions"].append(entry)
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "variant": NAME,
            "rules": state.rules.as_dict(), "complete": state.over, "hands": hands,
            "result": result_of(state)}


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def replay(record: Mapping[str, Any]) -> T1001State:
    """Replay ``record``; the final state. Raises :class:`ReplayMismatch` at the first
    difference and :class:`InvalidRecord` if it cannot be read."""
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands or not all(isinstance(h, dict) for h in hands):
        raise InvalidRecord("a record has a list of one or more hands")
    try:
        rules = T1001Rules.from_dict(dict(record.get("rules") or {}))
        decks = [h["deck"] for h in hands]
        for deck in decks:
            deck_cards(deck)
    except (InvalidOption, EngineError, KeyError, TypeError) as exc:
        raise InvalidRecord(f"not a replayable {NAME} record: {exc}") from None
    state, _ = new_game(rules, first_dealer=hands[0].get("dealer"), decks=decks)
    for n, hand in enumerate(hands, 1):
        if state.hand_no != n or state.dealer != hand.get("dealer"):
            raise ReplayMismatch(n, None, "the deal or its dealer differs")
        settlement = None
        for i, entry in enumerate(hand.get("actions", ()), 1):
            try:
                seat, action = entry["seat"], T1001Action.from_dict(entry)
            except (InvalidAction, KeyError, TypeError):
                raise InvalidRecord(f"hand {n}, action {i}: {entry!r} is not an action") \
                    from None
            if seat not in (0, 1):
                raise ReplayMismatch(n, i, f"there is no seat {seat!r}")
            try:
                events = apply(state, seat, action)
            except IllegalAction as exc:
                raise ReplayMismatch(n, i, f"{seat}:{action.text()} is illegal: "
                                     f"{exc.reason}") from None
            settlement = next((e.data["settlement"] for e in events
                               if e.type == "hand_settled"), settlement)
        if "settlement" in hand and hand["settlement"] != _plain(settlement):
            raise ReplayMismatch(n, None, "the settlement differs")
    if "result" in record and record["result"] != _plain(result_of(state)):
        raise ReplayMismatch(len(hands), None, "the result differs")
    return state
