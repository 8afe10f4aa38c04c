"""Events: what happened, with per-seat visibility.

An event has public ``data`` that every seat and spectators see, and optionally ``private``
data seen only by ``owner`` (the drawer of a card, the receiver of a deal). Private data
without an owner is seen by no seat and no spectator: ``hand_dealt`` keeps the deal order of
the hand (``deck``) that way, for the game's record after the game (:mod:`engine.record`).
Event types:
``dealer_chosen``, ``hand_dealt``, ``cards_dealt``, ``card_played``, ``trick_won`` (with
``reason``: ``higher_card``, ``trump`` or ``off_suit``), ``card_drawn``, ``meld``,
``meld_credited``, ``exchange``, ``close``, ``talon_exhausted``, ``declare``, ``reached_66``
(``automatic_66``: a side reached 66 and the hand ends), ``trump_ten_point`` (a side won
the trump Ten: 1 game point), ``hand_settled``, ``match_won``,
``set_won``, ``continue``, ``resigned``, ``aborted``.

The engine's hot path makes :class:`LazyEvent` subclasses, one per event type: an instance
holds only ``args``, and ``data`` and ``private`` are ``build(*args)``, made on first access
(then kept, so a caller may change them as with any event). A random-play benchmark or a
search that never reads its events does not pay for building them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

#: Builds an event's ``(data, private)`` from its arguments.
Builder = Callable[..., tuple[dict[str, Any], dict[str, Any] | None]]


class Event:
    __slots__ = ("_data", "_private", "args", "owner", "type")

    type: str
    owner: int | None
    _data: dict[str, Any]
    _private: dict[str, Any] | None

    def __init__(
        self,
        type: str,
        data: dict[str, Any],
        owner: int | None = None,
        private: dict[str, Any] | None = None,
    ) -> None:
        self.type = type
        self._data = data
        self.owner = owner
        self._private = private

    def _materialise(self) -> None:
        raise AssertionError(f"{self.type} event without data")

    @property
    def data(self) -> dict[str, Any]:
        """The public part (seen by every seat and spectators)."""
        try:
            return self._data
        except AttributeError:
            self._materialise()
            return self._data

    @property
    def private(self) -> dict[str, Any] | None:
        """The part seen only by ``owner`` (``None``: no private part)."""
        try:
            return self._private
        except AttributeError:
            self._materialise()
            return self._private

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` sees it (``None``: a spectator)."""
        out: dict[str, Any] = {"type": self.type, **self.data}
        private = self._private
        if private is not None and seat is not None and seat == self.owner:
            out.update(private)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Full form for storage (private part included)."""
        out: dict[str, Any] = {"type": self.type, "data": self.data}
        if self._private is not None:
            out["owner"] = self.owner
            out["private"] = self._private
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        return cls(d["type"], dict(d["data"]), d.get("owner"), d.get("private"))

    def __repr__(self) -> str:
        return (
            f"Event({self.type!r}, {self.data!r}, owner={self.owner!r}, private={self.private!r})"
        )


class LazyEvent(Event):
    """An event made as ``e = Sub(); e.args = (...)`` (and ``e.owner = seat`` if ``Sub`` has
    no class ``owner``), ``Sub`` naming ``type`` and ``build``; its ``data`` and ``private``
    are ``build(*args)``, made on first access. ``args`` must not change (ints, strings,
    tuples). Construction runs no Python code: the hot path's events cost an allocation."""

    __slots__ = ()
    __init__ = object.__init__
    build: ClassVar[Builder]
    args: tuple[Any, ...]

    def _materialise(self) -> None:
        self._data, self._private = self.build(*self.args)
