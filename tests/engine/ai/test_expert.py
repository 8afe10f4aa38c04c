"""The expert level: legal moves only, a node budget it keeps, more deals than strong, strong's
search in four-hand."""

from __future__ import annotations

import random

from engine import PLAYING, Rules, apply, legal_actions, new_game, view
from engine.actions import DECLARE
from engine.ai import LEVELS, choose, evaluate, level_variant
from engine.ai.catalogue import THINK_BUDGETS, listing
from engine.ai.player import LEVEL_TABLE
from engine.rules import VARIANTS
from engine.scoring import DECLARE_TARGET
from tests.engine.ai.test_talon import short_talon_positions

#: The expert with its CPU cap and work budget lifted: only the node cap and the deal cap
#: stop it, so its choices do not depend on the machine.
UNTIMED = "expert:budget_ms=inf,max_samples=6,work=0"


def test_expert_plays_a_whole_hand_with_legal_moves_only() -> None:
    rules = Rules.make("sixty-six")
    lv = level_variant(UNTIMED + ",max_nodes=20000")
    rng = random.Random(4)
    state, _ = new_game(rules, first_dealer=0, rng=rng)
    moves = 0
    while state.status == PLAYING:
        seat = state.to_act()
        assert seat is not None
        action = choose(view(state, seat), lv, rng)
        assert action in legal_actions(state, seat)
        if action.kind == DECLARE:
            assert state.credited_points(state.side_of(seat)) >= DECLARE_TARGET
        apply(state, seat, action)
        moves += 1
    assert moves >= 12


def test_expert_stops_sampling_at_its_node_budget() -> None:
    rules = Rules.make("sixty-six")
    expert = LEVEL_TABLE["expert"]
    assert expert.max_nodes > 0 and expert.search_talon >= 2
    for state in short_talon_positions(rules, 5, 3, 4):
        seen = view(state, state.to_act())
        free = evaluate(seen, UNTIMED, random.Random(2))
        assert free.samples == 6 and free.nodes > 0
        # a cap below six deals' worth: it stops before the deal that would pass it
        cap = free.nodes // 2
        capped = evaluate(seen, f"{UNTIMED},max_nodes={cap}", random.Random(2))
        assert 1 <= capped.samples < 6
        assert capped.nodes <= cap or capped.samples == 1
        once = evaluate(seen, f"{UNTIMED},max_nodes=1", random.Random(2))
        assert once.samples == 1
        # the same generator, the same choice and values: the budget is in nodes, not time
        again = evaluate(seen, f"{UNTIMED},max_nodes={cap}", random.Random(2))
        assert again == capped


def test_expert_spends_its_larger_budget_on_more_deals_than_strong() -> None:
    """With 8 talon cards both play each deal on by the policy and solve its endgame; expert's
    twice larger work budget buys more deals (``evaluate`` spends the whole budget)."""
    rules = Rules.make("sixty-six")
    assert LEVEL_TABLE["expert"].work == 2 * LEVEL_TABLE["strong"].work
    for state in short_talon_positions(rules, 9, 2, 8):
        seen = view(state, state.to_act())
        strong = evaluate(seen, "strong:budget_ms=100000000", random.Random(1))
        expert = evaluate(seen, "expert:budget_ms=100000000", random.Random(1))
        assert strong.nodes == expert.nodes == 0
        assert expert.samples > strong.samples
        assert expert.work.units > LEVEL_TABLE["strong"].work


def test_expert_plays_as_strong_in_four_hand() -> None:
    rules = Rules.make("four-hand")
    state, _ = new_game(rules, first_dealer=0, rng=random.Random(3))
    seen = view(state, state.to_act())
    ev = evaluate(seen, "expert", random.Random(5), budget_ms=1e6, samples=5)
    strong = evaluate(seen, "strong", random.Random(5), budget_ms=1e6, samples=5)
    assert ev.level == "expert"
    assert ev.actions == strong.actions and ev.samples == strong.samples


def test_every_level_of_every_variant_is_listed_with_its_budget() -> None:
    by_variant = listing()
    assert list(by_variant) == list(VARIANTS)
    for name, levels in by_variant.items():
        assert [lv.name for lv in levels] == list(LEVELS)
        for lv in levels:
            assert (lv.think_median_ms, lv.think_p99_ms) == THINK_BUDGETS[lv.plays_as]
            assert lv.exact_search == (VARIANTS[name].has_talon
                                       and LEVEL_TABLE[lv.plays_as].solve_from > 0)
    assert "expert" not in LEVELS  # not offered: not shown stronger than strong
    assert THINK_BUDGETS["strong"] == (500, 1500) and THINK_BUDGETS["expert"][1] <= 3000
