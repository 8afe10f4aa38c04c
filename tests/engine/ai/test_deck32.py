"""The computers with the 32-card pack (docs/rules.md §13): every level picks a legal action
in every variant that offers ``deck`` 32, the low Ten included, and the exact searches hold
with its 8s and 7s as with the 24 cards (tests/engine/ai/test_knowledge.py checks what a seat
knows)."""

from __future__ import annotations

import random

import pytest

from engine import Action, GameState, Rules, view
from engine.ai import LEVELS, choose
from engine.ai.catalogue import listing, listing_by_deck, variant_levels
from engine.ai.player import LEVEL_TABLE, exact_search_fits, outcome, plays_as
from engine.ai.policy import heuristic_action
from engine.ai.solver import solve
from engine.ai.talon import TalonSolver
from engine.cards import mask_of, parse_card
from engine.play import apply, legal_actions
from engine.rules import VARIANTS
from tests.engine.ai.helpers import brute_force, random_action_states, solved_as_by_minimax
from tests.engine.ai.test_talon import short_talon_positions
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


def test_the_exact_searches_are_claimed_for_32_cards() -> None:
    for v in VARIANTS.values():
        assert exact_search_fits(v) == v.has_talon
        if 32 in v.decks:
            v32 = v.with_deck(32)
            assert exact_search_fits(v32) == v.has_talon
            levels = {lv.name: lv for lv in variant_levels(v32)}
            assert any(lv.exact_search for lv in levels.values()) == v.has_talon
            expert = plays_as(LEVEL_TABLE["expert"], v32)  # kept for the arena, not offered
            assert expert.name == ("expert" if v.has_talon else "strong")


def test_the_levels_are_listed_per_deck() -> None:
    by_deck = listing_by_deck()
    assert list(by_deck) == list(VARIANTS)
    assert list(by_deck["schnapsen"]) == ["24"] and list(by_deck["four-hand"]) == ["24", "32"]
    for name, packs in by_deck.items():
        assert packs["24"] == listing()[name]
    strong = {deck: {lv.name: lv for lv in levels}["strong"]
              for deck, levels in by_deck["sixty-six"].items()}
    assert (strong["24"].plays_as, strong["24"].exact_search) == ("strong", True)
    assert (strong["32"].plays_as, strong["32"].exact_search) == ("strong", True)
    four = {deck: {lv.name: lv for lv in levels}["strong"]
            for deck, levels in by_deck["four-hand"].items()}
    assert (four["32"].plays_as, four["32"].exact_search) == ("strong", False)


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


def endgames(options: dict[str, object], seed: int, count: int, cards: int) -> list[GameState]:
    """Two-hand sixty-six positions with ``options`` (the 32-card pack), the talon closed or
    exhausted, at most ``cards`` in the hand to move, some holding an 8 or a 7."""
    rng = random.Random(seed)
    out: list[GameState] = []
    for state in random_action_states("sixty-six", rng, 40 * count, close_chance=0.1,
                                      options=options):
        seat = state.to_act()
        assert seat is not None
        if (not state.talon_open and state.hands[seat].bit_count() <= cards
                and rng.random() < 0.3):
            out.append(state.copy())
            if len(out) == count:
                break
    assert len(out) == count
    assert any((s.hands[0] | s.hands[1]) >> 24 for s in out)
    return out


@pytest.mark.parametrize("options", [{"deck": 32}, {"deck": 32, "ten_rank": "low"}])
def test_the_solver_matches_plain_minimax_with_32_cards(options: dict[str, object]) -> None:
    """The value and each card's value, against a memoised minimax through engine.apply."""
    assert len({solved_as_by_minimax(state) for state in endgames(options, 5, 40, 5)}) >= 3


@pytest.mark.parametrize("options", [{"deck": 32}, {"deck": 32, "ten_rank": "low"}])
def test_the_talon_search_matches_brute_force_with_32_cards(options: dict[str, object]) -> None:
    rules = Rules.make("sixty-six", options)
    positions = short_talon_positions(rules, 13, 12, 2)
    assert any(s.trump_card >= 24 or (s.hands[0] | s.hands[1]) >> 24 for s in positions)
    for state in positions:
        assert TalonSolver(state.rules, state.trump).value(state) == brute_force(state, solve)
