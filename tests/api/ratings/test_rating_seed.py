"""The computer levels' shipped rating seed: what ``seed.json`` holds, loading it into an empty
store (through the API on a fresh server), never over a rating that exists, once when several
threads and processes load it at once, the seed's arena runs marked as rated, and
``sixtysix rating-seed`` writing it."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from api.arena import ArenaResult, BotStats
from api.cli import main
from api.games.computers import COMPUTER_LEVELS
from api.http.resources.ratings import EXAMPLE as RATINGS_EXAMPLE
from api.ratings import seed_make
from api.ratings.arena import arena_matches, rate_arena
from api.ratings.model import Rating
from api.ratings.seed import SEED_PATH, SeedError, VariantSeed, apply, parse, shipped
from api.ratings.seed_make import SCHEDULE
from api.ratings.store import RatingStore
from api.runtime.redis_server import EmbeddedRedis
from engine import VARIANTS
from engine.ai import RETIRED
from tests.conftest import worker_env

SEED = {"sixty-six": VariantSeed({"strong": Rating(31.0, 2.0, 9), "easy": Rating(22.0, 3.0, 4)},
                                 (("arena:sixty-six:strong:easy:1:6", 2),)),
        "schnapsen": VariantSeed({"normal": Rating(27.5, 2.5, 6)}, ())}


def _computers(redis_client: redis.Redis, variant: str) -> dict[str, Rating]:
    store = RatingStore(redis_client, seeded=False)
    return dict(store.page(variant, "computer", 0, 10))


def test_the_shipped_seed_rates_every_level_of_every_variant_from_arena_runs() -> None:
    seed = shipped()
    doc = json.loads(SEED_PATH.read_text(encoding="utf-8"))
    assert set(seed) == set(VARIANTS)
    for variant, entry in seed.items():
        assert set(entry.ratings) == set(COMPUTER_LEVELS) | set(RETIRED)
        recorded = doc["variants"][variant]
        assert recorded["command"].startswith(f"sixtysix rating-seed --variant {variant} ")
        assert [(r["a"], r["b"]) for r in recorded["runs"]] == list(SCHEDULE)
        assert all(r["output"][0].startswith(f"{variant}: {r['a']} (a) vs {r['b']} (b)")
                   for r in recorded["runs"])
        # every rated match moved both of its levels: a level's count is its runs' matches
        for level, rating in entry.ratings.items():
            assert rating.matches == sum(r["matches"] for r in recorded["runs"]
                                         if level in (r["a"], r["b"]))
        assert entry.ratings["strong"].mu > entry.ratings["random"].mu


def test_a_fresh_server_lists_the_seeded_levels(client: FlaskClient) -> None:
    seed = shipped()["sixty-six"].ratings
    body = client.get("/v1/ratings?variant=sixty-six&kind=computer").json
    assert body is not None
    listed = {r["id"]: (r["display"], r["mu"], r["matches"]) for r in body["ratings"]}
    assert listed == {level: (r.display, round(r.mu, 3), r.matches) for level, r in seed.items()}
    assert [r["place"] for r in body["ratings"]] == list(range(1, len(seed) + 1))
    ordinals = [r["ordinal"] for r in body["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_the_ratings_example_is_a_fresh_servers_answer(client: FlaskClient) -> None:
    answer = client.get("/v1/ratings?variant=schnapsen&kind=computer&limit=2")
    assert answer.json == RATINGS_EXAMPLE


def test_the_lobby_shows_a_seeded_level_on_a_fresh_server(client: FlaskClient) -> None:
    token = client.post("/v1/players", json={"name": "Ann"}).json["token"]  # type: ignore
    created = client.post("/v1/tables", headers={"Authorization": f"Bearer {token}"}, json={
        "variant": "schnapsen", "seats": [{"kind": "player"},
                                          {"kind": "computer", "level": "strong"}]})
    assert created.status_code == 201, created.json
    listed = client.get("/v1/tables?variant=schnapsen&status=playing").json
    assert listed is not None
    strong = shipped()["schnapsen"].ratings["strong"].display
    for seats in (listed["tables"][0]["seats"], created.json["seats"]):  # type: ignore[index]
        assert [s.get("rating") for s in seats] == [None, strong]


def test_loading_fills_only_missing_levels_and_marks_runs_of_a_full_load(
        redis_client: redis.Redis) -> None:
    store = RatingStore(redis_client, seeded=False)
    kept = Rating(40.0, 1.0, 50)
    assert store.commit("schnapsen", "game", "match:1", 0, [(("computer", "normal"), None, kept)])
    assert apply(redis_client, SEED) == {"sixty-six": 2, "schnapsen": 0}
    assert _computers(redis_client, "schnapsen") == {"normal": kept}  # never overwritten
    assert _computers(redis_client, "sixty-six") == SEED["sixty-six"].ratings
    assert apply(redis_client, SEED) == {"sixty-six": 0, "schnapsen": 0}  # idempotent
    assert _computers(redis_client, "sixty-six") == SEED["sixty-six"].ratings
    # sixty-six was loaded whole: its run's two matches count as rated, the third does not
    assert store.done("arena:sixty-six:strong:easy:1:6", "match:2")
    assert not store.done("arena:sixty-six:strong:easy:1:6", "match:3")


def test_an_arena_run_of_the_seed_is_not_rated_again(redis_client: redis.Redis) -> None:
    apply(redis_client, SEED)
    stats = [BotStats(bot, level, 6, 0, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0, 0, 0.0, 0.0)
             for bot, level in (("a", "strong"), ("b", "easy"))]
    result = ArenaResult("sixty-six", 1, 6, 7, (stats[0], stats[1]), (3, 6, 7, 10, 13, 14))
    assert arena_matches(result) == [0, 0]
    rated, ratings = rate_arena(RatingStore(redis_client, seeded=False), result)
    assert rated == 0 and ratings == {"strong": SEED["sixty-six"].ratings["strong"],
                                      "easy": SEED["sixty-six"].ratings["easy"]}


def test_threads_loading_at_once_write_the_seed_once(redis_server: EmbeddedRedis,
                                                     redis_client: redis.Redis) -> None:
    barrier = threading.Barrier(8)
    written: list[dict[str, int]] = []

    def load() -> None:
        own = redis.Redis.from_url(redis_server.url)
        try:
            barrier.wait(timeout=10)
            written.append(apply(own, SEED))
        finally:
            own.close()

    threads = [threading.Thread(target=load) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(written) == 8
    assert sorted(w["sixty-six"] for w in written) == [0] * 7 + [2]
    assert sorted(w["schnapsen"] for w in written) == [0] * 7 + [1]
    assert _computers(redis_client, "sixty-six") == SEED["sixty-six"].ratings


_APP_PROCESS = """
import json, sys
import redis
from api.app import create_app
app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False})
gate = redis.Redis.from_url(sys.argv[1])
gate.blpop(["gate"], timeout=30)  # every process starts its first read at once
body = app.test_client().get("/v1/ratings?variant=four-hand&kind=computer").json
print(json.dumps({r["id"]: [r["mu"], r["matches"]] for r in body["ratings"]}))
"""


def test_app_processes_starting_at_once_load_the_shipped_seed_once(
        redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    env = worker_env(redis_server.url)
    procs = [subprocess.Popen([sys.executable, "-c", _APP_PROCESS, redis_server.url], env=env,
                              stdout=subprocess.PIPE, text=True) for _ in range(4)]
    redis_client.rpush("gate", *["go"] * len(procs))
    outputs = [proc.communicate(timeout=120)[0] for proc in procs]
    assert [proc.returncode for proc in procs] == [0] * len(procs)
    seed = shipped()
    expected = {level: [round(r.mu, 3), r.matches]
                for level, r in seed["four-hand"].ratings.items()}
    assert [json.loads(out) for out in outputs] == [expected] * len(procs)
    for variant, entry in seed.items():  # each level written once, as shipped
        assert _computers(redis_client, variant) == dict(entry.ratings)


@pytest.mark.parametrize("doc", [{}, {"variants": {"x": {"ratings": {"easy": {"mu": 1}}}}},
                                 {"variants": {"x": {"ratings": {}, "runs": [{"source": 1}]}}}])
def test_a_broken_seed_file_is_a_seed_error(doc: dict[str, Any]) -> None:
    with pytest.raises(SeedError):
        parse(doc)


def test_rating_seed_writes_a_variant_from_its_arena_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seed_make, "SCHEDULE", SCHEDULE[:3])  # expert's run: too slow here
    out = tmp_path / "seed.json"
    out.write_text(json.dumps({"about": "", "variants": {"sixty-six": json.loads(
        SEED_PATH.read_text(encoding="utf-8"))["variants"]["sixty-six"]}}), encoding="utf-8")
    assert main(["rating-seed", "--variant", "four-hand", "--hands", "8,2,2", "--out", str(out),
                 "--no-progress"]) == 0
    printed = capsys.readouterr()
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert set(doc["variants"]) == {"sixty-six", "four-hand"}  # the other variant is kept
    entry = doc["variants"]["four-hand"]
    assert entry["command"] == ("sixtysix rating-seed --variant four-hand --hands 8,2,2 "
                                "--seed 1 --jobs 1")
    assert [(r["source"], r["hands"]) for r in entry["runs"]] == [
        ("arena:four-hand:easy:random:1:8", 8), ("arena:four-hand:normal:easy:1:2", 2),
        ("arena:four-hand:strong:normal:1:2", 2)]
    assert entry["runs"][0]["output"][0] in printed.err
    loaded = parse(doc)["four-hand"].ratings
    assert {level: r.display for level, r in loaded.items()} == {
        level: r["display"] for level, r in entry["ratings"].items()}
    assert f"four-hand: easy ≈ {loaded['easy'].display}" in printed.out
    assert loaded["easy"].matches == entry["runs"][0]["matches"] + entry["runs"][1]["matches"]


def test_rating_seed_extends_a_variant_with_the_pairs_it_lacks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "seed.json"
    args = ["rating-seed", "--variant", "sixty-six", "--out", str(out), "--no-progress"]
    with monkeypatch.context() as patched:
        patched.setattr(seed_make, "SCHEDULE", SCHEDULE[:3])
        assert main([*args, "--hands", "8,2,2"]) == 0
    before = json.loads(out.read_text(encoding="utf-8"))["variants"]["sixty-six"]
    assert main([*args, "--hands", "8,2,4,2", "--extend"]) == 2  # not the recorded chain
    assert "strong-normal was recorded with 2 hands" in capsys.readouterr().err
    assert main([*args, "--hands", "8,2,2,2", "--extend"]) == 0
    entry = json.loads(out.read_text(encoding="utf-8"))["variants"]["sixty-six"]
    assert entry["command"] == ("sixtysix rating-seed --variant sixty-six --hands 8,2,2,2 "
                                "--seed 1 --jobs 1 --extend")
    assert entry["runs"][:3] == before["runs"]  # kept, not replayed
    assert [(r["a"], r["b"], r["hands"]) for r in entry["runs"][3:]] == [("expert", "strong", 2)]
    for level in ("random", "easy", "normal"):
        assert entry["ratings"][level] == before["ratings"][level]
    new = entry["runs"][3]["matches"]
    assert entry["ratings"]["strong"]["matches"] == before["ratings"]["strong"]["matches"] + new
    assert entry["ratings"]["expert"]["matches"] == new
    assert set(parse({"variants": {"sixty-six": entry}})["sixty-six"].ratings) == {
        "random", "easy", "normal", "strong", "expert"}


def test_rating_seed_refuses_a_bad_schedule(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "seed.json"
    for hands in ("8,2", "8,x,2", "8,3,2"):
        assert main(["rating-seed", "--variant", "four-hand", "--hands", hands, "--out",
                     str(out), "--no-progress"]) == 2
        assert "--hands" in capsys.readouterr().err
    assert not out.exists()
