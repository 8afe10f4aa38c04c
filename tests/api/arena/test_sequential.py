"""The arena's sequential test: anytime-valid interval of a's share, stopping rule."""

from __future__ import annotations

import json
import math
import random

import pytest

from api import arena
from api.arena.sequential import MIN_PAIRS, SequentialShare, half_width_factor
from api.cli import main


def test_the_boundary_is_wider_than_a_fixed_interval_and_shrinks() -> None:
    # tuned for 150 pairs: about 1.5 times the fixed-n 1.96 there, never narrower
    at_plan = half_width_factor(150, 0.05, 150) * math.sqrt(150)
    assert 1.96 * 1.4 < at_plan < 1.96 * 1.7
    for n in (20, 50, 500, 5000):
        assert half_width_factor(n, 0.05, 150) * math.sqrt(n) > 1.96
    assert half_width_factor(400, 0.05, 150) < half_width_factor(100, 0.05, 150)
    assert half_width_factor(100, 0.01, 150) > half_width_factor(100, 0.05, 150)


def test_share_and_interval_of_known_pairs() -> None:
    test = SequentialShare(min_pairs=2)
    test.add(3, 1)
    last = test.add(1, 3)
    assert last.share == 0.5 and last.low < 0.5 < last.high and not last.decided
    for _ in range(30):
        last = test.add(4, 1)
    assert last.pairs == 32
    assert last.share == pytest.approx((4 + 30 * 4) / (8 + 30 * 5))
    assert last.low <= last.share <= last.high and last.low > 0.5 and last.decided


def test_it_never_stops_before_the_minimum_of_pairs() -> None:
    test = SequentialShare()
    results = [test.add(3, 0) for _ in range(MIN_PAIRS)]
    assert not any(r.decided for r in results[:-1]) and results[-1].decided


def test_equal_bots_rarely_stop_at_any_look() -> None:
    """Two equal bots (pairs drawn from one distribution): the interval covers 50% at every
    look in nearly all of 200 runs of 300 pairs (the level is 5%)."""
    rng = random.Random(3)
    stopped = 0
    for _ in range(200):
        test = SequentialShare()
        for _ in range(300):
            if test.add(rng.choice((0, 1, 2, 3)), rng.choice((0, 1, 2, 3))).decided:
                stopped += 1
                break
    assert stopped <= 200 * 0.05


def test_a_clear_difference_stops_early() -> None:
    rng = random.Random(4)
    test = SequentialShare()
    for _ in range(300):
        last = test.add(rng.choice((1, 2, 3, 3)), rng.choice((0, 1, 1, 2)))
        if last.decided:
            break
    assert last.decided and last.pairs < 100 and last.low > 0.5


def test_the_arena_stops_once_the_test_decides(capsys: pytest.CaptureFixture[str]) -> None:
    result = arena.run("easy", "random", 400, seed=1, sequential=True)
    seq = result.sequential
    assert seq is not None and seq.decided and seq.low > 0.5
    assert result.hands == 2 * seq.pairs < 400
    assert seq.share == pytest.approx(result.bots[0].game_point_share)
    capped = arena.run("random", "random", 8, seed=1, sequential=True)
    assert capped.hands == 8 and capped.sequential is not None
    assert not capped.sequential.decided
    assert main(["arena", "--a", "easy", "--b", "random", "--hands", "400", "--sequential",
                 "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sequential"]["decided"] and data["hands"] < 400  # easy's budget is CPU time
    assert main(["arena", "--a", "easy", "--b", "random", "--hands", "400",
                 "--sequential"]) == 0
    out, err = capsys.readouterr()
    assert "sequential test: easy's share of game points" in out and "stopped" in out
    assert "a's share" in err  # the running figures on the progress bar


def test_a_bad_alpha_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "random", "--b", "random", "--hands", "2", "--sequential",
                 "--alpha", "1.5"]) == 2
    assert "--alpha must lie strictly between 0 and 1" in capsys.readouterr().err


def test_a_time_limit_stops_after_the_deal_in_play(capsys: pytest.CaptureFixture[str]) -> None:
    result = arena.run("random", "random", 40, seed=2, sequential=True, max_minutes=1e-9)
    assert result.hands == 2 and result.sequential is not None
    assert main(["arena", "--a", "random", "--b", "random", "--hands", "2", "--sequential",
                 "--max-minutes", "0"]) == 2
    assert "--max-minutes must be positive" in capsys.readouterr().err
