"""Tausendeins (1001), the two-hand race to 1001 points in which every marriage sets trump
(RULES-1001; docs/rules.md, "Tausendeins"). The same shape as :mod:`engine`::

    from engine.tausendeins import T1001Rules, new_game, legal_actions, apply, view

    state, events = new_game(T1001Rules.make({"bidding": "none"}))
    seat = state.to_act()
    events = apply(state, seat, legal_actions(state, seat)[0])
    print(view(state, seat)["hand"])

Pure Python (not among the compiled modules of :mod:`engine.native`).
"""

from engine.tausendeins.actions import T1001Action
from engine.tausendeins.deal import new_game
from engine.tausendeins.game import apply, illegal_reason, is_legal, legal_actions
from engine.tausendeins.options import NAME, OPTIONS, T1001Rules, describe_variant
from engine.tausendeins.record import build, replay, result_of
from engine.tausendeins.serialize import SCHEMA_VERSION, from_dict, from_json, to_dict, to_json
from engine.tausendeins.state import T1001State
from engine.tausendeins.view import view

__all__ = [
    "NAME",
    "OPTIONS",
    "SCHEMA_VERSION",
    "T1001Action",
    "T1001Rules",
    "T1001State",
    "apply",
    "build",
    "describe_variant",
    "from_dict",
    "from_json",
    "illegal_reason",
    "is_legal",
    "legal_actions",
    "new_game",
    "replay",
    "result_of",
    "to_dict",
    "to_json",
    "view",
]
