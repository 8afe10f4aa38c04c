"""Checks shared by the pasted positions of both games (:mod:`api.games.advice` for the
Sixty-Six family, :mod:`api.games.tausendeins_position`): each problem a 422
:class:`~api.errors.FieldError` on the field at fault."""

from __future__ import annotations

from typing import Any

from api.errors import FieldError
from engine.cards import parse_card
from engine.errors import InvalidCard


def is_int(value: Any) -> bool:
    """Whether ``value`` is a JSON integer (``true`` is an ``int`` in Python, not here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def card_list(value: Any, field: str, deck: frozenset[int]) -> list[int]:
    """The cards of a list of card codes, each one of ``deck``'s."""
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise FieldError(field, "must be a list of card codes")
    out = []
    for code in value:
        try:
            c = parse_card(code)
        except InvalidCard as exc:
            raise FieldError(field, str(exc)) from None
        if c not in deck:
            raise FieldError(field, f"{code} is not in a {len(deck)}-card deck")
        out.append(c)
    return out
