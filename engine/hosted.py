"""One set of entry points for every game a host serves, each call dispatched through
:mod:`engine.registry` to the :class:`~engine.plugin.Game` of the state (or, before there is a
state, of the variant's name); nothing here tests a game's class or name.

A host never mixes games: an action parsed for one game's state is that game's; its stored
forms are told apart by :func:`engine.registry.for_stored`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeAlias

from engine import registry
from engine.errors import InvalidAction
from engine.events import Event
from engine.plugin import Capabilities, Game, JsonAction

#: A hosted game's state, rules and action: opaque above the engine, each of its own game.
HostedState: TypeAlias = Any
HostedRules: TypeAlias = Any
HostedAction: TypeAlias = Any

#: The kind of the one action that acknowledges a finished hand.
CONTINUE = "continue"


def game_of(state: HostedState) -> Game[Any, Any]:
    """The registered game of ``state``."""
    return registry.for_state(state)


def game_name(variant: str) -> str:
    """The name of ``variant``'s game (an unknown variant raises
    :class:`~engine.errors.InvalidOption`)."""
    return registry.for_variant(variant).name


def capabilities_of(variant: str) -> Capabilities:
    """What ``variant``'s game offers beyond its play."""
    return registry.for_variant(variant).capabilities


def rated_variants() -> tuple[str, ...]:
    """The variants of every rated game (:attr:`~engine.plugin.Capabilities.rated`): those the
    leaderboard and the ratings count."""
    return tuple(v for g in registry.games() if g.capabilities.rated for v in g.variants())


def players_of(variant: str) -> int:
    """Seats of ``variant`` (an unknown name raises :class:`~engine.errors.InvalidOption`)."""
    return registry.for_variant(variant).players(variant)


def make_rules(variant: str, options: Mapping[str, object] | None = None) -> HostedRules:
    """Validated rules of ``variant``; raises :class:`~engine.errors.InvalidOption`."""
    return registry.for_variant(variant).make_rules(variant, options)


def new_game(variant: str, rules: HostedRules, settings: Mapping[str, bool] | None = None, *,
             first_dealer: object = None, decks: Sequence[Sequence[str]] | None = None,
             rng: random.Random | None = None) -> tuple[HostedState, list[Event]]:
    """A new game of ``variant`` under ``rules``, its first hand dealt (``settings``: the
    game's table settings, :attr:`~engine.plugin.Capabilities.settings`)."""
    return registry.for_variant(variant).new_game(rules, settings, first_dealer=first_dealer,
                                                  decks=decks, rng=rng)


def variant_of(state: HostedState) -> str:
    return game_of(state).variant_of(state)


def is_over(state: HostedState) -> bool:
    """Whether the game is over (its match over, or aborted)."""
    return game_of(state).over(state)


def status_of(state: HostedState) -> str:
    """``playing``, ``hand_over``, ``match_over`` or ``aborted``."""
    return game_of(state).status(state)


def hand_no_of(state: HostedState) -> int:
    """The number of the current hand (deal)."""
    return game_of(state).hand_mark(state)[0]


def end_reason(state: HostedState) -> str | None:
    """How a finished game ended (``points``, ``resigned``, ``timeout``, ``aborted``);
    ``None`` while it runs."""
    outcome = game_of(state).outcome(state)
    return None if outcome is None else outcome.reason


def seat_won(state: HostedState, seat: int) -> bool | None:
    """Whether ``seat``'s side won the finished game (``None``: no winner, or still
    running)."""
    outcome = game_of(state).outcome(state)
    if outcome is None or not outcome.winners:
        return None
    return seat in outcome.winners


def final_points(state: HostedState) -> tuple[list[int], list[int]]:
    """Per seat of a finished game: its side's final points and matches won."""
    outcome = game_of(state).outcome(state)
    if outcome is None:
        raise ValueError("the game still runs")
    return list(outcome.points), list(outcome.matches_won)


def parse_action(state: HostedState, body: Mapping[str, Any]) -> HostedAction:
    """The action of ``state``'s game in a JSON body; raises
    :class:`~engine.errors.InvalidAction` with the member at fault."""
    return game_of(state).parse_action(body)


def actions_json(actions: Iterable[object]) -> list[dict[str, Any]]:
    """The JSON forms of actions of any game (an :class:`~engine.errors.IllegalAction`'s
    ``legal``; an object that is no game's action is left out)."""
    return [dict(a.as_dict()) for a in actions if isinstance(a, JsonAction)]


def action_of(state: HostedState, kind: str) -> HostedAction:
    """The action without arguments named ``kind`` (``continue``, ``resign``, ``abort``) in
    ``state``'s game."""
    return game_of(state).simple_action(kind)


def _own(game: Game[Any, Any], action: HostedAction) -> HostedAction:
    """``action`` if it is one of ``game``'s (its JSON form parses back to it); else an
    :class:`~engine.errors.InvalidAction`: a host never mixes games."""
    if not isinstance(action, JsonAction) or game.parse_action(action.as_dict()) != action:
        raise InvalidAction(f"{action} is not an action of {game.name}")
    return action


def apply(state: HostedState, seat: int, action: HostedAction) -> list[Event]:
    """Apply ``seat``'s action; raises :class:`~engine.errors.IllegalAction` (state
    untouched) or :class:`~engine.errors.InvalidAction` (an action of another game)."""
    game = game_of(state)
    return game.apply(state, seat, _own(game, action))


def legal_actions(state: HostedState, seat: int) -> Sequence[HostedAction]:
    return game_of(state).legal_actions(state, seat)


def only_continue(state: HostedState, seat: int) -> bool:
    """Whether ``seat``'s one legal action is to acknowledge a finished hand."""
    actions = legal_actions(state, seat)
    return len(actions) == 1 and kind_of(actions[0]) == CONTINUE


def kind_of(action: HostedAction) -> str:
    """The kind of any game's action: the ``type`` of its JSON form."""
    return str(action.as_dict()["type"])


def illegal_reason(state: HostedState, seat: int, action: HostedAction) -> str:
    game = game_of(state)
    return game.illegal_reason(state, seat, _own(game, action))


def may_abort(state: HostedState, seat: int, seats: Iterable[int]) -> bool:
    """Whether ``seat`` may abort: the game runs and one of ``seats`` other than ``seat``
    has not yet made its first move."""
    return game_of(state).may_abort(state, seat, list(seats))


def view(state: HostedState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) may know of the game, with its ``game``."""
    game = game_of(state)
    return {"game": game.name, **game.view(state, seat)}


def to_stored(state: HostedState) -> Any:
    """The stored form as a JSON value."""
    return game_of(state).to_stored(state)


def from_stored(data: Any) -> HostedState:
    """Load a parsed stored form of any game; raises :class:`~engine.errors.InvalidState`."""
    return registry.for_stored(data).from_stored(data)


def build_record(state: HostedState, events: Iterable[Event], *, reveal: bool,
                 seat: int | None = None) -> dict[str, Any]:
    """The game's record from its complete event log (decks only with ``reveal``), with its
    ``game``."""
    game = game_of(state)
    return {"game": game.name,
            **game.build_record(state, list(events), reveal=reveal, seat=seat)}


def replay(record: Mapping[str, Any]) -> HostedState:
    """The final state of a replayed record of its variant's game; raises
    :class:`~engine.replay.ReplayMismatch` at the first difference."""
    return registry.for_variant(str(record.get("variant"))).replay(record)
