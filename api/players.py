"""Computer seats: a registry of levels, each deciding from the seat's view only.

A level is a function from ``engine.view(state, seat)`` (the dict a human client gets) to an
:class:`~engine.Action` among ``view["legal_actions"]``; it never sees the full state. Add a
level with :func:`register_level`; ``GET /v1/rules`` lists them.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from engine import Action

Chooser = Callable[[dict[str, Any]], Action]

_RANDOM: Final = secrets.SystemRandom()


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    description: str
    choose: Chooser


COMPUTER_LEVELS: dict[str, Level] = {}


def register_level(name: str, description: str, choose: Chooser) -> None:
    """Make ``name`` a computer level; a later registration of a name replaces it."""
    COMPUTER_LEVELS[name] = Level(name, description, choose)


def choose_random(view: dict[str, Any]) -> Action:
    """A uniformly random legal action."""
    legal = view["legal_actions"]
    if not legal:
        raise ValueError(f"seat {view['seat']} has no legal action")
    return Action.from_dict(_RANDOM.choice(legal))


register_level("random", "Plays a uniformly random legal action.", choose_random)
