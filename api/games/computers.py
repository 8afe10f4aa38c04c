"""Computer seats: a registry of levels, each deciding from the seat's view only.

A level is a function from a seat's view (``engine.hosted.view(state, seat)``, the dict a
human client gets) and what its search may spend (:class:`api.games.think.Think`) to an action
among ``view["legal_actions"]``; it never sees the full state. Add a level with
:func:`register_level`; ``GET /v1/rules`` lists them. The computer opponents of
:mod:`engine.ai` (``random``, ``easy``, ``normal``, ``strong``, ``expert``) are registered
here, each deciding a Tausendeins view by :mod:`engine.tausendeins.ai` instead
(:data:`TAUSENDEINS_PLAYS_AS`). Each decision seeds its own generator from the OS, so no
client can predict a computer's choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from api.games.think import Think, scaled, scaled_1001
from engine.ai import LEVELS, choose
from engine.ai.player import LEVEL_TABLE
from engine.hosted import TAUSENDEINS, HostedAction
from engine.tausendeins.ai.player import LEVEL_TABLE as T1001_TABLE
from engine.tausendeins.ai.player import choose as choose_1001

Chooser = Callable[[dict[str, Any], Think], HostedAction]

#: The Tausendeins level each public level plays as (its own where it has one).
TAUSENDEINS_PLAYS_AS: Final = {name: name if name in T1001_TABLE else "strong"
                               for name in LEVELS}


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    description: str
    choose: Chooser


COMPUTER_LEVELS: dict[str, Level] = {}


def register_level(name: str, description: str, choose: Chooser) -> None:
    """Make ``name`` a computer level; a later registration of a name replaces it."""
    COMPUTER_LEVELS[name] = Level(name, description, choose)


def computer_level(name: str) -> Level:
    """The level of a stored seat of level ``name``; ``KeyError`` for an unknown one."""
    return COMPUTER_LEVELS[name]


def choose_move(level: str, view: dict[str, Any], think: Think) -> HostedAction:
    """``level``'s action in the position of ``view``, by the search of the view's game, with
    its work as ``think`` sets it (:func:`api.games.think.scaled`)."""
    if view["variant"] == TAUSENDEINS:
        lv = T1001_TABLE[TAUSENDEINS_PLAYS_AS[level]]
        return choose_1001(view, scaled_1001(lv, think), random.Random())
    return choose(view, level=scaled(LEVEL_TABLE[level], think))


for _name, _description in LEVELS.items():
    register_level(_name, _description, partial(choose_move, _name))
