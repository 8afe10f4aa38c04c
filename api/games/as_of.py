"""A game as it was right after one of its saves, rebuilt from its event log: what the replay
of an idempotent action shows (:mod:`api.http.idempotency`) without keeping the answer.

A save leaves a :class:`Mark` (a few numbers). :func:`game_as_of` gives the game at the mark:
the loaded game itself while it is still at that version; after later saves, the state
rebuilt by dealing the logged decks and applying the logged actions up to the mark's last
event, checked event by event against the log (any difference, or an event that is no
engine action, and nothing is rebuilt). The meta is today's with the hinted hands and the clock
of then (the mark keeps them); the seats' ``connected`` are the save's. Where nothing is
rebuilt the answer is ``None``: the caller shows the game as it is now, which still holds the
action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from api.games.meta import GameMeta
from api.games.store import Game, GameStore
from api.live.chat import CHAT
from engine import EngineError, Event
from engine.hosted import HostedAction, HostedState, apply, build_record, game_of, new_game

#: The event that deals a hand (its deck in its private part).
DEALT: Final = "hand_dealt"


#: The fields of a clock (``meta["clock"]``, :mod:`api.live.clock`) that its saves change; a
#: mark keeps them, in this order (the rest are the table's settings).
CLOCK_FIELDS: Final = ("deadline", "kind", "seat", "hand_no", "expiries", "paused")
#: Events the service logs beside the engine's: a seat's chat message, a clock's pause.
SERVICE_EVENTS: Final = frozenset({CHAT, "paused"})


@dataclass(frozen=True, slots=True)
class Mark:
    """A save as a replay finds it again: ``version`` the version it wrote, ``events`` the
    game's event count after it, ``logged`` how many of those it logged, ``connected`` the
    seats seen connected when it was loaded (bit ``i``: seat ``i``), ``hinted`` how many
    hands the meta's ``hinted_hands`` listed, ``clock`` the :data:`CLOCK_FIELDS` of its
    clock (``None``: no clock). Kept as a list of these, in this order (:meth:`to_list`):
    some 20 to 90 bytes of JSON."""

    version: int
    events: int
    logged: int
    connected: int
    hinted: int
    clock: list[Any] | None

    @classmethod
    def of(cls, saved: Game) -> Mark:
        connected = sum(1 << i for i, seen in enumerate(saved.connected or ()) if seen)
        timing = saved.meta.get("clock")
        return cls(saved.version, saved.event_count, len(saved.recent), connected,
                   len(saved.meta.get("hinted_hands", [])),
                   None if timing is None else [timing[k] for k in CLOCK_FIELDS])

    def to_list(self) -> list[Any]:
        return [self.version, self.events, self.logged, self.connected, self.hinted,
                self.clock]

    @classmethod
    def from_list(cls, data: list[Any]) -> Mark:
        version, events, logged, connected, hinted, timing = data
        return cls(version, events, logged, connected, hinted, timing)


def game_as_of(store: GameStore, game: Game, mark: Mark) -> Game | None:
    """``game`` (loaded after the save of ``mark``) as it was right after that save, or
    ``None`` if it cannot be rebuilt (see the module docstring)."""
    if game.version < mark.version:  # the save came after the load: see it
        game = store.load(game.game_id)
    meta = _meta_then(game.meta, mark)
    connected = [bool(mark.connected >> i & 1) for i in range(len(game.meta["seats"]))]
    if game.version == mark.version:
        return Game(game.game_id, mark.version, game.state, meta, mark.events, game.recent,
                    connected)
    logged = store.all_events(game)[:mark.events]
    if len(logged) != mark.events:
        return None
    state = state_after(game.state, [e.event for e in logged
                                     if e.event.type not in SERVICE_EVENTS])
    if state is None:
        return None
    return Game(game.game_id, mark.version, state, meta, mark.events,
                logged[mark.events - mark.logged:], connected)


def _meta_then(meta: GameMeta, mark: Mark) -> GameMeta:
    """``meta`` with the hinted hands and the clock of ``mark``'s save."""
    then: GameMeta = {**meta}
    if "hinted_hands" in meta:
        then["hinted_hands"] = meta["hinted_hands"][:mark.hinted]
    timing = meta.get("clock")
    if timing is not None and mark.clock is not None:
        then["clock"] = {**timing, **dict(zip(CLOCK_FIELDS, mark.clock, strict=True))}
    return then


def state_after(current: HostedState, events: list[Event]) -> HostedState | None:
    """The state of ``current``'s game after its logged engine ``events`` (a prefix of its
    log, full form), or ``None`` unless replaying them gives exactly these events (from the
    first deal on: :func:`_dealt`)."""
    try:
        record = build_record(current, events, reveal=True)
        hands = record["hands"]
        if not hands:
            return None
        game = game_of(current)
        state, produced = new_game(record["variant"], current.rules, game.settings_of(current),
                                   first_dealer=hands[0]["dealer"],
                                   decks=[hand["deck"] for hand in hands])
        for hand in hands:
            for entry in hand["actions"]:
                made = apply(state, entry["seat"], _action(state, entry))
                if entry.get("timeout"):  # as the clock marks its action
                    made[0].data["timeout"] = True
                produced += made
    except (EngineError, KeyError, TypeError):
        return None
    return state if _plain(_dealt(produced)) == _plain(_dealt(events)) else None


def _dealt(events: list[Event]) -> list[Event]:
    """``events`` from the first deal on: the cut for the first dealer before it was drawn
    at random, and its replay deals with the dealer it chose."""
    first = next((i for i, e in enumerate(events) if e.type == DEALT), len(events))
    return events[first:]


def _action(state: HostedState, entry: dict[str, Any]) -> HostedAction:
    """The action of a record's ``entry`` (its ``seat`` and ``timeout`` mark aside)."""
    return game_of(state).parse_action(
        {k: v for k, v in entry.items() if k not in ("seat", "timeout")})


def _plain(events: list[Event]) -> Any:
    """``events`` as their full JSON reads back (tuples as lists)."""
    return json.loads(json.dumps([e.to_dict() for e in events]))

