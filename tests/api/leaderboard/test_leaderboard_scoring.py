"""The leaderboard's arithmetic (docs/rules.md §9) on constructed events, every rule and variant."""

from __future__ import annotations

from typing import Any

import pytest

from api.leaderboard.scoring import awards, placement_bonus, places
from api.ratings.model import Rated
from engine import Event, GameState, Rules, new_game


def _state(variant: str) -> GameState:
    state, _ = new_game(Rules.make(variant))
    return state


def _hand(hand_no: int, winner: int | None, points: int) -> list[Event]:
    return [Event("hand_dealt", {"hand_no": hand_no}),
            Event("hand_settled", {"settlement": {"winner_side": winner,
                                                  "game_points": points}})]


def _match(match_no: int, score: list[int], winner: int) -> Event:
    return Event("match_won", {"match_no": match_no, "score": score, "winner_side": winner})


def _totals(found: list[Any]) -> dict[int, int]:
    out: dict[int, int] = {}
    for award in found:
        for seat, points in award.points.items():
            out[seat] = out.get(seat, 0) + points
    return out


@pytest.mark.parametrize(("score", "winner", "expected"), [
    ([7, 3], 0, {0: 1, 1: 2}),                 # two-hand: first and second
    ([2, 7], 1, {1: 1, 0: 2}),
    ([7, 4, 2], 0, {0: 1, 1: 2, 2: 3}),        # three-hand
    ([3, 3, 7], 2, {2: 1, 0: 2, 1: 2}),        # a tie for second shares it
    ([0, 7, 0], 1, {1: 1, 0: 2, 2: 2}),
])
def test_places(score: list[int], winner: int, expected: dict[int, int]) -> None:
    assert places(score, winner) == expected


def test_placement_bonus_is_30_15_5() -> None:
    assert [placement_bonus(p) for p in (1, 2, 3)] == [30, 15, 5]


@pytest.mark.parametrize("variant", ["sixty-six", "schnapsen"])
def test_two_hand_hands_and_placement(variant: str) -> None:
    state = _state(variant)
    events = [*_hand(1, 0, 2), *_hand(2, 1, 3), *_hand(3, None, 0), *_hand(4, 0, 3),
              _match(1, [5, 3], 0)]
    found = awards(state, {}, events, 0, ["p0", "p1"])
    assert [a.marker for a in found] == ["hand:1", "hand:2", "hand:3", "hand:4", "match:1"]
    assert _totals(found) == {0: 2 + 3 + 30, 1: 3 + 15}
    assert found[2].points == {} and found[2].hands_won == {}  # nobody won hand 3


def test_computers_never_score() -> None:
    state = _state("sixty-six")
    found = awards(state, {}, [*_hand(1, 1, 3), _match(1, [0, 7], 1)], 0, ["p0", None])
    assert _totals(found) == {0: 15}


def test_three_hand_placement_and_sitting_out() -> None:
    state = _state("three-hand")
    events = [*_hand(1, 1, 2), *_hand(2, 2, 1), *_hand(3, 1, 3), _match(1, [0, 5, 1], 1)]
    found = awards(state, {}, events, 0, ["a", "b", "c"])
    assert _totals(found) == {0: 5, 1: 2 + 3 + 30, 2: 1 + 15}


def test_four_hand_partners_share_hands_and_place() -> None:
    state = _state("four-hand")
    events = [*_hand(1, 0, 2), *_hand(2, 1, 1), _match(1, [2, 1], 0)]
    found = awards(state, {}, events, 0, ["a", "b", "c", "d"])
    assert _totals(found) == {0: 32, 2: 32, 1: 16, 3: 16}
    assert found[0].hands_won == {0: 1, 2: 1}


def test_a_hinted_hand_does_not_count_for_the_side_and_the_match_places_it_not() -> None:
    state = _state("four-hand")
    meta = {"hinted_hands": [{"seat": 2, "hand_no": 1, "match_no": 1}]}
    events = [*_hand(1, 0, 2), *_hand(2, 0, 3), _match(1, [5, 0], 0)]
    found = awards(state, meta, events, 0, ["a", "b", "c", "d"])
    # seat 2 hinted in hand 1: that hand counts for neither partner, nor does their place
    assert _totals(found) == {0: 3, 2: 3, 1: 15, 3: 15}
    assert found[0].hands_won == {} and found[1].hands_won == {0: 1, 2: 1}
    # their ratings may only fall, the other side's only rise: a win with advice moves none
    assert found[-1].rated == Rated(rise=frozenset({1}), fall=frozenset({0}))


