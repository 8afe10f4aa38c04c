"""Inference from the opponent's play, and strong_v1: today's strong, frozen."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from engine import view
from engine.ai import LEVELS, level_variant
from engine.ai.inference import MISSED_FACTOR, draw, likelihood
from engine.ai.knowledge import Knowledge
from engine.ai.player import LEVEL_TABLE
from engine.ai.sampling import Deal, Sampler
from engine.cards import ACE, JACK, KING, NINE, QUEEN, TEN, card, mask_of
from engine.play import legal_actions
from engine.state import GameState
from tests.engine.ai.helpers import first_state


def _seat(state: GameState) -> int:
    seat = state.to_act()
    assert seat is not None
    return seat


def test_strong_v1_keeps_the_frozen_settings_and_is_not_public() -> None:
    v1 = LEVEL_TABLE["strong_v1"]
    # its 900 ms of CPU a move are now a work budget of 900,000 units, with strong's cap
    assert (v1.work, v1.budget_ms, v1.max_samples, v1.solve_from, v1.search_talon,
            v1.search_from, v1.feel, v1.forget, v1.close_hedge, v1.infer_depth) == (
        900_000, 1400, 1000, 6, 2, 4, 0.0, 0.0, 2.0, 0)
    assert "strong_v1" not in LEVELS and set(LEVELS) == {"random", "easy", "normal", "strong"}
    assert level_variant("strong_v1:budget_ms=50").budget_ms == 50
    assert level_variant("strong:infer_depth=3").infer_depth == 3


def _phase1_knowledge() -> Knowledge:
    """Seat to act on lead early in a two-hand hand, the talon open, the opponent trickless."""
    state = first_state("sixty-six", 5, lambda s: s.talon_open and not s.trick
                        and len(s.talon) >= 8 and not s.tricks)
    return Knowledge.from_view(view(state, _seat(state)))


def test_a_card_thrown_away_is_likelier_from_a_hand_without_cheaper_cards() -> None:
    k = _phase1_knowledge()
    opp, trump = k.others[0], k.trump
    side, other = (trump + 1) % 4, (trump + 2) % 4
    led, thrown = card(ACE, side), card(TEN, other)  # he let our Ace go, throwing a Ten
    k = replace(k, tricks=((k.seat, (led, thrown), k.seat),), trick=(), leader=k.seat)
    low = Deal({opp: mask_of([card(NINE, (trump + 3) % 4), card(JACK, side)])}, [])
    high = Deal({opp: mask_of([card(ACE, trump), card(KING, trump)])}, [])
    assert likelihood(k, high, 1, 0.5) == 1.0  # nothing cheaper than the Ten but trumps
    assert likelihood(k, low, 1, 0.5) == math.exp(-0.5 * 2)
    assert likelihood(k, low, 0, 0.5) == 1.0  # depth 0: no inference
    # he took our Nine with his trump Ace: likely only if he held no smaller trump
    k_trumped = replace(k, tricks=((k.seat, (card(NINE, side), card(ACE, trump)), opp),))
    small = Deal({opp: mask_of([card(NINE, trump), card(JACK, trump)])}, [])
    assert likelihood(k_trumped, small, 1, 0.5) == math.exp(-0.5 * 2)
    assert likelihood(k_trumped, low, 1, 0.5) == 1.0
    # a Ten let go while holding the Ace of its suit
    ten = card(TEN, side)
    k_ten = replace(k, tricks=((k.seat, (ten, card(NINE, side)), k.seat),))
    with_ace = Deal({opp: mask_of([card(ACE, side)])}, [])
    without = Deal({opp: mask_of([card(JACK, trump)])}, [])
    assert likelihood(k_ten, with_ace, 1, 0.5) == MISSED_FACTOR
    assert likelihood(k_ten, without, 1, 0.5) == 1.0


def test_leading_without_melding_a_held_marriage_is_unlikely() -> None:
    k = _phase1_knowledge()
    opp, trump = k.others[0], k.trump
    unseen = k.unseen
    side = next(s for s in range(4) if s != trump
                and unseen >> card(KING, s) & 1 and unseen >> card(QUEEN, s) & 1)
    marriage = [card(KING, side), card(QUEEN, side)]
    led = next(card(r, s) for s in range(4) for r in (NINE, JACK, QUEEN)
               if s not in (trump, side) and unseen >> card(r, s) & 1)
    k = replace(k, trick=(led,), leader=opp, to_act=k.seat,
                hand_sizes={**k.hand_sizes, opp: k.hand_sizes[opp] - 1})
    with_pair = Deal({opp: mask_of(marriage)}, [])
    split = Deal({opp: mask_of([card(KING, side), card(JACK, side)])}, [])
    lead_factor_pair = likelihood(k, with_pair, 1, 0.0)  # beta 0: only the missed chances
    assert lead_factor_pair == MISSED_FACTOR
    assert likelihood(k, split, 1, 0.0) == 1.0


def test_draw_without_inference_is_the_uniform_sampler_and_with_it_favours_likely_deals() -> None:
    state = first_state("sixty-six", 11, lambda s: s.talon_open and len(s.trick) == 1
                        and len(s.talon) >= 6 and len(legal_actions(s, _seat(s))) > 2)
    k = Knowledge.from_view(view(state, _seat(state)))
    sampler = Sampler(k)
    a, b = random.Random(3), random.Random(3)
    assert [draw(sampler, a, 0, 0.5, 6) for _ in range(5)] == [sampler.sample(b)
                                                                 for _ in range(5)]
    rng = random.Random(4)
    uniform = [likelihood(k, sampler.sample(rng), 3, 1.0) for _ in range(300)]
    drawn = [likelihood(k, draw(sampler, rng, 3, 1.0, 6), 3, 1.0) for _ in range(300)]
    assert sum(drawn) / 300 > sum(uniform) / 300 * 1.1
