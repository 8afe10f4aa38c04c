"""Replay a record of play through the engine and check it (``python -m engine.replay``, run by
:mod:`engine.replay.__main__`).

``python -m engine.replay RECORD [--show]`` reads a record — the JSON of
``GET /v1/games/{id}/record`` or its text form (:mod:`engine.record`), ``-`` for stdin — deals
every hand from its recorded deck with its recorded dealer, applies every action in order and
compares each hand's settlement and the game's result with the recorded ones. It prints a
short summary (``--show``: every hand too) and exits 0 when all agree, 1 at the first
difference (naming the hand and the action), 2 when the record cannot be read. A text record
has no settlements or result to compare: its replay checks that every action is legal.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.deal import new_game, parse_deck
from engine.errors import EngineError, IllegalAction, InvalidAction
from engine.play import apply
from engine.record import InvalidRecord, parse_text, result_of, rules_of
from engine.rules import VARIANTS
from engine.serialize import json_object
from engine.state import GameState


class ReplayMismatch(EngineError):
    """The replay differs from the record: ``hand_no``, ``action_no`` (1-based in the hand;
    ``None`` for the hand's deal or settlement, or the result) and what differs."""

    def __init__(self, hand_no: int, action_no: int | None, message: str) -> None:
        self.hand_no = hand_no
        self.action_no = action_no
        where = f"hand {hand_no}" + (f", action {action_no}" if action_no is not None else "")
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True, slots=True)
class Replayed:
    """The state after the last recorded action, and how much was replayed."""

    state: GameState
    hands: int
    actions: int


def _plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value))


def _first_difference(recorded: Mapping[str, Any] | None, replayed: Any, what: str) -> str:
    if recorded is None or replayed is None:
        return f"{what}: recorded {recorded!r}, replayed {replayed!r}"
    for key in sorted(set(recorded) | set(replayed)):
        if recorded.get(key) != replayed.get(key):
            return f"{what} {key}: recorded {recorded.get(key)!r}, replayed {replayed.get(key)!r}"
    return f"{what} differs"  # pragma: no cover - only called when they differ


def _decks(record: Mapping[str, Any]) -> list[Sequence[str]]:
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands or not all(isinstance(h, dict) for h in hands):
        raise InvalidRecord("a record has a list of one or more hands")
    variant = rules_of(record).variant
    decks: list[Sequence[str]] = []
    for n, hand in enumerate(hands, 1):
        deck = hand.get("deck")
        if deck is None:
            raise InvalidRecord(f"hand {n} has no deck: a record of a game in play hides "
                                "them; fetch the record after the game")
        try:
            parse_deck(variant, deck)
        except EngineError as exc:
            raise InvalidRecord(f"hand {n}: deck: {exc}") from None
        decks.append(deck)
    return decks


def replay(record: Mapping[str, Any]) -> Replayed:
    """Replay ``record``; raises :class:`ReplayMismatch` at the first difference and
    :class:`~engine.record.InvalidRecord` if it cannot be read."""
    decks = _decks(record)
    hands: list[dict[str, Any]] = record["hands"]
    state, _ = new_game(rules_of(record), first_dealer=hands[0].get("dealer"), decks=decks)
    total = 0
    for n, hand in enumerate(hands, 1):
        if state.hand_no != n:
            raise ReplayMismatch(n, None, "the actions of the hand before do not finish it")
        if state.dealer != hand.get("dealer"):
            raise ReplayMismatch(n, None, f"dealer: recorded {hand.get('dealer')!r}, "
                                 f"replayed {state.dealer}")
        settlement = None
        for i, entry in enumerate(hand.get("actions", ()), 1):
            if state.hand_no != n:
                raise ReplayMismatch(n, i, "the hand is over and the next one dealt")
            try:
                seat, action = entry["seat"], Action.from_dict(entry)
            except (InvalidAction, KeyError, TypeError, AttributeError):
                raise InvalidRecord(f"hand {n}, action {i}: {entry!r} is not an action "
                                    "with its seat") from None
            try:
                events = apply_checked(state, seat, action)
            except IllegalAction as exc:
                raise ReplayMismatch(n, i, f"{seat}:{action.text()} is illegal: "
                                     f"{exc.reason}") from None
            settlement = next((e.data["settlement"] for e in events
                               if e.type == "hand_settled"), settlement)
            total += 1
        if "settlement" in hand and hand["settlement"] != _plain(settlement):
            raise ReplayMismatch(n, None, _first_difference(
                hand["settlement"], _plain(settlement), "settlement"))
    if "result" in record and record["result"] != _plain(result_of(state)):
        raise ReplayMismatch(len(hands), None, _first_difference(
            record["result"], _plain(result_of(state)), "result"))
    return Replayed(state, len(hands), total)


