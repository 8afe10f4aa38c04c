"""Computer seats: a registry of levels, each deciding from the seat's view only.

A level is a function from ``engine.view(state, seat)`` (the dict a human client gets) to an
:class:`~engine.Action` among ``view["legal_actions"]``; it never sees the full state. Add a
level with :func:`register_level`; ``GET /v1/rules`` lists them. The computer opponents of
:mod:`engine.ai` (``random``, ``easy``, ``normal``, ``strong``) are registered here; each
decision seeds its own generator from the OS, so no client can predict a computer's choices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from engine import Action
from engine.ai import LEVELS, choose

Chooser = Callable[[dict[str, Any]], Action]


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    description: str
    choose: Chooser


COMPUTER_LEVELS: dict[str, Level] = {}


def register_level(name: str, description: str, choose: Chooser) -> None:
    """Make ``name`` a computer level; a later registration of a name replaces it."""
    COMPUTER_LEVELS[name] = Level(name, description, choose)


for _name, _description in LEVELS.items():
    register_level(_name, _description, partial(choose, level=_name))
