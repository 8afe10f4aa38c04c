"""Whole numbers written in text (a record, a header, a query value, the environment, a typed
choice): ASCII digits only, of bounded length.

``str.isdigit`` is true of ``²``, ``¹`` and ``٣``, and ``int`` takes ``٣``, ``" 1_0 "`` and
``+1`` but raises past 4,300 digits: together they turned such input into a crash or into a
number nobody wrote. :func:`parse_natural` reads ``[0-9]{1,max_digits}`` and nothing else.
"""

from __future__ import annotations

from typing import Final

#: Most digits read by default: every such number fits in 64 bits.
MAX_DIGITS: Final = 18


def parse_natural(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """``text`` as a whole number if it is 1 to ``max_digits`` ASCII digits, else ``None``
    (no sign, no spaces, no underscores: strip the text first where spaces are allowed)."""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None