def apply_checked(state: GameState, seat: object, action: Action) -> list[Any]:
    """:func:`engine.play.apply` for a recorded seat (an unknown seat is illegal)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise IllegalAction(f"there is no seat {seat!r} in {state.rules.variant.name}")
    return apply(state, seat, action)


def read(text: str) -> dict[str, Any]:
    """A record from its JSON or its text form."""
    if text.lstrip().startswith("{"):
        return json_object(text, "the record", InvalidRecord)
    return parse_text(text)


def describe_result(result: Mapping[str, Any] | None) -> str:
    if result is None:
        return "the game is still in play"
    if result["reason"] == "aborted":
        return f"aborted by seat {result['by']}: no result"
    winners = "+".join(str(s) for s in result["winners"])
    score = ":".join(str(p) for p in result["score"])
    if result["reason"] == "resigned":
        return f"seat {result['by']} resigned: won by seat {winners} (game points {score})"
    if result["reason"] == "timeout":
        return (f"seat {result['by']} forfeited on time: won by seat {winners} "
                f"(game points {score})")
    return f"won by seat {winners} on points ({score})"


def show(record: Mapping[str, Any]) -> str:
    """Every hand of a record, for reading in a terminal."""
    lines = [f"{record.get('variant')}: {len(record.get('hands', ()))} hands"]
    for hand in record.get("hands", ()):
        deck = " ".join(hand["deck"]) if hand.get("deck") else "(hidden)"
        lines.append(f"hand {hand['hand_no']}, dealer {hand['dealer']}: deck {deck}")
        if hand.get("cards"):
            lines.append(f"  your cards: {' '.join(hand['cards'])}")
        actions = [f"{a['seat']}:{Action.from_dict(a).text()}" for a in hand["actions"]]
        for start in range(0, len(actions), 12):
            lines.append("  " + " ".join(actions[start : start + 12]))
        settlement = hand.get("settlement")
        if settlement:
            lines.append(f"  = {settlement.get('explanation', settlement.get('reason'))}")
    if "result" in record:
        lines.append(describe_result(record["result"]))
    return "\n".join(lines)


def run(path: str, show_hands: bool = False) -> int:
    """Read, replay and report one record; the exit status (0, 1 mismatch, 2 unreadable)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
        record = read(text)
        if record.get("variant") not in VARIANTS:  # another game's record
            return _run_other(record)
        if show_hands:
            print(show(record))
        done = replay(record)
    except OSError as exc:
        print(f"replay: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    except ReplayMismatch as exc:
        print(f"replay: MISMATCH at {exc}", file=sys.stderr)
        return 1
    except (InvalidRecord, EngineError) as exc:
        print(f"replay: {path} is not a readable record: {exc}", file=sys.stderr)
        return 2
    checked = "settlements and result identical" if "result" in record else (
        "every action legal (a text record has no settlements to compare)")
    print(f"{record['variant']}: {done.hands} hands, {done.actions} actions replayed; {checked}")
    print(describe_result(result_of(done.state) if done.state.over else None))
    return 0


def _run_other(record: Mapping[str, Any]) -> int:
    """Replay the record of a game other than the Sixty-Six family's by its registered game
    (:meth:`engine.plugin.Game.replay`) and report it; raises as :func:`run` catches."""
    from engine import registry  # it registers the family, which imports this module

    variant = str(record.get("variant"))
    game = registry.for_variant(variant)
    final = game.replay(record)
    hands = record.get("hands", ())
    actions = sum(len(h.get("actions", ())) for h in hands)
    print(f"{variant}: {len(hands)} {game.capabilities.hand_word[1]}, {actions} actions "
          "replayed; settlements and result identical")
    outcome = game.outcome(final)
    if outcome is not None:
        won = "".join(f"; seat {s} won" for s in outcome.winners)
        print(f"totals {':'.join(str(p) for p in outcome.points)}{won}")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="record file: JSON or the text form; - for stdin")
    parser.add_argument("--show", action="store_true", help="print every hand as well")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.replay",
                                     description="Replay a record of play and check it.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args.record, args.show)
