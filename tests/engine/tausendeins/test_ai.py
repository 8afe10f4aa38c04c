"""The Tausendeins computer levels: legal moves under every main option combination, choices
from the view alone, the exact solver against plain minimax, bidding, and a seeded arena."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product
from typing import Any

import pytest

from engine.tausendeins import (
    T1001Action,
    T1001Rules,
    T1001State,
    apply,
    legal_actions,
    new_game,
    view,
)
from engine.tausendeins.ai import LEVEL_TABLE, InvalidView, Level, choose, knowledge, level
from engine.tausendeins.ai.knowledge import clone
from engine.tausendeins.ai.solver import SearchBudgetExceeded, Solver, child, minimax, moves
from engine.tausendeins.arena import main, match
from engine.tausendeins.state import HAND_OVER, PLAY, PLAYING
from tests.engine.tausendeins.helpers import D, deck, game

#: The levels with small work bounds (the same methods), so many games stay quick.
SMALL: dict[str, Level] = {
    "random": LEVEL_TABLE["random"],
    "easy": LEVEL_TABLE["easy"],
    "normal": replace(LEVEL_TABLE["normal"], playouts=12),
    "strong": replace(LEVEL_TABLE["strong"], playouts=24, solve_nodes=3000, solve_samples=2,
                      bid_samples=4),
}
#: The deal forms: (bidding, deal, contract_deal, musik_shown).
DEALS = [
    {"bidding": "none"},
    {"bidding": "none", "deal": "all"},
    {},
    {"deal": "all"},
    {"contract_deal": "musik"},
    {"contract_deal": "musik", "musik_shown": False, "musik_leftover": "declarer"},
]
PLAY_RULES = [
    {},
    {"phase1_follow": "follow", "phase2_head": False},
    {"marriage_order": "ascending", "marriage_values": "by_order",
     "meld_first_lead": "forbidden", "meld_without_trick": "counts"},
    {"marriage_values": "russian", "bid_step": 5, "bid_cap": "none", "contract_gain": "actual",
     "defender_marriages": "ignored", "deal_rounding": "nearest_10", "last_trick_bonus": 10},
]
COMBOS = [{**a, **b} for a, b in product(DEALS, PLAY_RULES)]


def positions(options: dict[str, object], levels: tuple[Level, Level],
              seed: int) -> list[T1001State]:
    """Every position (a copy) at which a seat had a choice in one deal between ``levels``,
    checking each chosen action is legal."""
    rng = random.Random(seed)
    state, _ = new_game(T1001Rules.make(options), first_dealer=seed % 2, rng=rng)
    seen = []
    while state.status == PLAYING:
        seat = state.to_act()
        assert seat is not None
        legal = legal_actions(state, seat)
        if len(legal) > 1:
            seen.append(clone(state))
        action = choose(view(state, seat), levels[seat], rng)
        assert action in legal, (action, options)
        apply(state, seat, action, rng)
    assert state.status in (HAND_OVER, "match_over")
    return seen


@pytest.mark.parametrize("options", COMBOS, ids=[str(c) for c in COMBOS])
def test_every_level_plays_only_legal_actions(options: dict[str, object]) -> None:
    for seed, pair in enumerate((("random", "strong"), ("normal", "easy"),
                                 ("strong", "normal"))):
        positions(options, (SMALL[pair[0]], SMALL[pair[1]]), seed)


def test_the_levels_at_their_own_budgets_play_a_deal() -> None:
    for seed, pair in enumerate((("strong", "normal"),)):
        positions({}, (LEVEL_TABLE[pair[0]], LEVEL_TABLE[pair[1]]), seed)


def _hidden_swapped(state: T1001State, seat: int, rng: random.Random) -> T1001State | None:
    """``state`` with one unshown card of the other hand swapped with a stock or untaken
    musik card (``None`` if there is none to swap): the same view for ``seat``."""
    other = 1 - seat
    mine = [c for c in range(24) if state.hands[other] >> c & 1 and not state.shown >> c & 1]
    places = [("stock", i) for i in range(len(state.stock))]
    places += [("musik", m) for m in range(len(state.musiks)) if m + 1 != state.musik_taken]
    if not mine or not places:
        return None
    twin = clone(state)
    card = rng.choice(mine)
    where, i = rng.choice(places)
    if where == "stock":
        twin.stock[i], swapped = card, twin.stock[i]
    else:
        swapped = twin.musiks[i][0]
        twin.musiks[i][0] = card
    twin.hands[other] ^= (1 << card) | (1 << swapped)
    return twin


@pytest.mark.parametrize("options", [{}, {"contract_deal": "musik"}, {"bidding": "none"}])
def test_the_choice_depends_on_the_view_alone(options: dict[str, object]) -> None:
    rng = random.Random(3)
    checked = 0
    for state in positions(options, (SMALL["easy"], SMALL["easy"]), 3):
        seat = state.to_act()
        assert seat is not None
        twin = _hidden_swapped(state, seat, rng)
        if twin is None:
            continue
        assert view(twin, seat) == view(state, seat)
        assert twin.hands != state.hands
        for lv in SMALL.values():
            assert choose(view(twin, seat), lv, random.Random(9)) == \
                choose(view(state, seat), lv, random.Random(9))
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("options", COMBOS[::3], ids=[str(c) for c in COMBOS[::3]])
def test_sampled_deals_give_the_seat_the_same_view(options: dict[str, object]) -> None:
    """Every sampled deal shows the seat exactly what the real one does, and the other hand
    never holds a card strict play has shown he cannot hold."""
    rng = random.Random(5)
    for state in positions(options, (SMALL["easy"], SMALL["random"]), 11):
        seat = state.to_act()
        assert seat is not None
        seen = view(state, seat)
        k = knowledge(seen)
        assert not state.hands[1 - seat] & k.excluded
        for _ in range(3):
            sample = k.sample(rng)
            assert view(sample, seat) == seen
            assert sorted(legal_actions(sample, seat), key=str) == \
                sorted(legal_actions(state, seat), key=str)


def endgames(options: dict[str, object], cards: int, count: int) -> list[T1001State]:
    """Positions of random deals in play with no stock and ``cards`` cards a hand or fewer."""
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        state, _ = new_game(T1001Rules.make(options), first_dealer=seed % 2, rng=rng)
        while state.status == PLAYING:
            seat = state.to_act()
            assert seat is not None
            if state.stage == PLAY and not state.stock and \
                    state.hands[seat].bit_count() <= cards:
                out.append(clone(state))
                break
            apply(state, seat, rng.choice(legal_actions(state, seat)), rng)
    return out


@pytest.mark.parametrize("options", [
    {"bidding": "none"}, {}, {"contract_deal": "musik"},
    {"deal": "all", "marriage_values": "by_order", "last_trick_bonus": 10,
     "meld_without_trick": "lapses", "deal_rounding": "nearest_10"},
    {"contract_gain": "actual", "defender_marriages": "ignored", "phase2_head": False}])
def test_the_exact_solver_agrees_with_plain_minimax(options: dict[str, object]) -> None:
    for state in endgames(options, 4, 6):
        mover, actions = moves(state)
        for seat in (0, 1):
            assert Solver(seat, 10**6).value(clone(state)) == minimax(state, seat)
        solved = dict(Solver(mover, 10**6).action_values(state))
        assert solved == {a: minimax(child(state, mover, a), mover) for a in actions}
        best, value = Solver(mover, 10**6).best_action(state)
        assert value == max(solved.values()) == solved[best]


def test_the_solver_stops_at_its_bound() -> None:
    state = endgames({"bidding": "none"}, 8, 1)[0]
    with pytest.raises(SearchBudgetExceeded):
        Solver(0, 5).value(state)


def test_strong_plays_a_best_move_of_a_known_endgame() -> None:
    """In the stock deal's phase 2 every card is known: strong's move is worth the most."""
    for state in endgames({}, 4, 8):
        mover, actions = moves(state)
        best = max(minimax(child(state, mover, a), mover) for a in actions)
        chosen = choose(view(state, mover), "strong", random.Random(1))
        assert knowledge(view(state, mover)).determined
        assert minimax(child(state, mover, chosen), mover) == best


def _auction(forehand: list[str], dealer: list[str]) -> dict[str, Any]:
    state = game({"defender_marriages": "ignored"}, deck(forehand, dealer))
    return view(state, D)


def test_strong_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    """With the defender's marriages ignored, 180 in marriages are worth only a contract;
    with a weak hand, forehand is left with the compulsory 100."""
    strong = _auction(["9H", "JH", "9D", "JD"], ["KC", "QC", "KS", "QS", "AC", "TC", "AS", "TS"])
    weak = _auction(["KC", "QC", "KS", "QS", "AC", "TC", "AS", "TS"],
                    ["9H", "JH", "9D", "JD", "9C", "JC", "9S", "JS"])
    for lv in ("strong", "easy"):
        assert choose(strong, lv, random.Random(2)).kind == "bid"
        assert choose(weak, lv, random.Random(2)) == T1001Action.simple("pass")


def test_bad_requests_are_refused() -> None:
    state, _ = new_game(T1001Rules.make({}), first_dealer=0, rng=random.Random(1))
    with pytest.raises(KeyError, match="levels: random, easy, normal, strong"):
        level("expert")
    with pytest.raises(InvalidView):
        choose(view(state, None), "easy", random.Random(1))
    with pytest.raises(InvalidView):
        choose(view(state, state.forehand), "easy", random.Random(1))


@pytest.mark.parametrize("name", ["normal", "strong"])
def test_normal_and_strong_beat_random(name: str) -> None:
    lv = replace(LEVEL_TABLE[name], playouts=40, solve_nodes=10_000, solve_samples=4,
                 bid_samples=10) if name == "strong" else replace(LEVEL_TABLE[name], playouts=40)
    result = match(T1001Rules.make({}), lv, "random", 8, 17)
    assert result.mean - result.half_width > 0, result


def test_the_arena_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--deals", "1", "--levels", "random", "easy", "--option", "bidding=none",
          "--option", "last_trick_bonus=10"])
    out = capsys.readouterr().out
    assert "{'last_trick_bonus': 10, 'bidding': 'none'}" in out
    assert "    easy   random" in out
    assert "CPU ms/move median" in out
