"""python -m api.arena.strength: sequential arenas merged into the JSON, rendered as markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api import arena
from api.arena import strength
from engine import native


def test_table_is_measured_merged_and_rendered(tmp_path: Path) -> None:
    data, out = tmp_path / "strength.json", tmp_path / "strength.md"
    common = ["--hands", "400", "--json", str(data), "--out", str(out), "--no-progress"]
    assert strength.main(["--pairs", "easy:random", *common]) == 0
    assert strength.main(["--pairs", "random:random", "easy:feel=0/random", "--hands", "6",
                          "--jobs", "2", *common[2:]]) == 0
    path = strength.engine_path()
    by_pair = {strength.pair_key(a, b, path): f"{a} vs {b}" for a, b in (
        ("easy", "random"), ("random", "random"), ("easy:feel=0", "random"))}
    entries = {by_pair[k]: v for k, v in json.loads(data.read_text()).items()}
    assert set(entries) == {"easy vs random", "random vs random", "easy:feel=0 vs random"}
    easy = entries["easy vs random"]
    assert easy["sequential"]["decided"] and easy["hands"] < 400
    assert entries["random vs random"]["hands"] == 6
    assert easy["engine"] == strength.engine_path() and easy["jobs"] == 1
    assert entries["random vs random"]["jobs"] == 2
    assert entries["random vs random"]["hands_per_minute"] > 0
    table = out.read_text()
    assert "| easy vs random |" in table and "a stronger" in table
    assert (f"| random vs random | sixty-six | {strength.engine_path()} | 6 (3) of at most 6 |"
            in table)
    assert f"| {entries['random vs random']['hands_per_minute']:.1f} (2) |" in table
    assert "undecided (50% inside)" in table
    assert table.index("easy vs random") < table.index("random vs random")
    tag = "" if path == strength.PURE else f" ({path})"
    assert f"| easy{tag} |" in table and f"| random{tag} |" in table  # think time per level
    assert strength.render(json.loads(data.read_text())) == table


def test_bad_pairs_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="--pairs takes A:B"):
        strength.main(["--pairs", "strong", "--json", str(tmp_path / "j"),
                       "--out", str(tmp_path / "m")])
    with pytest.raises(SystemExit, match="unknown level 'master'"):
        strength.main(["--pairs", "master:random", "--json", str(tmp_path / "j"),
                       "--out", str(tmp_path / "m")])


def test_engine_paths_are_kept_apart() -> None:
    compiled = native.describe() == "compiled, mypyc"
    assert strength.engine_path() == (strength.COMPILED if compiled else strength.PURE)
    assert strength.pair_key("a", "b", strength.PURE) == "a vs b"
    assert strength.pair_key("a", "b", strength.COMPILED) == "a vs b (compiled)"


def test_capacity_figures_are_kept_and_rendered_apart_from_the_pairings(tmp_path: Path) -> None:
    data, out = tmp_path / "strength.json", tmp_path / "strength.md"
    figures = {"path": "compiled", "games": 6, "worker_cores": 0.5, "failed_games": 8,
               "failed_p99_s": 2.5, "failed_worker_cores": 0.75,
               "p50_s": 0.31, "p99_s": 1.2, "hands_per_minute": 4.5, "model_games": 8,
               "load_average": [3.5, 6.0], "level": "strong", "human_seconds": 3.0,
               "limit": 1.5, "measured": "2026-12-02 02:00 UTC",
               "command": "python -m tests.bench.bench_capacity --paths compiled"}
    ramp = [{"games": 4, "playing": 4, "refused": 0, "p50_s": 0.2, "p99_s": 0.9},
            {"games": 8, "playing": 6, "refused": 3, "p50_s": 0.4, "p99_s": 1.4}]
    pure = {**figures, "path": "pure", "ramp": ramp}  # measured since replies have deadlines
    data.write_text(json.dumps({strength.CAPACITY: {"compiled": figures, "pure": pure}}))
    assert strength.main(["--pairs", "random:random", "--hands", "2", "--json", str(data),
                          "--out", str(out), "--no-progress"]) == 0
    assert json.loads(data.read_text())[strength.CAPACITY] == {"compiled": figures, "pure": pure}
    table = out.read_text()
    assert ("| compiled | strong | 3 s, 1.5 s | 6 | 0.31 s, 1.20 s | 4.5 | 0.50 | 8 games: p99 "
            "2.50 s, 0.75 cores | 8 | n/a | 3.5-6.0 | 2026-12-02 02:00 UTC | `python -m "
            "tests.bench.bench_capacity --paths compiled` |") in table
    assert ("| 8 | 4: 0.90 s, 4 playing, 0 refused; 8: 1.40 s, 6 playing, 3 refused | 3.5-6.0 "
            "|") in table
    assert table.index("| random vs random |") < table.index("| compiled | strong |")


def test_pairings_of_other_games_and_packs_are_measured_and_named(tmp_path: Path) -> None:
    data, out = tmp_path / "strength.json", tmp_path / "strength.md"
    old = {"variant": "sixty-six", "seed": 1, "hands": 2, "deals": 1, "cap_hands": 2,
           "measured": "2026-12-01 00:00 UTC",
           "sequential": {"pairs": 1, "share": 0.5, "low": 0.0, "high": 1.0, "decided": False},
           "bots": [{"level": lv, "game_points": 1, "hands_won": 1, "win_rate": 0.5,
                     "win_rate_low": 0.1, "win_rate_high": 0.9, "median_cpu_ms": 1.0,
                     "p99_cpu_ms": 2.0, "moves": 9} for lv in ("easy", "random")]}
    other = dict(old, bots=old["bots"][::-1])  # not a pairing of the table's
    data.write_text(json.dumps({"easy vs random": old, "random vs easy": other}))
    assert strength.main(["--pairs", "easy:random@tausendeins", "easy:random@deck=32",
                          "--hands", "4", "--json", str(data), "--out", str(out),
                          "--no-progress"]) == 0
    path = strength.engine_path()
    entries = json.loads(data.read_text())
    t1001 = entries[strength.pair_key("easy", "random", path, "tausendeins")]
    deck32 = entries[strength.pair_key("easy", "random", path, "sixty-six,deck=32")]
    assert entries["easy vs random"] == old  # an older entry keeps its meaning: no game
    assert t1001["game"] == "tausendeins" and deck32["game"] == "sixty-six,deck=32"
    assert t1001["hands"] == 4 and t1001["deals"] == 2 and deck32["hands"] == 4
    a, b = t1001["bots"]
    # per pair a's scores and b's sum to 1: a's share is its mean deal score
    assert t1001["sequential"]["share"] == pytest.approx(a["deal_share"])
    assert a["deal_share"] + b["deal_share"] == pytest.approx(1)
    assert a["game_points"] == -b["game_points"]
    assert t1001["mean_margin"] == pytest.approx(a["game_points"] / 4)
    assert a["moves"] > 0 and a["median_cpu_ms"] > 0 and t1001["hands_per_minute"] > 0
    table = out.read_text()
    rows = [f"| easy vs random | {game} | {engine} | {hands} of at most {hands[0]} |"
            for game, engine, hands in (("sixty-six", "pure", "2 (1)"),
                                        ("sixty-six,deck=32", path, "4 (2)"),
                                        ("tausendeins", path, "4 (2)"))]
    assert all(row in table for row in rows)
    assert [table.index(row) for row in rows] == sorted(table.index(row) for row in rows)
    assert table.index("| random vs easy | sixty-six |") < table.index(rows[1])  # by game
    assert f"margin {t1001['mean_margin']:+.1f} ± " in table
    assert "0.5 at equal" in table
    tag = "" if path == strength.PURE else f" ({path})"
    assert f"| easy{tag} @tausendeins |" in table and "| easy |" in table
    out.write_text("")
    assert strength.main(["--pairs", "--json", str(data), "--out", str(out)]) == 0
    assert out.read_text() == table and json.loads(data.read_text()) == entries


def test_the_32_card_pack_deals_32_cards() -> None:
    level = arena.level_variant("random")
    assert len(arena.deals("sixty-six", (level, level), 2, 1, {"deck": 32})[0].deck) == 32
    assert len(arena.deals("sixty-six", (level, level), 2, 1)[0].deck) == 24


@pytest.mark.parametrize(("spec", "message"), [
    ("random:random@tausendeins,deck=32", "unknown option 'deck' for"),
    ("random:random@deck=20", "deck"),
    ("random:random@", "--pairs takes A:B"),
    ("random:random@deck=32,tausendeins", "names its variant first"),
    ("master:random@tausendeins", "unknown level 'master'"),
])
def test_bad_games_are_refused(tmp_path: Path, spec: str, message: str) -> None:
    with pytest.raises(SystemExit, match=message):
        strength.main(["--pairs", spec, "--hands", "2", "--json", str(tmp_path / "j"),
                       "--out", str(tmp_path / "m")])
