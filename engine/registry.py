"""The games a host serves, each a :class:`~engine.plugin.Game` registered by its name
(python-chess's list of variants, OpenSpiel's ``register_game``).

:func:`register` adds a game (one defined elsewhere, a test's, too); :func:`get` finds one by
its name, :func:`for_variant` by one of its variants, :func:`for_state` by a state it made and
:func:`for_stored` by a stored form. The Sixty-Six family (:mod:`engine.family`) and
Tausendeins (:mod:`engine.tausendeins.registration`) are registered from the start.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.errors import InvalidOption, InvalidState
from engine.family import SIXTY_SIX_FAMILY
from engine.plugin import Game
from engine.tausendeins.registration import TAUSENDEINS

_GAMES: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> None:
    """Add ``game``; a name or variant already registered to another game raises
    :class:`ValueError` (registering the same game again is a no-op)."""
    _add(game)


def unregister(name: str) -> None:
    """Remove the game ``name`` (a test's, when it is done)."""
    _GAMES.pop(name, None)


def _add(game: Game[Any, Any]) -> None:
    if _GAMES.get(game.name) is game:
        return
    taken = {v: g.name for g in _GAMES.values() for v in g.variants()}
    clash = [v for v in (game.name, *game.variants()) if v in taken or v in _GAMES]
    if clash:
        raise ValueError(f"game {game.name!r}: {', '.join(clash)} already registered")
    _GAMES[game.name] = game


_add(SIXTY_SIX_FAMILY)
_add(TAUSENDEINS)


def games() -> Iterator[Game[Any, Any]]:
    """Every registered game, in the order of registration."""
    return iter(list(_GAMES.values()))


def get(name: str) -> Game[Any, Any]:
    """The game ``name``; an unknown one raises :class:`~engine.errors.InvalidOption`."""
    game = _GAMES.get(name)
    if game is None:
        raise InvalidOption("game", f"unknown game {name!r}; allowed: {', '.join(_GAMES)}",
                            list(_GAMES))
    return game


def variants() -> list[str]:
    """Every variant of every game."""
    return [v for g in games() for v in g.variants()]


def for_variant(variant: str) -> Game[Any, Any]:
    """The game of ``variant``; an unknown one raises :class:`~engine.errors.InvalidOption`
    naming every variant."""
    for game in games():
        if variant in game.variants():
            return game
    names = variants()
    raise InvalidOption("variant", f"unknown variant {variant!r}; allowed: {', '.join(names)}",
                        names)


def for_state(state: object) -> Game[Any, Any]:
    """The game whose state ``state`` is (:class:`TypeError` for none)."""
    for game in games():
        if game.owns(state):
            return game
    raise TypeError(f"{type(state).__name__} is the state of no registered game")


def for_stored(data: Any) -> Game[Any, Any]:
    """The game of a parsed stored form; raises :class:`~engine.errors.InvalidState`."""
    for game in games():
        if game.owns_stored(data):
            return game
    raise InvalidState("the stored form of no registered game")
