"""python -m api.arena.strength: sequential arenas merged into the JSON, rendered as markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
    assert f"| random vs random | {strength.engine_path()} | 6 (3) of at most 6 |" in table
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
    data.write_text(json.dumps({strength.CAPACITY: {"compiled": figures}}))
    assert strength.main(["--pairs", "random:random", "--hands", "2", "--json", str(data),
                          "--out", str(out), "--no-progress"]) == 0
    assert json.loads(data.read_text())[strength.CAPACITY] == {"compiled": figures}
    table = out.read_text()
    assert ("| compiled | strong | 3 s, 1.5 s | 6 | 0.31 s, 1.20 s | 4.5 | 0.50 | 8 games: p99 "
            "2.50 s, 0.75 cores | 8 | 3.5-6.0 | 2026-12-02 02:00 UTC | `python -m "
            "tests.bench.bench_capacity --paths compiled` |") in table
    assert table.index("| random vs random |") < table.index("| compiled | strong |")
