"""The games by variant name: the registry a service dispatches on.

Sixty-Six and its family (``sixty-six``, ``schnapsen``, ``three-hand``, ``four-hand``:
:data:`engine.rules.VARIANTS`) share one engine (:mod:`engine.play`); Tausendeins is a game
of its own (:mod:`engine.tausendeins`), with its own rules, state and actions.
:func:`make_rules` validates the options of any of them; :func:`describe` (``GET /v1/rules``)
lists every variant, Tausendeins with its own ``options``, each with its type, default,
allowed values (for an integer range: its two bounds, ``"range": true``), variants and
description.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine import tausendeins
from engine.errors import InvalidOption
from engine.rules import VARIANTS, Option, Rules
from engine.rules import describe as describe_sixty_six
from engine.tausendeins.options import IntRange, T1001Rules

#: Every variant name: the Sixty-Six family's, then the games of their own.
NAMES: Final = (*VARIANTS, tausendeins.NAME)


def check_variant(variant: str) -> None:
    """Raise :class:`~engine.errors.InvalidOption` naming every variant if ``variant`` is
    none of :data:`NAMES`."""
    if variant not in NAMES:
        raise InvalidOption("variant", f"unknown variant {variant!r}; allowed: "
                            f"{', '.join(NAMES)}", list(NAMES))


def make_rules(variant: str, options: Mapping[str, object] | None = None
               ) -> Rules | T1001Rules:
    """Validated rules of ``variant``; an unknown variant or option, a wrong type or value
    raises :class:`~engine.errors.InvalidOption`."""
    from engine import registry  # it registers the games, whose describe() this module serves

    check_variant(variant)
    rules: Rules | T1001Rules = registry.for_variant(variant).make_rules(variant, options)
    return rules


def option_json(o: Option) -> dict[str, object]:
    return {"name": o.name, "type": {bool: "boolean", int: "integer", str: "string"}[o.type],
            "default": o.default, "allowed": list(o.allowed),
            "range": isinstance(o, IntRange), "description": o.description,
            "source": o.source, "variants": list(o.variants)}


def describe() -> dict[str, object]:
    """:func:`engine.rules.describe` with Tausendeins added to its ``variants``."""
    out = describe_sixty_six()
    variants = out["variants"]
    assert isinstance(variants, list)
    options = [option_json(o) for o in tausendeins.OPTIONS.values()]
    out["variants"] = [*variants, {**tausendeins.describe_variant(), "options": options}]
    return out
