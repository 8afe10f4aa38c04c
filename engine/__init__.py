"""Sixty-Six (Sechsundsechzig) rules engine: pure, deterministic given its shuffle, no I/O.

Typical use::

    from engine import Action, Rules, new_game, legal_actions, apply, view

    state, events = new_game(Rules.make("sixty-six"))
    seat = state.to_act()
    events = apply(state, seat, legal_actions(state, seat)[0])
    print(view(state, seat)["hand"])

The hot modules may run compiled (:mod:`engine.native`; ``SIXTYSIX_PURE=1`` forces the pure
Python source).
"""

# first: with SIXTYSIX_PURE=1 the compiled modules must load from source from the start
from engine import native  # noqa: F401
from engine.actions import Action
from engine.deal import new_game, parse_deck
from engine.errors import (
    EngineError,
    IllegalAction,
    InvalidAction,
    InvalidCard,
    InvalidDeck,
    InvalidOption,
    InvalidState,
)
from engine.events import Event
from engine.games import describe, make_rules
from engine.play import apply, is_legal, legal_actions, may_abort
from engine.rules import VARIANTS, Rules, Settings, find_variant
from engine.serialize import SCHEMA_VERSION, from_dict, from_json, to_dict, to_json
from engine.state import ABORTED, HAND_OVER, MATCH_OVER, PLAYING, RESIGNED, GameState
from engine.views import view

__all__ = [
    "ABORTED",
    "HAND_OVER",
    "MATCH_OVER",
    "PLAYING",
    "RESIGNED",
    "SCHEMA_VERSION",
    "VARIANTS",
    "Action",
    "EngineError",
    "Event",
    "GameState",
    "IllegalAction",
    "InvalidAction",
    "InvalidCard",
    "InvalidDeck",
    "InvalidOption",
    "InvalidState",
    "Rules",
    "Settings",
    "apply",
    "describe",
    "find_variant",
    "from_dict",
    "from_json",
    "is_legal",
    "legal_actions",
    "make_rules",
    "may_abort",
    "new_game",
    "parse_deck",
    "to_dict",
    "to_json",
    "view",
]
