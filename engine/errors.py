"""Exceptions of the rules engine.

*Invalid* means the input cannot be understood (a bad card code, an unknown
option); *illegal* means it is understood but not allowed now.
"""

from __future__ import annotations

from collections.abc import Sequence


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidCard(EngineError, ValueError):
    """A card or suit code that does not parse."""

    def __init__(self, code: object, what: str = "card") -> None:
        self.code = code
        self.what = what
        example = "a rank A T K Q J 9 then a suit C S H D, upper case, e.g. QH" if (
            what == "card") else "one of C S H D, upper case"
        super().__init__(f"{code!r} is not a {what} code: expected {example}")


class InvalidOption(EngineError, ValueError):
    """An unknown rule option, variant or setting, or a value it does not allow."""

    def __init__(self, option: str, message: str, allowed: Sequence[object] | None = None) -> None:
        self.option = option
        self.allowed = list(allowed) if allowed is not None else None
        super().__init__(message)


class InvalidDeck(EngineError, ValueError):
    """An explicit deck that is not a permutation of the variant's deck."""


class InvalidAction(EngineError, ValueError):
    """Action text that does not parse, e.g. ``"play:XX"`` or ``"dance"``; ``member``: the
    member of the JSON form at fault (``card``, ``cards``, ``type``...), when known."""

    def __init__(self, message: str, member: str | None = None) -> None:
        self.member = member
        super().__init__(message)


class InvalidState(EngineError, ValueError):
    """Serialized state that cannot be loaded (corrupt or of an unknown schema)."""


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow now.

    ``reason`` is written for a player ("you must follow suit and win the trick:
    TH or AH"); ``legal`` lists the actions that are allowed instead.
    """

    def __init__(self, reason: str, legal: Sequence[object] = ()) -> None:
        self.reason = reason
        self.legal = list(legal)
        super().__init__(reason)
