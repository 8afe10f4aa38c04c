"""Events: what happened, with per-seat visibility.

An event has public ``data`` that every seat and spectators see, and optionally ``private``
data seen only by ``owner`` (the drawer of a card, the receiver of a deal). Private data
without an owner is seen by no seat and no spectator: ``hand_dealt`` keeps the deal order of
the hand (``deck``) that way, for the game's record after the game (:mod:`engine.record`).
Event types:
``dealer_chosen``, ``hand_dealt``, ``cards_dealt``, ``card_played``, ``trick_won`` (with
``reason``: ``higher_card``, ``trump`` or ``off_suit``), ``card_drawn``, ``meld``,
``meld_credited``, ``exchange``, ``close``, ``talon_exhausted``, ``declare``, ``reached_66``
(``automatic_66``: a side reached 66 and the hand ends), ``hand_settled``, ``match_won``,
``set_won``, ``continue``, ``resigned``, ``aborted``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Event:
    __slots__ = ("data", "owner", "private", "type")

    def __init__(
        self,
        type: str,
        data: dict[str, Any],
        owner: int | None = None,
        private: dict[str, Any] | None = None,
    ) -> None:
        self.type = type
        self.data = data
        self.owner = owner
        self.private = private

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` sees it (``None``: a spectator)."""
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.private is not None and seat is not None and seat == self.owner:
            out.update(self.private)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Full form for storage (private part included)."""
        out: dict[str, Any] = {"type": self.type, "data": self.data}
        if self.private is not None:
            out["owner"] = self.owner
            out["private"] = self.private
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        return cls(d["type"], dict(d["data"]), d.get("owner"), d.get("private"))

    def __repr__(self) -> str:
        return (
            f"Event({self.type!r}, {self.data!r}, owner={self.owner!r}, private={self.private!r})"
        )
