"""A game as it was right after one of its saves, rebuilt from its event log: what the replay
of an idempotent action shows (:mod:`api.http.idempotency`) without keeping the answer.

A save leaves a :class:`Mark` (a few numbers). :func:`game_as_of` gives the game at the mark:
the loaded game itself while it is still at that version; after later saves, the state
rebuilt by dealing the logged decks and applying the logged actions up to the mark's last
event, checked event by event against the log (any difference, or an event that is no
engine action, and nothing is rebuilt). The meta is today's with the hinted hands of then;
a game with a clock is not rebuilt, since its clock of then (deadline, expiries, pauses) is
in no log. Where nothing is rebuilt the answer is ``None``: the caller shows the game as it
is now, which still holds the action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from api.games.meta import GameMeta
from api.games.store import Game, GameStore
from api.live.chat import is_chat
from engine import EngineError, Event
from engine.actions import Action
from engine.hosted import HostedAction, HostedState, apply, build_record, new_game
from engine.tausendeins import T1001Action, T1001State

#: The event that deals a hand (its deck in its private part).
DEALT: Final = "hand_dealt"


@dataclass(frozen=True, slots=True)
class Mark:
    """A save as a replay finds it again: ``version`` the version it wrote, ``events`` the
    game's event count after it, ``logged`` how many of those it logged, ``connected`` the
    seats seen connected when it was loaded (bit ``i``: seat ``i``), ``hinted`` how many
    hands the meta's ``hinted_hands`` listed."""

    version: int
    events: int
    logged: int
    connected: int
    hinted: int

    @classmethod
    def of(cls, saved: Game) -> Mark:
        connected = sum(1 << i for i, seen in enumerate(saved.connected or ()) if seen)
        return cls(saved.version, saved.event_count, len(saved.recent), connected,
                   len(saved.meta.get("hinted_hands", [])))

    def to_dict(self) -> dict[str, int]:
        return {"version": self.version, "events": self.events, "logged": self.logged,
                "connected": self.connected, "hinted": self.hinted}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Mark:
        return cls(data["version"], data["events"], data["logged"], data["connected"],
                   data["hinted"])


def game_as_of(store: GameStore, game: Game, mark: Mark) -> Game | None:
    """``game`` (loaded after the save of ``mark``) as it was right after that save, or
    ``None`` if it cannot be rebuilt (see the module docstring)."""
    if game.version < mark.version:  # the save came after the load: see it
        game = store.load(game.game_id)
    meta = _meta_then(game.meta, mark.hinted)
    connected = [bool(mark.connected >> i & 1) for i in range(len(game.meta["seats"]))]
    if game.version == mark.version:
        return Game(game.game_id, mark.version, game.state, meta, mark.events, game.recent,
                    connected)
    if game.meta.get("clock") is not None:
        return None
    logged = store.all_events(game)[:mark.events]
    if len(logged) != mark.events:
        return None
    state = state_after(game.state, [e.event for e in logged if not is_chat(e)])
    if state is None:
        return None
    return Game(game.game_id, mark.version, state, meta, mark.events,
                logged[mark.events - mark.logged:], connected)


def _meta_then(meta: GameMeta, hinted: int) -> GameMeta:
    if "hinted_hands" not in meta:
        return meta
    return {**meta, "hinted_hands": meta["hinted_hands"][:hinted]}


def state_after(current: HostedState, events: list[Event]) -> HostedState | None:
    """The state of ``current``'s game after its logged engine ``events`` (a prefix of its
    log, full form), or ``None`` unless replaying them gives exactly these events (from the
    first deal on: :func:`_dealt`)."""
    try:
        record = build_record(current, events, reveal=True)
        hands = record["hands"]
        if not hands:
            return None
        settings = None if isinstance(current, T1001State) else current.settings
        state, produced = new_game(current.rules, settings, first_dealer=hands[0]["dealer"],
                                   decks=[hand["deck"] for hand in hands])
        for hand in hands:
            for entry in hand["actions"]:
                produced += apply(state, entry["seat"], _action(state, entry))
    except (EngineError, KeyError, TypeError):
        return None
    return state if _plain(_dealt(produced)) == _plain(_dealt(events)) else None


def _dealt(events: list[Event]) -> list[Event]:
    """``events`` from the first deal on: the cut for the first dealer before it was drawn
    at random, and its replay deals with the dealer it chose."""
    first = next((i for i, e in enumerate(events) if e.type == DEALT), len(events))
    return events[first:]


def _action(state: HostedState, entry: dict[str, Any]) -> HostedAction:
    if isinstance(state, T1001State):
        return T1001Action.from_dict(entry)
    return Action.from_dict(entry)


def _plain(events: list[Event]) -> Any:
    """``events`` as their full JSON reads back (tuples as lists)."""
    return json.loads(json.dumps([e.to_dict() for e in events]))

