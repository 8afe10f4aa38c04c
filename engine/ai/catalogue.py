"""The public computer levels of each variant, with the think time each is held to.

A level's *think-time budget* is the CPU time per move (ms, of the deciding thread, on one
core) its median and its 99th percentile stay within, forced moves included: what a table
waits for. ``strong`` stays within 0.5 s and 1.5 s (it answers hints); ``expert``, kept for
the arena and no longer offered (:data:`engine.ai.player.RETIRED`), within 1 s and 3 s.
``docs/strength.md`` shows the measured figures. What a move spends is set by the level's
*work budget* (``Level.work``, in work units of :class:`engine.ai.player.Work`, about a
microsecond of the pure Python engine each), so a move is the same however loaded the
machine is; its *cap* (``Level.budget_ms``, CPU ms) stops a move that would run longer.

In a variant without a talon (four-hand) or with the 32-card pack no exact search fits (the
solvers are two-hand, of 24 cards), so a level with a fallback (``expert``, not offered now)
plays as that level there: :func:`variant_levels` says which level each one plays as, and
whether it searches sampled deals exactly in that variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.ai.player import LEVEL_TABLE, LEVELS, exact_search_fits, plays_as
from engine.rules import VARIANTS, Variant

#: Think-time budget per public level: (median, p99) CPU ms per move.
THINK_BUDGETS: Final[dict[str, tuple[int, int]]] = {
    "random": (1, 1),
    "easy": (10, 20),
    "normal": (100, 200),
    "strong": (500, 1500),
    "expert": (1000, 3000),
}


@dataclass(frozen=True, slots=True)
class VariantLevel:
    """A public level as it plays one variant."""

    name: str
    #: The level whose search decides in this variant: ``name`` itself, or its fallback.
    plays_as: str
    #: Whether sampled deals are searched exactly (endgame solver, talon search) here.
    exact_search: bool
    think_median_ms: int
    think_p99_ms: int
    #: Work budget per move (work units; 0: none, the cap is the budget).
    work_units: int
    #: CPU ms a move stops at, whatever work is left.
    cap_ms: int

    def as_dict(self) -> dict[str, str | bool | int]:
        return {"name": self.name, "plays_as": self.plays_as,
                "exact_search": self.exact_search, "think_median_ms": self.think_median_ms,
                "think_p99_ms": self.think_p99_ms, "work_units": self.work_units,
                "cap_ms": self.cap_ms}


def variant_levels(variant: Variant) -> list[VariantLevel]:
    """Every public level (in :data:`LEVELS` order) as it plays ``variant``."""
    out: list[VariantLevel] = []
    for name in LEVELS:
        acting = plays_as(LEVEL_TABLE[name], variant)
        median, p99 = THINK_BUDGETS[acting.name]
        exact = exact_search_fits(variant) and acting.solve_from > 0
        out.append(VariantLevel(name, acting.name, exact, median, p99, acting.work,
                                round(acting.budget_ms)))
    return out


def listing() -> dict[str, list[VariantLevel]]:
    """:func:`variant_levels` of every variant with its own pack (option ``deck`` 24,
    Schnapsen's 20 cards), by variant name."""
    return {name: variant_levels(v) for name, v in VARIANTS.items()}


def listing_by_deck() -> dict[str, dict[str, list[VariantLevel]]]:
    """:func:`variant_levels` of every variant with each pack of its option ``deck``, by
    variant name, then by deck (``"24"``, ``"32"``: a JSON object's keys)."""
    return {name: {str(size): variant_levels(v.with_deck(size)) for size in v.decks}
            for name, v in VARIANTS.items()}
