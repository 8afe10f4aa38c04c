"""Tausendeins as a registered :class:`~engine.registry.Game`, delegating to the modules of
:mod:`engine.tausendeins`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.cards import CARD_CODES, POINTS, codes, points_of
from engine.errors import InvalidOption
from engine.events import Event
from engine.games import describe
from engine.plugin import Capabilities, Census, Outcome, check_members
from engine.rules import Option
from engine.tausendeins.actions import MEMBERS, T1001Action
from engine.tausendeins.deal import new_game
from engine.tausendeins.game import apply, illegal_reason, legal_actions
from engine.tausendeins.options import NAME, OPTIONS, PLAYERS, T1001Rules
from engine.tausendeins.record import build, replay, result_of
from engine.tausendeins.serialize import from_dict, to_dict
from engine.tausendeins.state import T1001State
from engine.tausendeins.view import view

_SEATS: Final = (0, 1)


class Tausendeins:
    """Tausendeins (1001), one variant of its own name on
    :class:`~engine.tausendeins.state.T1001State`."""

    name: Final = NAME
    capabilities: Final = Capabilities(
        rated=False, unrated=("unrated: Tausendeins games do not count for the leaderboard or "
                             "the ratings, which score games of Sixty-Six; each is kept in the "
                             "players' histories"),
        settings=(), clock=False, text_record=False, light_66=False, matches=False,
        hand_word=("deal", "deals"))

    def variants(self) -> Sequence[str]:
        return (NAME,)

    def players(self, variant: str) -> int:
        return PLAYERS

    def options(self, variant: str) -> Sequence[Option]:
        return list(OPTIONS.values())

    def describe(self, variant: str) -> dict[str, object]:
        listed = describe()["variants"]
        assert isinstance(listed, list)
        return next(v for v in listed if v["name"] == variant)

    def random_play_options(self, variant: str) -> Mapping[str, object]:
        """The lowest target: random bids mostly fail, and the totals of a race to 1001 at
        random drift below zero for thousands of deals."""
        low, _ = OPTIONS["target_points"].allowed
        return {"target_points": low}

    def make_rules(self, variant: str, options: Mapping[str, object] | None = None
                   ) -> T1001Rules:
        return T1001Rules.make(options)

    def new_game(self, rules: Any, settings: Mapping[str, bool] | None = None, *,
                 first_dealer: object = None, decks: Sequence[Sequence[str]] | None = None,
                 rng: random.Random | None = None) -> tuple[T1001State, list[Event]]:
        for name, on in (settings or {}).items():
            if on:
                raise InvalidOption(name, f"{NAME} games have no {name}", [])
        return new_game(rules, first_dealer=first_dealer, decks=decks, rng=rng)

    def owns(self, state: object) -> bool:
        return isinstance(state, T1001State)

    def variant_of(self, state: T1001State) -> str:
        return NAME

    def settings_of(self, state: T1001State) -> Mapping[str, bool]:
        return {}

    def hand_mark(self, state: T1001State) -> tuple[int, int]:
        return state.hand_no, 1

    def parse_action(self, body: Mapping[str, Any]) -> T1001Action:
        action = T1001Action.from_dict(dict(body))
        check_members(action.kind, body, MEMBERS)
        return action

    def action_json(self, action: T1001Action) -> dict[str, Any]:
        return dict(action.as_dict())

    def simple_action(self, kind: str) -> T1001Action:
        return T1001Action.simple(kind)

    def legal_actions(self, state: T1001State, seat: int) -> Sequence[T1001Action]:
        return legal_actions(state, seat)

    def apply(self, state: T1001State, seat: int, action: T1001Action) -> list[Event]:
        return apply(state, seat, action)

    def illegal_reason(self, state: T1001State, seat: int, action: T1001Action) -> str:
        return illegal_reason(state, seat, action)

    def may_abort(self, state: T1001State, seat: int, seats: Sequence[int]) -> bool:
        return not state.over and any(s != seat and not state.moved >> s & 1 for s in seats)

    def over(self, state: T1001State) -> bool:
        return state.over

    def status(self, state: T1001State) -> str:
        return state.status

    def view(self, state: T1001State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def hidden(self, state: T1001State, seat: int | None) -> frozenset[str]:
        unseen = 0
        for s in _SEATS:
            if s != seat:
                unseen |= state.hands[s] | (state.discards if state.declarer == s else 0)
        unseen |= sum(1 << c for c in state.stock)
        unseen |= sum(1 << c for i, m in enumerate(state.musiks, 1)
                      if i != state.musik_taken for c in m)
        return frozenset(codes(unseen & ~state.shown))

    def census(self, state: T1001State) -> Census:
        places: dict[str, list[str]] = {f"hand {s}": codes(state.hands[s]) for s in _SEATS}
        places["stock"] = [CARD_CODES[c] for c in state.stock]
        places |= {f"musik {i}": [CARD_CODES[c] for c in m]
                   for i, m in enumerate(state.musiks, 1) if i != state.musik_taken}
        places["discards"] = codes(state.discards)
        places["trick"] = [CARD_CODES[c] for c in state.trick]
        places |= {f"taken {s}": codes(state.taken[s]) for s in _SEATS}
        counted = [0, 0]
        for _, cards, winner in state.tricks:
            counted[winner] += sum(POINTS[c] for c in cards)
        return Census(deck=tuple(CARD_CODES[:24]), locations=places, counted=tuple(counted),
                      taken=tuple(points_of(state.taken[s]) for s in _SEATS))

    def outcome(self, state: T1001State) -> Outcome | None:
        result = result_of(state)
        if result is None:
            return None
        winner = result["winner"]
        return Outcome(reason=result["reason"], winners=() if winner is None else (winner,),
                       points=tuple(state.totals),
                       matches_won=tuple(int(state.winner == s) for s in _SEATS))

    def to_stored(self, state: T1001State) -> Any:
        return to_dict(state)

    def owns_stored(self, data: Any) -> bool:
        return isinstance(data, dict) and data.get("var") == NAME

    def from_stored(self, data: Any) -> T1001State:
        return from_dict(data)

    def build_record(self, state: T1001State, events: Sequence[Event], *, reveal: bool,
                     seat: int | None = None) -> dict[str, Any]:
        return build(state, events, reveal=reveal, seat=seat)

    def replay(self, record: Mapping[str, Any]) -> T1001State:
        return replay(record)


#: The registered Tausendeins.
TAUSENDEINS: Final = Tausendeins()
