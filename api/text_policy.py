"""The one policy of text people give to be shown to others: seat names, player names, chat.

A text is normalised, then checked (:func:`refusal`; :func:`checked` raises it as
:class:`TextRefused`, which the HTTP layer answers with a 422 naming the field and the reason):

* normalised to NFC, and the space separators (Unicode ``Zs``: U+0020, U+00A0, U+3000, …) at
  both ends trimmed (:func:`normalised`); nothing else is removed or replaced;
* of ``low`` to ``high`` characters (code points) once normalised, each field its own bounds;
* without any character that is not shown as itself (:func:`invisible`): controls (``Cc``:
  C0 and C1, tab and newline included, so no terminal escape sequence), format characters
  (``Cf``: the bidirectional embeddings, overrides and isolates, the marks U+200E and U+200F,
  zero-width spaces and joiners, the byte order mark, the tags U+E0001…), line and paragraph
  separators (``Zl``, ``Zp``), surrogate code points (``Cs``: half a character, which JSON's
  ``\\ud800`` can carry) and the letters that render as nothing (:data:`FILLERS`, such as the
  Hangul filler U+3164). A control at either end is refused too, never trimmed away.

:func:`shown` is the guard of the terminal client for text stored before this policy: what is
refused here prints as ``\\uXXXX``.
"""

from __future__ import annotations

import unicodedata
from typing import Final

#: The refused categories and how a refusal names them.
REFUSED_CATEGORIES: Final = {"Cc": "a control character", "Cf": "a format character",
                             "Zl": "a line separator", "Zp": "a paragraph separator",
                             "Cs": "a surrogate code point"}
#: Characters of other categories that show nothing: the Hangul fillers (U+115F, U+1160,
#: U+3164, U+FFA0), the blank Braille pattern (U+2800), the Khmer inherent vowels (U+17B4,
#: U+17B5) and the combining grapheme joiner (U+034F).
FILLERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f")
#: Bidirectional embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069): format
#: characters a refusal names by their purpose (the trick of spoofed names).
BIDI_CONTROLS: Final = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
#: The Unicode version of the tables below (Python 3.11's ``unicodedata``; a test checks they
#: are what it says).
UNICODE_VERSION: Final = "14.0.0"
#: The space separators (``Zs``), trimmed at both ends.
SPACES: Final = ("\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                 "\u2009\u200a\u202f\u205f\u3000")
#: The code points of :data:`REFUSED_CATEGORIES`, as inclusive ranges.
REFUSED_RANGES: Final = (
    (0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C),
    (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xD800, 0xDFFF),
    (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F))


#: The policy in one sentence, for the OpenAPI document's descriptions.
POLICY: Final = ("counted after NFC normalisation and trimming the spaces at both ends; control "
                 "characters (tab and newline included), format characters (Cf: the "
                 "bidirectional controls, zero-width characters), line and paragraph "
                 "separators and invisible fillers such as U+3164 are refused")


def invisible(char: str) -> str | None:
    """What ``char`` is if the policy refuses it (``"a control character"``…), else ``None``."""
    if char in BIDI_CONTROLS:
        return "a bidirectional control"
    if char in FILLERS:
        return "an invisible filler"
    return REFUSED_CATEGORIES.get(unicodedata.category(char))


def normalised(text: str) -> str:
    """``text`` as it is checked and stored: NFC, without space separators at either end."""
    return unicodedata.normalize("NFC", text).strip(SPACES)


def refusal(text: str, low: int, high: int) -> str | None:
    """Why normalised ``text`` breaks the policy with bounds ``low``..``high`` characters, or
    ``None`` if it keeps it."""
    for index, char in enumerate(text):
        what = invisible(char)
        if what is not None:
            return (f"must be one line of visible text: character {index + 1} is {what} "
                    f"(U+{ord(char):04X})")
    if not text:
        return "must not be empty (or only spaces)"
    if len(text) < low:
        return f"must be at least {low} characters; got {len(text)}"
    if len(text) > high:
        return f"must be at most {high} characters; got {len(text)}"
    return None


class TextRefused(ValueError):
    """A text of request field ``field`` breaks the policy for ``reason`` (a 422 naming both)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def checked(raw: str, field: str, low: int, high: int) -> str:
    """``raw`` normalised; :class:`TextRefused` if it breaks the policy."""
    text = normalised(raw)
    reason = refusal(text, low, high)
    if reason is not None:
        raise TextRefused(field, reason)
    return text


def _escape(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _class() -> str:
    """The refused characters as the body of a regular-expression class that ECMA-262 (with
    its ``u`` flag) and Python read alike: ranges of ``\\uXXXX`` escapes in the Basic
    Multilingual Plane, the few beyond it as themselves."""
    ranges = sorted([*REFUSED_RANGES, *((ord(c), ord(c)) for c in FILLERS)])
    parts = []
    for low, high in ranges:
        if low >= 0xD800 and high <= 0xDFFF:
            # lone surrogates (Cs): no scalar value, so a Rust or ECMA-262 ``u`` regex
            # (jsonschema-rs, which schemathesis checks patterns with) refuses the range, and
            # a valid UTF-8 body cannot carry one; the server refuses them all the same
            continue
        if low > 0xFFFF:
            parts.append(chr(low) if low == high else f"{chr(low)}-{chr(high)}")
        else:
            parts.append(_escape(low) if low == high else f"{_escape(low)}-{_escape(high)}")
    return "".join(parts)


#: The refused characters as a regular-expression class body (:func:`_class`).
REFUSED_CLASS: Final = _class()
#: The OpenAPI ``pattern`` of a text: no refused character, and one that is no space. A text
#: it matches is accepted if it has its field's length once normalised (NFC lengthens only the
#: few characters it decomposes, such as U+0958); the documented form is stricter the other
#: way: spaces at the ends are trimmed before the length counts.
PATTERN: Final = f"^[^{REFUSED_CLASS}]*[^\\s{REFUSED_CLASS}][^{REFUSED_CLASS}]*$"


def shown(text: str) -> str:
    """``text`` with every refused character written as its ``\\uXXXX`` escape: a name or a
    message stored before this policy prints as what it holds, never as what it does."""
    return "".join(c if invisible(c) is None else _escape(ord(c)) for c in text)
