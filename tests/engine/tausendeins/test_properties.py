"""Random Tausendeins games under every option alone and all together (Hypothesis).

Per deal: the card points (with the musik's unused cards) are 120 and each score is its
parts; no card is lost; every move is legal and a random illegal one is refused with a reason,
leaving the state as it was; the totals are the sum of the settlements; no view shows a
card its seat may not see; the state survives its JSON; the record replays identically.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CARD_CODES, HIGHER_IN_SUIT, SUIT_MASKS, SUIT_OF, codes, points_of
from engine.errors import IllegalAction
from engine.events import Event
from engine.tausendeins import (
    OPTIONS,
    T1001Action,
    T1001Rules,
    T1001State,
    apply,
    build,
    from_json,
    illegal_reason,
    is_legal,
    legal_actions,
    new_game,
    replay,
    to_dict,
    to_json,
    view,
)
from engine.tausendeins.scoring import leftover_cards

ALONE = [{name: value} for name, o in OPTIONS.items() if o.name != "target_points"
         for value in o.allowed if value != o.default]
ALONE += [{"target_points": 100}, {"bidding": "none", "target_points": 150},
          {"contract_deal": "musik", "musik_shown": False, "musik_leftover": "none"}]
ALL = st.fixed_dictionaries({
    name: st.sampled_from(o.allowed) if name != "target_points"
    else st.sampled_from([100, 300, 1001])
    for name, o in OPTIONS.items()})
_CODE = re.compile(r'"([AKQJT9][CSHD])"')
#: Candidate actions, legal or not, tried against the engine.
_TRIES = ([T1001Action.play(c) for c in range(24)] + [T1001Action.meld(s) for s in range(4)]
          + [T1001Action.bid(n) for n in (95, 100, 105, 110, 130, 200, 400, 410)]
          + [T1001Action.raise_to(n) for n in (100, 110, 125, 210)]
          + [T1001Action.take_musik(n) for n in (0, 1, 2, 3)]
          + [T1001Action.discard(a, b) for a, b in ((0, 1), (5, 17), (12, 23))]
          + [T1001Action.simple(k) for k in ("pass", "continue")])


def _follow_oracle(state: T1001State, seat: int) -> int:
    """The follower's cards as RULES-1001 §3 words them (an independent statement)."""
    hand, lead, rules = state.hands[seat], state.trick[0], state.rules
    suit = hand & SUIT_MASKS[SUIT_OF[lead]]
    if state.stock:
        return suit if rules.phase1_follow == "follow" and suit else hand
    higher = suit & HIGHER_IN_SUIT[lead]
    if rules.phase2_head and higher:
        return higher
    if suit:
        return suit
    if state.trump is not None and hand & SUIT_MASKS[state.trump]:
        return hand & SUIT_MASKS[state.trump]
    return hand


def _check_cards(state: T1001State) -> None:
    parts = [*state.hands, *state.taken, state.discards]
    parts += [1 << c for c in state.stock] + [1 << c for c in state.trick]
    parts += [1 << c for i, m in enumerate(state.musiks, 1) if i != state.musik_taken
              for c in m]
    union = 0
    for p in parts:
        assert not union & p, "a card is in two places"
        union |= p
    assert union == (1 << 24) - 1, "a card is lost"


def _visible(state: T1001State, seat: int | None) -> set[str]:
    played = [c for _, cards, _ in state.tricks for c in cards] + state.trick
    mask = state.shown
    if seat is not None:
        mask |= state.hands[seat]
        if seat == state.declarer:
            mask |= state.discards
            if state.musik_taken is not None:
                mask |= sum(1 << c for c in state.musiks[state.musik_taken - 1])
    if state.rules.musik_shown and state.musik_taken is not None:
        mask |= sum(1 << c for c in state.musiks[state.musik_taken - 1])
    return set(codes(mask)) | {CARD_CODES[c] for c in played}


def _check_settlement(state: T1001State, settled: dict[str, Any]) -> None:
    seats = settled["seats"]
    leftover = points_of(leftover_cards(state)) if state.rules.musik else 0
    assert sum(s["card_points"] for s in seats) + leftover == 120
    assert sum(s["leftover_points"] for s in seats) in (0, leftover)
    for s in seats:
        marriages = sum(m["value"] for m in s["marriages"] if m["scored"])
        assert s["score"] == s["card_points"] + marriages + s["last_trick_bonus"] \
            + s["leftover_points"]
        assert s["total"] - s["total_before"] == s["change"]
    assert len(state.marriages) == sum(len(s["marriages"]) + len(s["forfeited_marriages"])
                                       for s in seats)


def _play(options: dict[str, object], seed: int, deals: int = 3) -> None:
    rng = random.Random(seed)
    rules = T1001Rules.make(options)
    state, log = new_game(rules, rng=rng)
    changes = [0, 0]
    while not state.over and state.hand_no <= deals:
        _check_cards(state)
        for seat in (0, 1, None):
            text = json.dumps(view(state, seat))
            assert set(_CODE.findall(text)) <= _visible(state, seat)
        assert from_json(to_json(state)) == state
        seat = state.to_act()
        if seat is None:  # a settlement to acknowledge
            seat = next(s for s in (0, 1) if legal_actions(state, s))
        legal = legal_actions(state, seat)
        if state.trick and state.status == "playing":
            assert {a.card for a in legal} == set(range(24)) & {
                c for c in range(24) if _follow_oracle(state, seat) >> c & 1}
        wrong = rng.choice(_TRIES)
        if wrong not in legal:
            before = to_dict(state)
            assert not is_legal(state, seat, wrong) and illegal_reason(state, seat, wrong)
            with pytest.raises(IllegalAction):
                apply(state, seat, wrong)
            assert to_dict(state) == before
        events: list[Event] = apply(state, seat, rng.choice(legal), rng)
        log += events
        for e in events:
            if e.type == "hand_settled":
                _check_settlement(state, e.data["settlement"])
                for s in e.data["settlement"]["seats"]:
                    changes[s["seat"]] += s["change"]
        assert state.totals == changes
    record = json.loads(json.dumps(build(state, log, reveal=True)))
    again = replay(record)
    assert to_dict(again) == to_dict(state)


@pytest.mark.parametrize("options", ALONE, ids=lambda o: ",".join(f"{k}={v}" for k, v in
                                                                   o.items()))
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_games_under_each_option(options: dict[str, object], seed: int) -> None:
    _play(options, seed)


@settings(max_examples=25, deadline=None)
@given(options=ALL, seed=st.integers(0, 2**32))
def test_random_games_under_every_option_together(options: dict[str, object],
                                                  seed: int) -> None:
    _play(options, seed)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_games_without_a_contract_end_at_the_target(seed: int) -> None:
    rng = random.Random(seed)
    state, _ = new_game(T1001Rules.make({"bidding": "none", "target_points": 200}), rng=rng)
    while not state.over:
        seat = state.to_act()
        if seat is None:
            seat = next(s for s in (0, 1) if legal_actions(state, s))
        dealer = state.dealer
        hand_no = state.hand_no
        apply(state, seat, rng.choice(legal_actions(state, seat)), rng)
        if state.hand_no != hand_no:
            assert state.dealer == 1 - dealer
    assert state.winner is not None and state.totals[state.winner] >= 200
    assert state.totals[state.winner] > state.totals[1 - state.winner]
