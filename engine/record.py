"""Records of play: a game as data, built from its full event log, and their text form.

A record (:func:`build`) is a JSON object::

    {"format": "sixtysix-record", "format_version": 1, "variant": "sixty-six",
     "rules": {...every option...}, "complete": true,
     "hands": [{"hand_no": 1, "dealer": 1, "deck": ["KH", "QH", ...],
                "actions": [{"seat": 0, "type": "meld", "suit": "H"},
                            {"seat": 0, "type": "play", "card": "QH"}, ...],
                "settlement": {...as in the view...}}, ...],
     "result": {"status": "match_over", "reason": "points", "by": null, "winner_side": 0,
                "winners": [0], "score": [7, 3], "bummerl": [0, 1], "matches_won": [1, 0]}}

``deck`` is the hand's full deal order (:mod:`engine.deal`), ``actions`` every action of the
hand in order (the ``continue`` acknowledging its settlement included), ``settlement`` the
hand's (``null`` if unfinished), ``result`` :func:`result_of` the final state (``null`` while
the game runs). An action the server's clock made for a seat whose think time ran out (a
computer's move for it, an acknowledged settlement, the ``timeout`` and ``forfeit``
transitions) carries ``"timeout": true``; replaying it is replaying the action.
Decks are shown only with ``reveal``: a record for a seat of a running game has
``"deck": null`` and instead ``"cards"``, the cards dealt to that seat; every action is
public (a seat sees each card played, meld, exchange, closing, declaration, resignation).

**Text form** (:func:`to_text`, :func:`parse_text`): one line per fact, ``#`` starts a comment::

    variant=sixty-six match_points=3
    dealer=1 deck=KH QH AS AH TH KS ... | 0:meld:H 0:play:QH 1:play:TH ...
    dealer=0 deck=... | ...

The first line names the variant and every option that differs from its defaults; then one
line per hand: its dealer, its deck (``deck=?`` when hidden) and after ``|`` its actions as
``seat:action`` in the action text form (:mod:`engine.actions`: ``play:QH``, ``meld:H``,
``exchange``, ``close``, ``declare``, ``continue``, ``resign``, ``abort``). The text form has
no settlements or result: :mod:`engine.replay` recomputes them. A prefix of a hand (its deck
and the actions so far) describes a position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from engine.actions import (
    ABORT,
    CLOSE,
    CONTINUE,
    DECLARE,
    EXCHANGE,
    FORFEIT,
    MELD,
    PLAY,
    RESIGN,
    TIMEOUT,
    Action,
)
from engine.errors import InvalidAction, InvalidOption, InvalidState
from engine.events import Event
from engine.numerals import parse_natural
from engine.rules import Rules
from engine.state import MATCH_OVER, GameState

FORMAT: Final = "sixtysix-record"
FORMAT_VERSION: Final = 1
#: The event each action emits first, with the action's kind.
ACTION_EVENTS: Final = {
    "card_played": PLAY, "meld": MELD, "exchange": EXCHANGE, "close": CLOSE,
    "declare": DECLARE, "continue": CONTINUE, "resigned": RESIGN, "aborted": ABORT,
    "timeout": TIMEOUT, "forfeited": FORFEIT,
}


class InvalidRecord(InvalidState):
    """A record (JSON or text) that cannot be read."""


def action_of(event: Event) -> Action | None:
    """The action whose first event ``event`` is, or ``None`` (a consequence: a trick won,
    a card drawn, a deal, a settlement)."""
    kind = ACTION_EVENTS.get(event.type)
    if kind is None:
        return None
    if kind == PLAY:
        return Action.from_text(f"play:{event.data['card']}")
    if kind == MELD:
        return Action.from_text(f"meld:{event.data['suit']}")
    return Action.simple(kind)


def result_of(state: GameState) -> dict[str, Any] | None:
    """How the game ended, or ``None`` while it runs. ``reason``: ``points``, ``resigned``,
    ``timeout`` (forfeited on time) or ``aborted``; ``by`` the seat that resigned, forfeited
    or aborted; scores per side."""
    if not state.over:
        return None
    reason, by = state.ended if state.ended is not None else ("points", None)
    winner = state.set_winner if state.status == MATCH_OVER else None
    return {
        "status": state.status, "reason": reason, "by": by, "winner_side": winner,
        "winners": list(state.seats_of(winner)) if winner is not None else [],
        "score": list(state.score), "bummerl": list(state.bummerl),
        "matches_won": list(state.matches_won),
    }


def build(state: GameState, events: Iterable[Event], *, reveal: bool,
          seat: int | None = None) -> dict[str, Any]:
    """The record of the game whose complete event log is ``events`` and final state ``state``.

    ``reveal``: show every hand's deck (only once the game is over); otherwise ``seat``'s own
    dealt cards are listed per hand instead (nothing for ``None``).
    """
    hands: list[dict[str, Any]] = []
    for event in events:
        if event.type == "hand_dealt":
            deck = (event.private or {}).get("deck")
            hands.append({"hand_no": event.data["hand_no"], "dealer": event.data["dealer"],
                          "deck": deck if reveal else None, "actions": [],
                          "settlement": None})
            if not reveal and seat is not None:
                hands[-1]["cards"] = []
        elif not hands:
            continue  # the cut for the first deal comes before any hand
        elif event.type == "cards_dealt" and not reveal and event.owner == seat:
            hands[-1]["cards"] = list((event.private or {})["cards"])
        elif event.type == "hand_settled":
            hands[-1]["settlement"] = event.data["settlement"]
        elif (action := action_of(event)) is not None:
            entry = {"seat": event.data["seat"], **action.as_dict()}
            if event.data.get("timeout"):
                entry["timeout"] = True
            hands[-1]["actions"].append(entry)
    rules = state.rules
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "variant": rules.variant.name,
        "rules": rules.as_dict(), "complete": state.over, "hands": hands,
        "result": result_of(state),
    }


def rules_of(record: Mapping[str, Any]) -> Rules:
    """The rules a record was played by; :class:`InvalidRecord` if they are not valid."""
    rules = record.get("rules") or {"variant": record.get("variant")}
    if not isinstance(rules, Mapping):
        raise InvalidRecord("rules must be an object of rule options")
    try:
        return Rules.from_dict({**rules, "variant": record.get("variant")})
    except InvalidOption as exc:
        raise InvalidRecord(f"rules: {exc}") from None


# --------------------------------------------------------------------------- text form


def _value_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _action_text(entry: Mapping[str, Any]) -> str:
    return f"{entry['seat']}:{Action.from_dict(dict(entry)).text()}"


def to_text(record: Mapping[str, Any]) -> str:
    """The text form of a record: a header line, then one line per hand."""
    rules = rules_of(record)
    head = [f"variant={rules.variant.name}"] + [
        f"{k}={_value_text(v)}" for k, v in rules.changed_options().items()]
    lines = [" ".join(head)]
    for hand in record["hands"]:
        deck = " ".join(hand["deck"]) if hand.get("deck") else "?"
        actions = " ".join(_action_text(a) for a in hand["actions"])
        lines.append(f"dealer={hand['dealer']} deck={deck} | {actions}".rstrip())
    return "\n".join(lines) + "\n"


def _option_value(text: str) -> object:
    if text in ("true", "false"):
        return text == "true"
    number = parse_natural(text)
    return text if number is None else number


def _parse_action(text: str, where: str) -> dict[str, Any]:
    seat_text, sep, action_text = text.partition(":")
    seat = parse_natural(seat_text)
    if not sep or seat is None:
        raise InvalidRecord(f"{where}: {text!r} is not seat:action (e.g. 0:play:QH)")
    try:
        action = Action.from_text(action_text)
    except InvalidAction as exc:
        raise InvalidRecord(f"{where}: {exc}") from None
    return {"seat": seat, **action.as_dict()}


def _parse_hand(line: str, where: str, hand_no: int) -> dict[str, Any]:
    facts, _, actions = line.partition("|")
    head, sep, deck = facts.strip().partition(" deck=")
    dealer = parse_natural(head.removeprefix("dealer="))
    if not sep or not head.startswith("dealer=") or dealer is None:
        raise InvalidRecord(f"{where}: a hand is 'dealer=N deck=C C ... | seat:action ...'")
    cards = deck.split()
    return {"hand_no": hand_no, "dealer": dealer,
            "deck": None if cards == ["?"] else cards,
            "actions": [_parse_action(a, where) for a in actions.split()]}


def parse_text(text: str) -> dict[str, Any]:
    """A record (without settlements and result) from its text form; :class:`InvalidRecord`
    naming the line if it does not parse."""
    lines = [(i, line.split("#", 1)[0].strip()) for i, line in enumerate(text.splitlines(), 1)]
    lines = [(i, line) for i, line in lines if line]
    if not lines or not lines[0][1].startswith("variant="):
        raise InvalidRecord("line 1: a record starts with 'variant=NAME [option=value ...]'")
    options: dict[str, object] = {}
    for item in lines[0][1].split():
        name, sep, value = item.partition("=")
        if not sep:
            raise InvalidRecord(f"line {lines[0][0]}: {item!r} is not option=value")
        options[name] = _option_value(value)
    variant = str(options.pop("variant"))
    record: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION,
                              "variant": variant, "rules": {"variant": variant, **options}}
    rules_of(record)
    record["hands"] = [_parse_hand(line, f"line {i}", n)
                       for n, (i, line) in enumerate(lines[1:], 1)]
    return record
