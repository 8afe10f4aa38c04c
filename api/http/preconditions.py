"""``If-Match`` and ``If-None-Match`` read to RFC 9110 (§13.1.1, §13.1.2), not as a library
happens to read them.

A field is ``*`` or a comma-separated list of entity-tags ``"…"`` or ``W/"…"`` (etagc:
``!``, ``#``–``~`` and obs-text), with optional spaces and tabs around the commas and empty
elements ignored (§5.6.1). Anything else is a 400 ``bad-request`` naming the field: a
condition the server cannot read is never skipped. ``If-Match`` compares strongly (a weak
tag never matches; ``*`` matches any game); ``If-None-Match`` weakly (``W/"1"`` matches
``"1"``). A view reads the field (no field: no parsing; one tag: about 1.4 µs) before it
loads the game, so a malformed one is refused before anything is done.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from flask import request

from api.http.errors import BAD_REQUEST, STALE_VERSION, Problem
from api.http.support import etag

IF_MATCH: Final = "If-Match"
IF_NONE_MATCH: Final = "If-None-Match"
_ENVIRON: Final = {IF_MATCH: "HTTP_IF_MATCH", IF_NONE_MATCH: "HTTP_IF_NONE_MATCH"}

#: One list element (an entity-tag, or nothing) with its whitespace, then a comma or the end.
_ELEMENT: Final = re.compile(r'[ \t]*(?:(W/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(,|\Z)')
_RULE: Final = 'must be * or a comma-separated list of entity-tags such as "1" or W/"1"'


@dataclass(frozen=True, slots=True)
class EntityTag:
    opaque: str
    weak: bool


@dataclass(frozen=True, slots=True)
class Condition:
    """A parsed ``If-Match`` or ``If-None-Match``: ``*``, or its entity-tags."""

    star: bool
    tags: tuple[EntityTag, ...]

    def strong_match(self, opaque: str) -> bool:
        """Whether a strong tag of this list is ``opaque`` (or the list is ``*``)."""
        return self.star or any(not t.weak and t.opaque == opaque for t in self.tags)

    def weak_match(self, opaque: str) -> bool:
        """Whether a tag of this list, weak or strong, is ``opaque`` (or the list is ``*``)."""
        return self.star or any(t.opaque == opaque for t in self.tags)


def parse_condition(value: str) -> Condition | None:
    """The condition ``value`` states, or ``None`` if it is not well-formed."""
    if value.strip(" \t") == "*":
        return Condition(True, ())
    tags: list[EntityTag] = []
    position = 0
    while (element := _ELEMENT.match(value, position)) is not None:
        weak, opaque, separator = element.groups()
        if opaque is not None:
            tags.append(EntityTag(opaque, weak is not None))
        if not separator:
            return Condition(False, tuple(tags))
        position = element.end()
    return None


def condition(field: str) -> Condition | None:
    """The request's ``field`` (:data:`IF_MATCH` or :data:`IF_NONE_MATCH`) parsed; ``None``
    when it is absent; a 400 problem naming it when it is malformed."""
    raw = request.environ.get(_ENVIRON[field])
    if raw is None:
        return None
    parsed = parse_condition(raw)
    if parsed is None:
        message = f"{_RULE}; got {raw[:80]!r}"
        raise Problem(BAD_REQUEST, f"{field} {message}", errors={field: [message]})
    return parsed


def check_if_match(version: int, found: Condition | None) -> None:
    """A 412 problem when ``found`` (the request's :func:`condition` of ``If-Match``, read
    before anything else is done) names no ETag of this version."""
    if found is not None and not found.strong_match(str(version)):
        raise Problem(STALE_VERSION, f"If-Match names another version; the game is at "
                      f"version {version}: reload and retry", headers={"ETag": etag(version)},
                      current_version=version)


def not_modified(version: int, found: Condition | None) -> bool:
    """Whether ``found`` (the request's :func:`condition` of ``If-None-Match``) names this
    version, weakly compared, or is ``*``."""
    return found is not None and found.weak_match(str(version))
