"""The Sixty-Six family as a registered :class:`~engine.registry.Game`: ``sixty-six`` (24 or 32
cards), ``schnapsen``, ``three-hand`` and ``four-hand``, delegating to :mod:`engine.play`,
:mod:`engine.views`, :mod:`engine.serialize`, :mod:`engine.record` and :mod:`engine.replay`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine import record, serialize
from engine.actions import MEMBERS, Action
from engine.cards import card_code, codes, points_of
from engine.deal import new_game
from engine.events import Event
from engine.play import apply, illegal_reason, legal_actions, may_abort
from engine.plugin import Capabilities, Census, Outcome, check_members
from engine.replay import replay
from engine.rules import OPTIONS, SETTINGS_DESCRIPTIONS, VARIANTS, Option, Rules, Settings
from engine.rules import describe as describe_rules
from engine.state import PLAYING, GameState
from engine.views import view


class SixtySixFamily:
    """Sixty-Six and its family, one engine on :class:`~engine.state.GameState`."""

    name: Final = "sixty-six"
    capabilities: Final = Capabilities(
        rated=True, unrated=None, settings=tuple(SETTINGS_DESCRIPTIONS), clock=True,
        text_record=True, light_66=True, matches=True, hand_word=("hand", "hands"))

    def variants(self) -> Sequence[str]:
        return tuple(VARIANTS)

    def players(self, variant: str) -> int:
        return VARIANTS[variant].players

    def options(self, variant: str) -> Sequence[Option]:
        return [o for o in OPTIONS.values() if not o.variants or variant in o.variants]

    def describe(self, variant: str) -> dict[str, object]:
        listed = describe_rules()["variants"]
        assert isinstance(listed, list)
        return next(v for v in listed if v["name"] == variant)

    def random_play_options(self, variant: str) -> Mapping[str, object]:
        return {}

    def make_rules(self, variant: str, options: Mapping[str, object] | None = None) -> Rules:
        return Rules.make(variant, options)

    def new_game(self, rules: Any, settings: Mapping[str, bool] | None = None, *,
                 first_dealer: object = None, decks: Sequence[Sequence[str]] | None = None,
                 rng: random.Random | None = None) -> tuple[GameState, list[Event]]:
        return new_game(rules, Settings.make(settings), first_dealer=first_dealer,
                        decks=decks, rng=rng)

    def owns(self, state: object) -> bool:
        return isinstance(state, GameState)

    def variant_of(self, state: GameState) -> str:
        return state.rules.variant.name

    def settings_of(self, state: GameState) -> Mapping[str, bool]:
        return state.settings.as_dict()

    def hand_mark(self, state: GameState) -> tuple[int, int]:
        return state.hand_no, state.match_no

    def parse_action(self, body: Mapping[str, Any]) -> Action:
        action = Action.from_dict(dict(body))
        check_members(action.kind, body, MEMBERS)
        return action

    def action_json(self, action: Action) -> dict[str, Any]:
        return dict(action.as_dict())

    def simple_action(self, kind: str) -> Action:
        return Action.simple(kind)

    def legal_actions(self, state: GameState, seat: int) -> Sequence[Action]:
        return legal_actions(state, seat)

    def apply(self, state: GameState, seat: int, action: Action) -> list[Event]:
        return apply(state, seat, action)

    def illegal_reason(self, state: GameState, seat: int, action: Action) -> str:
        return illegal_reason(state, seat, action)

    def may_abort(self, state: GameState, seat: int, seats: Sequence[int]) -> bool:
        return may_abort(state, seat, seats)

    def over(self, state: GameState) -> bool:
        return state.over

    def status(self, state: GameState) -> str:
        return state.status

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def hidden(self, state: GameState, seat: int | None) -> frozenset[str]:
        unseen = 0
        for s, hand in enumerate(state.hands):
            if s != seat and state.status == PLAYING:  # a settlement shows the hands left
                unseen |= hand
        for c in state.talon:
            unseen |= 1 << c
        return frozenset(codes(unseen & ~state.public))

    def census(self, state: GameState) -> Census:
        places: dict[str, list[str]] = {f"hand {s}": codes(h) for s, h in enumerate(state.hands)}
        places["talon"] = [card_code(c) for c in state.talon]
        places["trick"] = [card_code(c) for c in state.trick]
        places |= {f"taken {s}": codes(t) for s, t in enumerate(state.taken)}
        return Census(deck=tuple(card_code(c) for c in state.rules.variant.deck),
                      locations=places, counted=tuple(state.won_points),
                      taken=tuple(points_of(t) for t in state.taken))

    def outcome(self, state: GameState) -> Outcome | None:
        result = record.result_of(state)
        if result is None:
            return None
        seats = range(state.players)
        return Outcome(reason=result["reason"], winners=tuple(result["winners"]),
                       points=tuple(state.score[state.side_of(s)] for s in seats),
                       matches_won=tuple(state.matches_won[state.side_of(s)] for s in seats))

    def to_stored(self, state: GameState) -> Any:
        return serialize.to_stored(state)

    def owns_stored(self, data: Any) -> bool:
        return isinstance(data, list) or (isinstance(data, dict)
                                          and data.get("var") in VARIANTS)

    def from_stored(self, data: Any) -> GameState:
        return serialize.from_stored(data)

    def build_record(self, state: GameState, events: Sequence[Event], *, reveal: bool,
                     seat: int | None = None) -> dict[str, Any]:
        return record.build(state, events, reveal=reveal, seat=seat)

    def replay(self, record: Mapping[str, Any]) -> GameState:
        return replay(record).state


#: The registered Sixty-Six family.
SIXTY_SIX_FAMILY: Final = SixtySixFamily()
