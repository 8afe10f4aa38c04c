"""The Tausendeins computer's ranking of its candidates (the hint's answer): its best is the
level's choice, it holds legal actions only, sorted by their mean deal margin."""

from __future__ import annotations

import random

import pytest

from engine.tausendeins import legal_actions, view
from engine.tausendeins.ai import choose, rank
from tests.engine.tausendeins.test_ai import SMALL, positions

#: Methods that value several candidates.
VALUING = ("playouts", "solved", "bids", "exact")


@pytest.mark.parametrize("options", [{}, {"contract_deal": "musik"}, {"deal": "all"}])
def test_the_choice_is_the_top_of_the_ranking(options: dict[str, object]) -> None:
    """For many seeded views of every stage, each level's choice is the best of its ranking,
    the ranking holds only legal actions (once each), sorted by value."""
    checked = set()
    for seed in range(4):
        for state in positions(options, (SMALL["random"], SMALL["random"]), seed):
            seat = state.to_act()
            assert seat is not None
            seen = view(state, seat)
            legal = legal_actions(state, seat)
            for lv in SMALL.values():
                ranking = rank(seen, lv, random.Random(seed))
                assert choose(seen, lv, random.Random(seed)) == ranking.best
                actions = [a for a, _ in ranking.actions]
                assert set(actions) <= set(legal) and len(set(actions)) == len(actions)
                if ranking.method in VALUING:
                    values = [v for _, v in ranking.actions]
                    assert values == sorted(values, reverse=True)
                    assert len(actions) > 1 or ranking.method == "exact"
                checked.add((state.stage, ranking.method))
    stages = {stage for stage, _ in checked}
    assert {"auction", "play"} <= stages
    assert "musik" in stages or "contract_deal" not in options
    assert {"playouts", "bids", "random", "policy"} <= {method for _, method in checked}


def test_a_ranking_reads_as_json() -> None:
    for state in positions({}, (SMALL["easy"], SMALL["easy"]), 2)[:3]:
        seat = state.to_act()
        assert seat is not None
        out = rank(view(state, seat), SMALL["strong"], random.Random(1)).as_dict()
        assert out["best"] == out["actions"][0]["action"] and out["level"] == "strong"
        assert all(isinstance(a["expected_game_points"], float) for a in out["actions"])
        assert out["samples"] >= 1 and "points of deal margin" in out["reason"]
