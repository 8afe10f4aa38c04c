"""The computers with the 32-card pack (docs/rules.md §13): every level picks a legal action
in every variant that offers ``deck`` 32, the low Ten included; no exact search is claimed where
its 24-card tables do not fit (tests/engine/ai/test_knowledge.py checks what a seat knows)."""

from __future__ import annotations

import random

import pytest

from engine import Action, view
from engine.ai import LEVELS, choose
from engine.ai.catalogue import listing, listing_by_deck, variant_levels
from engine.ai.player import exact_search_fits, outcome
from engine.ai.policy import heuristic_action
from engine.cards import mask_of, parse_card
from engine.play import apply, legal_actions
from engine.rules import VARIANTS
from tests.engine.ai.helpers import random_action_states
from tests.engine.helpers import play_out, start
from tests.engine.test_deck32_hoyle import DECK_99, HOYLE, SWEEP, TEN_POINT

CASES = [(name, {"deck": 32}) for name, v in VARIANTS.items() if 32 in v.decks]
CASES.append(("sixty-six", {"deck": 32, "ten_rank": "low"}))
CASES.append(("four-hand", {"deck": 32, "four_hand_scoring": "hoyle", "trump_ten_point": True}))


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


def test_the_levels_are_listed_per_deck() -> None:
    by_deck = listing_by_deck()
    assert list(by_deck) == list(VARIANTS)
    assert list(by_deck["schnapsen"]) == ["24"] and list(by_deck["four-hand"]) == ["24", "32"]
    for name, packs in by_deck.items():
        assert packs["24"] == listing()[name]
    expert = {deck: {lv.name: lv for lv in levels}["expert"]
              for deck, levels in by_deck["sixty-six"].items()}
    assert (expert["24"].plays_as, expert["24"].exact_search) == ("expert", True)
    assert (expert["32"].plays_as, expert["32"].exact_search) == ("strong", False)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_no_level_melds_under_hoyle(level: str) -> None:
    """Seat 1 leads holding the diamond marriage: under hoyle no level melds."""
    state = start(SWEEP, "four-hand", HOYLE)
    action = choose(view(state, 1), level, random.Random(1), budget_ms=3)
    assert action.kind == "play" and action in legal_actions(state, 1)


def test_the_rule_of_thumb_keeps_no_marriage_under_hoyle() -> None:
    """Seat 2 cannot follow diamonds nor trump, the opponents winning: with marriages it
    keeps KH QH and throws AS; under hoyle it throws the cheapest card, QH."""
    chosen = {}
    for name, options in (("project", {"deck": 32}), ("hoyle", HOYLE)):
        state = start(SWEEP, "four-hand", options)
        state.hands[2] = mask_of([parse_card(c) for c in ("KH", "QH", "AS")])
        apply(state, 1, Action.from_text("play:KD"))
        chosen[name] = heuristic_action(state, 2).text()
    assert chosen == {"project": "play:AS", "hoyle": "play:QH"}


def test_the_trump_ten_point_counts_in_a_hands_outcome() -> None:
    with_ten, without = start(DECK_99, "four-hand", TEN_POINT), start(DECK_99, "four-hand", HOYLE)
    play_out(with_ten)
    play_out(without)
    assert with_ten.settlement is not None
    side = with_ten.settlement["trump_ten_side"]
    assert outcome(with_ten, side) == outcome(without, side) + 1
    assert outcome(with_ten, 1 - side) == outcome(without, 1 - side) - 1
