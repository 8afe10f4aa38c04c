"""Sampling deals of the unseen cards: consistent with the knowledge, uniform among such deals."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from engine import GameState, legal_actions, view
from engine.ai.knowledge import Knowledge
from engine.ai.sampling import Sampler, to_state
from engine.cards import cards_of, mask_of
from tests.engine.ai.helpers import first_state, random_action_states


def _consistent_assignments(k: Knowledge) -> list[tuple[int, ...]]:
    """Brute force: every split of the unseen cards into the other hands' unknown parts
    respecting exclusions; the rest goes to the talon."""
    cards = cards_of(k.unseen)
    seats = k.others
    out: list[tuple[int, ...]] = []

    def place(i: int, remaining: list[int], acc: tuple[int, ...]) -> None:
        if i == len(seats):
            out.append(acc)
            return
        seat = seats[i]
        for combo in itertools.combinations(remaining, k.hidden_slots(seat)):
            m = mask_of(combo)
            if m & k.excluded[seat] == 0:
                place(i + 1, [c for c in remaining if c not in combo], (*acc, m))

    place(0, cards, ())
    return out


def _knowledge(state: GameState) -> Knowledge:
    return Knowledge.from_view(view(state, state.to_act()))


def _chi_square(counts: Counter[tuple[int, ...]], cells: list[tuple[int, ...]], n: int) -> float:
    expected = n / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def test_four_hand_sampling_is_uniform_over_consistent_deals() -> None:
    def small_with_voids(state: GameState) -> bool:
        k = _knowledge(state)
        return len(k.tricks) == 4 and not k.trick and any(e & k.unseen for e in k.excluded.values())

    state = first_state("four-hand", 11, small_with_voids)
    k = _knowledge(state)
    cells = _consistent_assignments(k)
    sampler = Sampler(k)
    assert sampler.count() == len(cells) > 1
    rng = random.Random(2024)
    n = 200 * len(cells)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        deal = sampler.sample(rng)
        counts[tuple(deal.hands[s] & ~k.known[s] for s in k.others)] += 1
    assert set(counts) == set(cells), "only and every consistent deal is drawn"
    # df = cells - 1; a fixed seed makes this deterministic. The bound is far above the
    # expected value df and far below what a biased sampler (e.g. greedy dealing) gives.
    assert _chi_square(counts, cells, n) < 2 * len(cells) + 30


def test_two_hand_sampling_is_uniform_over_hands_and_talon_order() -> None:
    def closed_with_talon(state: GameState) -> bool:
        k = _knowledge(state)
        return (k.closed_by is not None and 2 <= k.talon_hidden <= 3 and len(k.trick) == 1
                and any(e & k.unseen for e in k.excluded.values()) and k.unseen.bit_count() <= 9)

    state = first_state("sixty-six", 3, closed_with_talon)
    k = _knowledge(state)
    cells = _consistent_assignments(k)
    sampler = Sampler(k)
    assert sampler.count() == len(cells)
    rng = random.Random(99)
    n = 200 * len(cells)
    counts: Counter[tuple[int, ...]] = Counter()
    orders: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        deal = sampler.sample(rng)
        counts[tuple(deal.hands[s] & ~k.known[s] for s in k.others)] += 1
        orders[tuple(sorted(range(len(deal.talon) - 1), key=deal.talon[1:].__getitem__))] += 1
        assert deal.talon[0] == k.talon_bottom
    assert set(counts) == set(cells)
    assert _chi_square(counts, cells, n) < 2 * len(cells) + 30
    perms = list(itertools.permutations(range(k.talon_hidden)))
    assert set(orders) == set(perms)
    assert _chi_square(orders, perms, n) < 2 * len(perms) + 30


@pytest.mark.parametrize("variant", ["sixty-six", "schnapsen", "three-hand", "four-hand"])
def test_a_sampled_deal_is_a_consistent_full_state(variant: str) -> None:
    rng = random.Random(5)
    for state in random_action_states(variant, rng, 10, close_chance=0.3):
        seat = state.to_act()
        assert seat is not None
        k = Knowledge.from_view(view(state, seat))
        sample = to_state(k, Sampler(k).sample(rng))
        assert sample.hands[seat] == state.hands[seat]
        assert [h.bit_count() for h in sample.hands] == [h.bit_count() for h in state.hands]
        assert len(sample.talon) == len(state.talon)
        assert sample.total_card_points() == state.total_card_points()
        assert legal_actions(sample, seat) == legal_actions(state, seat)
        for other in k.others:
            assert sample.hands[other] & k.excluded[other] == 0
            assert sample.hands[other] & k.known[other] == k.known[other]
