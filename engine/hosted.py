"""One set of entry points for every game a host serves, dispatching on the game's kind.

The Sixty-Six family (:mod:`engine.play` on :class:`~engine.state.GameState`) and Tausendeins
(:mod:`engine.tausendeins` on :class:`~engine.tausendeins.state.T1001State`) keep their own
rules, states and actions; a service that stores and serves games of both calls these
functions, which pick the game's own by the class of its state (or, before there is a state,
by the variant's name). A host never mixes them: an action of one game offered to a state of
the other is an :class:`~engine.errors.InvalidAction`.

Stored forms: Sixty-Six's is a JSON array (:func:`engine.serialize.to_stored`; older versions
an object without ``var`` tausendeins), Tausendeins' an object with ``"var": "tausendeins"``
(:func:`engine.tausendeins.serialize.to_dict`), so :func:`from_stored` tells them apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeAlias

from engine import record as family_record
from engine import serialize, tausendeins
from engine.actions import CONTINUE, Action
from engine.actions import MEMBERS as FAMILY_MEMBERS
from engine.deal import new_game as new_family_game
from engine.errors import InvalidAction
from engine.events import Event
from engine.games import check_variant
from engine.play import apply as family_apply
from engine.play import illegal_reason as family_illegal_reason
from engine.play import legal_actions as family_legal_actions
from engine.play import may_abort as family_may_abort
from engine.plugin import check_members
from engine.rules import VARIANTS, Rules, Settings
from engine.state import GameState
from engine.tausendeins import T1001Action, T1001Rules, T1001State
from engine.tausendeins.actions import MEMBERS as T1001_MEMBERS
from engine.views import view as family_view

#: A hosted game's state, rules and action: Sixty-Six's family or Tausendeins'.
HostedState: TypeAlias = GameState | T1001State
HostedRules: TypeAlias = Rules | T1001Rules
HostedAction: TypeAlias = Action | T1001Action

#: The variant name of Tausendeins (every other variant is of the Sixty-Six family).
TAUSENDEINS = tausendeins.NAME


def is_tausendeins(variant: str) -> bool:
    return variant == TAUSENDEINS


def players_of(variant: str) -> int:
    """Seats of ``variant`` (an unknown name raises :class:`~engine.errors.InvalidOption`)."""
    check_variant(variant)
    return 2 if is_tausendeins(variant) else VARIANTS[variant].players


def new_game(rules: HostedRules, settings: Settings | None = None, *,
             first_dealer: object = None, decks: Sequence[Sequence[str]] | None = None
             ) -> tuple[HostedState, list[Event]]:
    """A new game of ``rules``' game, its first hand dealt (``settings``: the Sixty-Six
    family's table settings; Tausendeins has none)."""
    if isinstance(rules, T1001Rules):
        return tausendeins.new_game(rules, first_dealer=first_dealer, decks=decks)
    return new_family_game(rules, settings, first_dealer=first_dealer, decks=decks)


def variant_of(state: HostedState) -> str:
    if isinstance(state, T1001State):
        return TAUSENDEINS
    return state.rules.variant.name


def seat_won(state: HostedState, seat: int) -> bool | None:
    """Whether ``seat``'s side won the finished game (``None``: no winner, or still
    running)."""
    if isinstance(state, T1001State):
        return None if state.winner is None else state.winner == seat
    return None if state.set_winner is None else state.set_winner == state.side_of(seat)


def final_points(state: HostedState) -> tuple[list[int], list[int]]:
    """Per seat: its side's game points (Tausendeins: its total) and matches won."""
    if isinstance(state, T1001State):
        return list(state.totals), [int(state.winner == s) for s in (0, 1)]
    seats = range(state.players)
    return ([state.score[state.side_of(s)] for s in seats],
            [state.matches_won[state.side_of(s)] for s in seats])


def parse_action(state: HostedState, body: Mapping[str, Any]) -> HostedAction:
    """The action of ``state``'s game in a JSON body: its ``type`` and the one member that
    type takes (``card``, ``suit``, ``points``, ``musik`` or ``cards``), nothing else; raises
    :class:`InvalidAction` with the member at fault."""
    action: HostedAction
    if isinstance(state, T1001State):
        action, members = T1001Action.from_dict(dict(body)), T1001_MEMBERS
    else:
        action, members = Action.from_dict(dict(body)), FAMILY_MEMBERS
    check_members(action.kind, body, members)
    return action


def action_of(state: HostedState, kind: str) -> HostedAction:
    """The action without arguments named ``kind`` (``continue``, ``resign``, ``abort``) in
    ``state``'s game."""
    if isinstance(state, T1001State):
        return T1001Action.simple(kind)
    return Action.simple(kind)


def _t1001(action: HostedAction) -> T1001Action:
    if not isinstance(action, T1001Action):
        raise InvalidAction(f"{action} is not an action of {TAUSENDEINS}")
    return action


def _family(action: HostedAction) -> Action:
    if not isinstance(action, Action):
        raise InvalidAction(f"{action} is an action of {TAUSENDEINS}, not of this game")
    return action


def apply(state: HostedState, seat: int, action: HostedAction) -> list[Event]:
    """Apply ``seat``'s action; raises :class:`~engine.errors.IllegalAction` (state
    untouched) or :class:`InvalidAction` (an action of the other game)."""
    if isinstance(state, T1001State):
        return tausendeins.apply(state, seat, _t1001(action))
    return family_apply(state, seat, _family(action))


def legal_actions(state: HostedState, seat: int) -> Sequence[HostedAction]:
    if isinstance(state, T1001State):
        return tausendeins.legal_actions(state, seat)
    return family_legal_actions(state, seat)


def only_continue(state: HostedState, seat: int) -> bool:
    """Whether ``seat``'s one legal action is to acknowledge a finished hand."""
    actions = legal_actions(state, seat)
    return len(actions) == 1 and actions[0].kind == CONTINUE


def illegal_reason(state: HostedState, seat: int, action: HostedAction) -> str:
    if isinstance(state, T1001State):
        return tausendeins.illegal_reason(state, seat, _t1001(action))
    return family_illegal_reason(state, seat, _family(action))


def may_abort(state: HostedState, seat: int, seats: Iterable[int]) -> bool:
    """Whether ``seat`` may abort: the game runs and one of ``seats`` other than ``seat``
    has not yet made its first move."""
    if isinstance(state, T1001State):
        return not state.over and any(s != seat and not state.moved >> s & 1 for s in seats)
    return family_may_abort(state, seat, seats)


def view(state: HostedState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) may know of the game."""
    if isinstance(state, T1001State):
        return tausendeins.view(state, seat)
    return family_view(state, seat)


def to_stored(state: HostedState) -> Any:
    """The stored form as a JSON value (see the module docstring)."""
    if isinstance(state, T1001State):
        return tausendeins.to_dict(state)
    return serialize.to_stored(state)


def from_stored(data: Any) -> HostedState:
    """Load a parsed stored form of either game; raises :class:`~engine.errors.InvalidState`."""
    if isinstance(data, dict) and data.get("var") == TAUSENDEINS:
        return tausendeins.from_dict(data)
    return serialize.from_stored(data)


def build_record(state: HostedState, events: Iterable[Event], *, reveal: bool,
                 seat: int | None = None) -> dict[str, Any]:
    """The game's record from its complete event log (decks only with ``reveal``)."""
    if isinstance(state, T1001State):
        return tausendeins.build(state, events, reveal=reveal, seat=seat)
    return family_record.build(state, events, reveal=reveal, seat=seat)
