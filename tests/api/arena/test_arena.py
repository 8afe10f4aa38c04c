"""The arena: seating, duplicate deals, figures, outputs (random levels keep it quick)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from api import arena
from api.cli import main
from engine.ai import level_variant
from engine.rules import find_variant

RANDOM = level_variant("random")


def test_seating_of_every_variant() -> None:
    two = find_variant("sixty-six")
    assert arena.bot_of_seat(two, 1, False) == {0: 0, 1: 1}  # a is forehand
    assert arena.bot_of_seat(two, 1, True) == {0: 1, 1: 0}
    three = find_variant("three-hand")
    assert arena.bot_of_seat(three, 2, False) == {0: 0, 1: 1}  # the dealer sits out
    assert arena.bot_of_seat(three, 0, True) == {1: 1, 2: 0}
    four = find_variant("four-hand")
    assert arena.bot_of_seat(four, 3, False) == {0: 0, 1: 1, 2: 0, 3: 1}  # pairs
    assert arena.bot_of_seat(four, 3, True) == {0: 1, 1: 0, 2: 1, 3: 0}


def test_each_deal_is_played_twice_with_the_seats_swapped() -> None:
    tasks = arena.deals("sixty-six", (RANDOM, RANDOM), 6, seed=5)
    assert [t.deal for t in tasks] == [0, 1, 2]
    assert len({t.deck for t in tasks}) == 3
    assert tasks == arena.deals("sixty-six", (RANDOM, RANDOM), 6, seed=5)
    hands = list(arena.play_all(tasks, jobs=1, progress=False))
    assert [(h.deal, h.swapped) for h in hands] == [
        (0, False), (0, True), (1, False), (1, True), (2, False), (2, True)]
    for h in hands:
        assert min(h.points) == 0 and max(h.points) <= 3
        assert h.ms[0] and h.ms[1]


def test_results_depend_on_the_seed_only_not_on_the_jobs() -> None:
    one = arena.run("random", "random", 12, "schnapsen", seed=7, jobs=1)
    two = arena.run("random", "random", 12, "schnapsen", seed=7, jobs=2)
    assert one.cumulative_difference == two.cumulative_difference
    assert [(b.game_points, b.hands_won, b.matches_won) for b in one.bots] == [
        (b.game_points, b.hands_won, b.matches_won) for b in two.bots]


@pytest.mark.parametrize("variant", ["sixty-six", "schnapsen", "three-hand", "four-hand"])
def test_figures_add_up(variant: str) -> None:
    result = arena.run("easy", "random", 8, variant, seed=2)
    a, b = result.bots
    assert (a.level, b.level, a.hands, b.hands) == ("easy", "random", 8, 8)
    assert a.hands_won + b.hands_won <= 8
    assert a.game_points - b.game_points == result.cumulative_difference[-1]
    assert len(result.cumulative_difference) == 8
    for s in result.bots:
        assert s.game_points_per_hand == s.game_points / 8
        assert s.win_rate_low <= s.win_rate <= s.win_rate_high
        assert s.moves > 0 and s.mean_ms > 0 and s.p95_ms > 0
    if a.game_points + b.game_points:
        assert a.game_point_share + b.game_point_share == pytest.approx(1)


def test_summary_of_known_hands() -> None:
    hands = [arena.HandResult(i // 2, bool(i % 2), pts, ((1.0, 3.0), (2.0,)))
             for i, pts in enumerate([(3, 0), (0, 2), (2, 0), (0, 0), (3, 0), (0, 1)])]
    result = arena.summarize("sixty-six", 1, ("strong", "normal"), hands)
    a, b = result.bots
    assert (a.game_points, b.game_points) == (8, 3)
    assert (a.hands_won, b.hands_won) == (3, 2)
    assert a.matches_won == 1 and b.matches_won == 0  # 3, 5, 8 ≥ 7; then 0:1
    assert result.cumulative_difference == (3, 1, 3, 3, 6, 5)
    assert (a.moves, a.mean_ms, a.p95_ms) == (12, 2.0, 3.0)
    assert a.game_point_share == pytest.approx(8 / 11)


def test_statistics_helpers() -> None:
    low, high = arena.wilson(7, 10)
    assert (round(low, 4), round(high, 4)) == (0.3968, 0.8922)
    assert arena.wilson(0, 0) == (0.0, 1.0)
    assert arena.wilson(10, 10)[1] == pytest.approx(1.0)
    assert arena.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 95) == 5.0
    assert arena.percentile(list(map(float, range(1, 101))), 95) == 95.0
    assert arena.matches_won([(3, 0), (0, 3), (3, 0), (0, 3), (2, 0), (0, 3), (0, 3), (0, 1)],
                             7) == (1, 1)  # 8:6 for a; then 0:7 for b


def test_cli_text_json_csv(capsys: pytest.CaptureFixture[str]) -> None:
    common = ["arena", "--a", "random", "--b", "easy", "--hands", "4", "--seed", "3"]
    assert main(common) == 0
    out, err = capsys.readouterr()
    assert "random (a) vs easy (b), 4 hands" in out and "a random" in out and "b easy" in out
    assert "4/4" in err  # the progress bar goes to stderr
    assert main([*common, "--json", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert err == ""
    assert (data["hands"], data["deals"], data["match_points"]) == (4, 2, 7)
    assert [b["level"] for b in data["bots"]] == ["random", "easy"]
    assert main([*common, "--csv", "--no-progress"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["bot"] for r in rows] == ["a", "b"]
    assert tuple(rows[0]) == arena.CSV_FIELDS


def test_a_bot_may_be_a_variant_of_a_level() -> None:
    result = arena.run("easy:feel=0,forget=0", "random", hands=2, seed=4)
    assert [b.level for b in result.bots] == ["easy:feel=0,forget=0", "random"]
    assert sum(b.hands_won for b in result.bots) <= 2 and result.bots[0].moves > 0


def test_cli_plot(tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "cumulative.png"  # type: ignore[operator]
    assert main(["arena", "--a", "random", "--b", "random", "--hands", "6", "--plot", str(png),
                 "--no-progress"]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(("args", "message"), [
    (["--hands", "5"], "--hands must be even"),
    (["--a", "grandmaster"], "unknown level 'grandmaster'"),
    (["--b", "strong:patience=3"], "level 'strong' has no setting 'patience'"),
    (["--variant", "skat"], "skat"),
    (["--jobs", "0"], "--jobs must be at least 1"),
])
def test_cli_refuses_bad_settings(capsys: pytest.CaptureFixture[str], args: list[str],
                                  message: str) -> None:
    assert main(["arena", "--a", "random", "--b", "random", "--hands", "2", *args]) == 2
    assert message in capsys.readouterr().err


def test_cpu_time_per_move_median_and_p99() -> None:
    hands = [arena.HandResult(0, False, (3, 0), ((9.0,) * 4, (1.0,)),
                              ((1.0, 2.0, 3.0, 40.0), (5.0,))),
             arena.HandResult(0, True, (0, 1), ((9.0,), (1.0,)), ((4.0,), (6.0,)))]
    a, b = arena.summarize("sixty-six", 1, ("strong", "strong_v1"), hands).bots
    assert (a.median_cpu_ms, a.p99_cpu_ms) == (3.0, 40.0)
    assert (b.median_cpu_ms, b.p99_cpu_ms) == (5.0, 6.0)
    text = arena.render_text(arena.summarize("sixty-six", 1, ("strong", "strong_v1"), hands))
    assert "CPU ms per move, median/p99: strong 3/40, strong_v1 5/6" in text