def test_an_unhinted_match_moves_every_side_both_ways() -> None:
    found = awards(_state("three-hand"), {}, [*_hand(1, 1, 2), _match(1, [0, 7, 1], 1)], 0,
                   ["a", "b", "c"])
    assert found[-1].rated == Rated(rise=frozenset({0, 1, 2}), fall=frozenset({0, 1, 2}))


def test_a_hint_counts_only_for_its_own_match() -> None:
    state = _state("sixty-six")
    meta = {"hinted_hands": [{"seat": 0, "hand_no": 1, "match_no": 1}]}
    events = [*_hand(1, 0, 3), _match(1, [3, 0], 0), *_hand(2, 0, 3), _match(2, [3, 0], 0)]
    found = awards(state, meta, events, 0, ["a", "b"])
    assert [a.points.get(0, 0) for a in found] == [0, 0, 3, 30]


def test_resigning_against_a_player_costs_10_and_the_place() -> None:
    state = _state("three-hand")
    state.score = [4, 1, 2]
    events = [Event("resigned", {"seat": 0, "winner_side": 2})]
    found = awards(state, {}, events, 3, ["a", "b", None])
    assert found[0].marker == f"match:{state.match_no}"
    assert found[0].points == {0: -10, 1: 15}  # seat 2 (a computer) is first


def test_forfeiting_on_time_against_a_player_is_leaving_too() -> None:
    """Three expiries of the clock forfeit the match (event ``forfeited``): as a resignation."""
    state = _state("three-hand")
    state.score = [4, 1, 2]
    events = [Event("forfeited", {"seat": 0, "winner_side": 2})]
    found = awards(state, {}, events, 3, ["a", "b", None])
    assert found[0].marker == f"match:{state.match_no}"
    assert found[0].points == {0: -10, 1: 15}


def test_resigning_before_a_hand_is_settled_places_nobody() -> None:
    """The farmer's second account resigning at once: the first gets nothing."""
    state = _state("sixty-six")
    events = [Event("hand_dealt", {"hand_no": 1}), Event("resigned", {"seat": 1, "winner_side": 0})]
    found = awards(state, {}, events, 0, ["first", "second"])
    assert [(a.marker, a.points) for a in found] == [(f"match:{state.match_no}", {1: -10})]
    assert found[0].rated is None  # rated for neither: nobody played


def test_resigning_after_a_settled_hand_places_the_others() -> None:
    state = _state("sixty-six")
    events = [*_hand(1, 1, 2), Event("hand_dealt", {"hand_no": 2}),
              Event("resigned", {"seat": 1, "winner_side": 0})]
    found = awards(state, {}, events, 0, ["first", "second"])
    assert _totals(found) == {0: 30, 1: 2 - 10}
    assert found[-1].rated == Rated(rise=frozenset({0, 1}), fall=frozenset({0, 1}))


def test_a_new_match_of_a_set_must_settle_a_hand_of_its_own() -> None:
    state = _state("sixty-six")
    events = [*_hand(1, 0, 3), _match(1, [3, 0], 0), Event("hand_dealt", {"hand_no": 2}),
              Event("resigned", {"seat": 1, "winner_side": 0})]
    found = awards(state, {}, events, 0, ["first", "second"])
    assert [a.points for a in found] == [{0: 3}, {0: 30, 1: 15}, {1: -10}]


def test_resigning_against_computers_only_costs_nothing() -> None:
    state = _state("sixty-six")
    found = awards(state, {}, [Event("resigned", {"seat": 0, "winner_side": 1})], 1,
                   ["a", None])
    assert [(a.marker, a.points) for a in found] == [(f"match:{state.match_no}", {})]


def test_an_abort_is_no_result() -> None:
    state = _state("three-hand")
    events = [*_hand(1, 1, 2), Event("aborted", {"seat": 0})]
    found = awards(state, {}, events, 0, ["a", "b", "c"])
    assert _totals(found) == {1: 2}
    assert [a.marker for a in found] == ["hand:1"]


def test_a_batch_without_its_deal_takes_the_hand_number_before_it() -> None:
    state = _state("sixty-six")
    events = [Event("hand_settled", {"settlement": {"winner_side": 1, "game_points": 2}}),
              Event("hand_dealt", {"hand_no": 5}),
              Event("hand_settled", {"settlement": {"winner_side": 0, "game_points": 1}})]
    found = awards(state, {}, events, 4, ["a", "b"])
    assert [(a.marker, a.points) for a in found] == [("hand:4", {1: 2}), ("hand:5", {0: 1})]
