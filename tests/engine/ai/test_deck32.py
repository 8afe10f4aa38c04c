"""The computers with the 32-card pack (docs/rules.md §13): every level picks a legal action
in every variant that offers ``deck`` 32, the low Ten included; no exact search is claimed where
its 24-card tables do not fit (tests/engine/ai/test_knowledge.py checks what a seat knows)."""

from __future__ import annotations

import random

import pytest

from engine import view
from engine.ai import LEVELS, choose
from engine.ai.catalogue import variant_levels
from engine.ai.player import exact_search_fits
from engine.play import legal_actions
from engine.rules import VARIANTS
from tests.engine.ai.helpers import random_action_states

CASES = [(name, {"deck": 32}) for name, v in VARIANTS.items() if 32 in v.decks]
CASES.append(("sixty-six", {"deck": 32, "ten_rank": "low"}))


@pytest.mark.parametrize(("variant", "options"), CASES)
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_legally_with_32_cards(variant: str, options: dict[str, object],
                                                 level: str) -> None:
    rng = random.Random(11)
    for i, state in enumerate(random_action_states(variant, rng, 1, options=options)):
        if i % 3:
            continue
        seat = state.to_act()
        assert seat is not None
        action = choose(view(state, seat), level, random.Random(i), budget_ms=3)
        assert action in legal_actions(state, seat)


def test_the_exact_searches_are_not_claimed_for_32_cards() -> None:
    for v in VARIANTS.values():
        assert exact_search_fits(v) == v.has_talon
        if 32 in v.decks:
            v32 = v.with_deck(32)
            assert not exact_search_fits(v32)
            levels = {lv.name: lv for lv in variant_levels(v32)}
            assert not any(lv.exact_search for lv in levels.values())
            assert levels["expert"].plays_as == "strong"
