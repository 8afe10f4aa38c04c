"""Computer seats: a registry of levels, each deciding from the seat's view only.

A level is a function from a seat's view (``engine.hosted.view(state, seat)``, the dict a
human client gets) and what its search may spend (:class:`api.games.think.Think`) to an action
among ``view["legal_actions"]``; it never sees the full state. Add a level with
:func:`register_level`; ``GET /v1/rules`` lists them. The computer opponents of
:mod:`engine.ai` (``random``, ``easy``, ``normal``, ``strong``) are registered here, each
deciding a Tausendeins view by :mod:`engine.tausendeins.ai` instead
(:data:`TAUSENDEINS_PLAYS_AS`). A level no longer offered (:data:`engine.ai.RETIRED`:
``expert``, not shown stronger than ``strong``) is not registered, so no new seat gets it; a
stored game's seat of one plays as the level named there (:func:`computer_level`). Each
decision seeds its own generator from the OS, so no client can predict a computer's choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from api.games.think import Think, scaled, scaled_1001
from engine.ai import LEVELS, RETIRED, choose
from engine.ai.player import LEVEL_TABLE
from engine.family import SIXTY_SIX_FAMILY
from engine.hosted import HostedAction, game_name
from engine.tausendeins.ai.player import LEVEL_TABLE as T1001_TABLE
from engine.tausendeins.ai.player import choose as choose_1001
from engine.tausendeins.registration import TAUSENDEINS

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
    """The level a stored seat of level ``name`` plays as: ``name``'s own, or for a level no
    longer offered the one :data:`engine.ai.RETIRED` names. ``KeyError`` for any other."""
    return COMPUTER_LEVELS[RETIRED.get(name, name)]


def unknown_level(level: str) -> str:
    """Why ``level`` is refused for a new seat: unknown, or no longer offered."""
    if level in RETIRED:
        return (f"level {level!r} is no longer offered: docs/strength.md does not show it "
                f"stronger than {RETIRED[level]!r}, which plays for it in a stored game")
    return f"unknown level {level!r}"


def choose_move(level: str, view: dict[str, Any], think: Think) -> HostedAction:
    """``level``'s action in the position of ``view``, by the search of the view's game, with
    its work as ``think`` sets it (:func:`api.games.think.scaled`)."""
    return SEARCHES[game_name(view["variant"])](level, view, think)


def _choose_family(level: str, view: dict[str, Any], think: Think) -> HostedAction:
    return choose(view, level=scaled(LEVEL_TABLE[level], think), until=think.until)


def _choose_tausendeins(level: str, view: dict[str, Any], think: Think) -> HostedAction:
    lv = T1001_TABLE[TAUSENDEINS_PLAYS_AS[level]]
    return choose_1001(view, scaled_1001(lv, think), random.Random())


#: Each game's search, by the game's name: ``(level, view, think)`` to an action.
SEARCHES: Final[dict[str, Callable[[str, dict[str, Any], Think], HostedAction]]] = {
    SIXTY_SIX_FAMILY.name: _choose_family, TAUSENDEINS.name: _choose_tausendeins}


for _name, _description in LEVELS.items():
    register_level(_name, _description, partial(choose_move, _name))
