"""Ratings, the leaderboard, tour stamps and table results kept in the database (SQLite and
PostgreSQL): a rated match lands once however often its notes are drained, Redis's keys
come back from the database (on first read, and by ``sixtysix admin rebuild``) with the same
answers over HTTP, the database down delays nothing but its own rows, and the migration
copies what Redis alone kept."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, func, select

from api.app import close_app, create_app
from api.archive import durable
from api.archive.schema import (
    leaderboard_awards,
    leaderboard_hands,
    leaderboard_points,
    rated_matches,
    ratings,
    table_results,
    tour_stamps,
)
from api.archive.store import Archive
from api.cli import main
from api.keys import RATINGS_TAG, slot_meta_key
from api.leaderboard.store import Increment, month_of
from api.outbox import BOXES, FACTS, LEADERBOARD, RATINGS
from api.ratings.model import Rating
from api.ratings.seed import shipped
from api.ratings.service import rate_match
from api.ratings.store import RatingStore
from api.runtime.redis_server import EmbeddedRedis
from api.tour.store import TourStore
from api.worker.run import build_context, store_standings
from tests.api.lobby_helpers import join, new_player, new_table, play_to_end, seat_tokens, table
from tests.api.rank_helpers import me
from tests.postgres import Postgres

TABLES = (ratings, rated_matches, leaderboard_points, leaderboard_hands, leaderboard_awards,
          tour_stamps, table_results)


def _app(redis_url: str, database_url: str | None) -> Flask:
    config: dict[str, Any] = {"TESTING": True, "REDIS_URL": redis_url,
                              "RATELIMIT_ENABLED": False, "SIXTYSIX_ARCHIVE_WEB_DRAIN": 0}
    if database_url is not None:
        config["DATABASE_URL"] = database_url
    return create_app(config)


@pytest.fixture
def app(redis_server: EmbeddedRedis, redis_client: redis.Redis, database_url: str,
        ) -> Iterator[Flask]:
    application = _app(redis_server.url, database_url)
    yield application
    close_app(application)


def _engine(app: Flask) -> Engine:
    engine: Engine = app.extensions["sixtysix"].archiver.archive.engine
    return engine


def _human_match(client: FlaskClient, seed: int = 1,
                 players: list[tuple[str, str]] | None = None,
                 ) -> tuple[list[tuple[str, str]], str]:
    """A rated sixty-six table match of two human players (``players``, by default new ones),
    played to its end through ``client`` alone (no worker's save): the players (id, token)
    and the table id."""
    if players is None:
        players = _new_players(client, seed)
    table_id = new_table(client, players[0][1], variant="sixty-six", match_points=3,
                         seats=[{"kind": "player"}, {"kind": "open"}])["table_id"]
    join(client, players[1][1], table_id)
    game_id, tokens = seat_tokens(client, table_id, [t for _, t in players])
    play_to_end(client, game_id, tokens, random.Random(seed))
    table(client, table_id)
    return players, table_id


def _new_players(client: FlaskClient, seed: int) -> list[tuple[str, str]]:
    return [new_player(client, f"Player {seed}{i}") for i in range(2)]


def _rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    with engine.connect() as conn:
        return {t.name: sorted(tuple(r) for r in conn.execute(select(t)).all())
                for t in TABLES}


def _answers(client: FlaskClient, players: list[tuple[str, str]]) -> list[Any]:
    """What the ratings, the leaderboard and the players' pages answer."""
    out: list[Any] = []
    for path in ("/v1/ratings?variant=sixty-six", "/v1/ratings?variant=sixty-six&kind=computer",
                 "/v1/leaderboard?limit=100", "/v1/leaderboard?variant=sixty-six",
                 "/v1/leaderboard?period=month"):
        response = client.get(path)
        assert response.status_code == 200, response.json
        out.append((path, response.json))
    out += [me(client, token) for _, token in players]
    return out


def _drain_all(redis_client: redis.Redis, engine: Engine) -> None:
    durable.drain(redis_client, engine)
    assert all(redis_client.llen(box.key) == 0 for box in BOXES)


def test_the_web_tier_writes_the_outboxes_while_no_worker_runs(
        redis_server: EmbeddedRedis, redis_client: redis.Redis, database_url: str) -> None:
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                      "RATELIMIT_ENABLED": False, "DATABASE_URL": database_url,
                      "SIXTYSIX_ARCHIVE_WEB_DRAIN": 0.1})
    try:
        client = app.test_client()
        players, table_id = _human_match(client)

        def written() -> bool:
            assert client.get("/readyz").status_code == 200  # a request pokes the drain
            return all(redis_client.llen(box.key) == 0 for box in BOXES)

        deadline = time.monotonic() + 30
        while not written():
            assert time.monotonic() < deadline, "the web tier never wrote the outboxes"
            time.sleep(0.1)
        rows = _rows(_engine(app))
        assert {r[2] for r in rows["ratings"] if r[1] == "human"} == {p for p, _ in players}
        assert [r[1] for r in rows["table_results"]] == [table_id]
    finally:
        close_app(app)


def test_a_match_is_rated_and_counted_once_however_often_its_notes_are_drained(
        app: Flask, redis_client: redis.Redis) -> None:
    client = app.test_client()
    players, table_id = _human_match(client)
    engine = _engine(app)
    notes = {box.key: redis_client.lrange(box.key, 0, -1) for box in BOXES}
    kinds = [json.loads(e)["t"] for e in notes[RATINGS.key]]
    assert kinds.count("rate") == 1  # the match rated once (the others: the levels' seed)
    assert notes[LEADERBOARD.key] and notes[FACTS.key]
    _drain_all(redis_client, engine)
    first = _rows(engine)
    for key, entries in notes.items():  # every note delivered again, and drained again
        redis_client.rpush(key, *entries)
    _drain_all(redis_client, engine)
    assert _rows(engine) == first
    for key, entries in notes.items():  # and again, by two workers at once
        redis_client.rpush(key, *entries)
    drains = [threading.Thread(target=durable.drain, args=(redis_client, engine))
              for _ in range(2)]
    for thread in drains:
        thread.start()
    for thread in drains:
        thread.join()
    _drain_all(redis_client, engine)
    assert _rows(engine) == first
    mine = {p: me(client, t)["ratings"]["sixty-six"] for p, t in players}
    kept = {r[2]: r for r in first["ratings"] if r[1] == "human"}
    assert {p: (round(kept[p][3], 3), round(kept[p][4], 3), kept[p][5]) for p in mine} == {
        p: (r["mu"], r["sigma"], r["matches"]) for p, r in mine.items()}
    assert all(r[5] == 1 for r in kept.values())
    assert [r[0] for r in first["rated_matches"] if not r[0].startswith("arena:")] == [
        f"{table_id}.1"]
    board = client.get("/v1/leaderboard?limit=100").json
    assert board is not None
    assert sorted((r[3], r[4]) for r in first["leaderboard_points"]
                  if r[1:3] == ("all", "all")) == sorted(
        (e["player_id"], e["points"]) for e in board["entries"])
    assert [(r[0], r[1], r[2]) for r in first["table_results"]] == [
        (f"{table_id}.1", table_id, "sixty-six")]


def _drop_cache(redis_client: redis.Redis) -> int:
    """Delete every key of the ratings' and the leaderboard's slots and of the tour."""
    found = [k for pattern in ("sixtysix:ratings:*", "sixtysix:leaderboard:*",
                               "sixtysix:tour*") for k in redis_client.scan_iter(pattern)]
    return int(redis_client.delete(*found))


def test_the_cache_comes_back_from_the_database_with_the_same_answers(
        app: Flask, redis_server: EmbeddedRedis, redis_client: redis.Redis,
        database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    client = app.test_client()
    players, _ = _human_match(client)
    _drain_all(redis_client, _engine(app))
    before = _answers(client, players)
    assert before[0][1]["ratings"] and before[2][1]["entries"]
    assert _drop_cache(redis_client) > 0
    assert _answers(client, players) == before  # loaded on first read
    assert main(["admin", "rebuild", "--redis-url", redis_server.url,
                 "--database-url", database_url]) == 0
    assert "ratings" in capsys.readouterr().out
    assert _answers(client, players) == before
    redis_client.zadd("sixtysix:ratings:{ratings}:sixty-six:human", {"stray": 99})
    assert main(["admin", "rebuild", "--redis-url", redis_server.url,
                 "--database-url", database_url]) == 0
    assert _answers(client, players) == before  # a rebuild replaces what Redis had


def test_tour_stamps_come_back_on_first_read(app: Flask, redis_client: redis.Redis) -> None:
    tours: TourStore = app.extensions["sixtysix"].tour
    assert tours.stamp("p1", "vienna")
    stamped = tours.progress("p1")["stamp:vienna"]
    _drain_all(redis_client, _engine(app))
    _drop_cache(redis_client)
    assert tours.progress("p1")["stamp:vienna"] == stamped


def test_ratings_go_on_in_redis_with_the_database_down_and_land_once_it_is_back(
        postgres_server: Postgres, postgres_url: str, redis_server: EmbeddedRedis,
        redis_client: redis.Redis) -> None:
    app = _app(redis_server.url, postgres_url)
    try:
        client = app.test_client()
        engine = _engine(app)
        client.get("/v1/ratings?variant=sixty-six")  # the cache loaded, the seed noted
        _drain_all(redis_client, engine)
        players = _new_players(client, 1)  # a new account needs the database (its source)
        postgres_server.stop()
        try:
            _human_match(client, 1, players)  # every action answered 200
            assert durable.drain(redis_client, engine) == {}
            assert redis_client.llen(RATINGS.key) == 1
        finally:
            postgres_server.start()
        # the profiles (their counts from the database) read before the drain: Redis's
        rated = {p: me(client, t)["ratings"]["sixty-six"] for p, t in players}
        assert all(r["matches"] == 1 for r in rated.values())
        assert redis_client.llen(RATINGS.key) == 1
        _drain_all(redis_client, engine)
        rows = {r[2]: r for r in _rows(engine)["ratings"] if r[1] == "human"}
        assert {p: (round(rows[p][3], 3), rows[p][5]) for p in rated} == {
            p: (r["mu"], r["matches"]) for p, r in rated.items()}
    finally:
        close_app(app)


def test_the_migration_copies_what_redis_alone_kept_once(
        redis_server: EmbeddedRedis, redis_client: redis.Redis, database_url: str) -> None:
    legacy = _app(redis_server.url, None)  # no database: Redis alone
    try:
        client = legacy.test_client()
        players, table_id = _human_match(client)
        TourStore(redis_client).stamp(players[0][0], "vienna")
        before = _answers(client, players)
    finally:
        close_app(legacy)
    assert all(redis_client.llen(box.key) == 0 for box in BOXES)  # nothing noted
    archive = Archive.open(database_url)
    try:
        counts = durable.migrate_standings(redis_client, archive)
        first = _rows(archive.engine)
        assert counts["table_results"] == len(first["table_results"]) == 1
        assert counts["tour_stamps"] == len(first["tour_stamps"]) == 1
        assert counts["ratings"] == len(first["ratings"]) > 2  # the players and the levels
        assert len(first["rated_matches"]) == counts["rated_matches"]
        assert f"{table_id}.1" in {r[0] for r in first["rated_matches"]}
        assert first["leaderboard_awards"] and first["leaderboard_points"]
        durable.migrate_standings(redis_client, archive)
        assert _rows(archive.engine) == first  # once
    finally:
        archive.close()
    app = _app(redis_server.url, database_url)
    try:
        client = app.test_client()
        _drop_cache(redis_client)
        assert _answers(client, players) == before
    finally:
        close_app(app)


def test_an_outbox_that_overflowed_is_replaced_by_a_copy_of_its_slot(
        app: Flask, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("api.leaderboard.store.OUTBOX_CAP", 1)
    client = app.test_client()
    players, _ = _human_match(client)
    assert int(redis_client.get(LEADERBOARD.overflow) or 0) > 0
    engine = _engine(app)
    _drain_all(redis_client, engine)
    assert not redis_client.exists(LEADERBOARD.overflow)
    board = client.get("/v1/leaderboard?limit=100").json
    assert board is not None
    with engine.connect() as conn:
        kept = dict(conn.execute(select(leaderboard_points.c.player_id,
                                        leaderboard_points.c.points).where(
            leaderboard_points.c.period == "all",
            leaderboard_points.c.variant == "all")).all())
        awards = conn.execute(select(func.count()).select_from(leaderboard_awards)).scalar()
    assert kept == {e["player_id"]: e["points"] for e in board["entries"]}
    assert awards == len(redis_client.hkeys(
        next(iter(redis_client.scan_iter("sixtysix:leaderboard:{leaderboard}:done:*")))))
    assert {p for p, _ in players} <= set(kept)


def test_a_workers_sweep_writes_the_outboxes(
        app: Flask, redis_server: EmbeddedRedis, redis_client: redis.Redis,
        database_url: str) -> None:
    _human_match(app.test_client())
    ctx = build_context(redis_server.url, redis_server.url, database_url=database_url)
    try:
        waiting = sum(int(redis_client.llen(box.key)) for box in BOXES)
        assert waiting > 0
        assert store_standings(ctx) == waiting
        assert all(redis_client.llen(box.key) == 0 for box in BOXES)
        assert _rows(_engine(app))["rated_matches"]
    finally:
        ctx.queue.close()
        assert ctx.archiver is not None
        ctx.archiver.archive.close()


def test_a_rating_keeps_the_write_with_more_matches_whatever_the_order(
        database_url: str) -> None:
    archive = Archive.open(database_url)

    def entry(mu: float, matches: int) -> dict[str, Any]:
        return {"t": "rate", "variant": "schnapsen", "at": 1,
                "markers": [["g", f"match:{matches}"]],
                "ratings": [["human", "p1", mu, 7.0, matches]]}

    try:
        for order in ([entry(26.0, 1), entry(27.0, 2)], [entry(27.0, 2)], [entry(26.0, 1)]):
            with archive.engine.begin() as conn:
                durable.write_ratings(conn, order)
        with archive.engine.connect() as conn:
            assert conn.execute(select(ratings.c.mu, ratings.c.matches)).all() == [(27.0, 2)]
            assert conn.execute(select(func.count()).select_from(rated_matches)).scalar() == 2
    finally:
        archive.close()


def test_arena_rate_with_a_database_lands_there(
        redis_server: EmbeddedRedis, redis_client: redis.Redis, database_url: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "easy", "--b", "random", "--hands", "20", "--json",
                 "--no-progress", "--rate", "--redis-url", redis_server.url,
                 "--database-url", database_url]) == 0
    capsys.readouterr()
    archive = Archive.open(database_url)
    try:
        _drain_all(redis_client, archive.engine)
        with archive.engine.connect() as conn:
            kept = {r.id: Rating(r.mu, r.sigma, r.matches) for r in conn.execute(
                select(ratings).where(ratings.c.variant == "sixty-six",
                                      ratings.c.kind == "computer")).all()}
    finally:
        archive.close()
    stored = RatingStore(redis_client, seeded=False).get(
        "sixty-six", [("computer", "easy"), ("computer", "random")])
    assert (kept["easy"], kept["random"]) == tuple(stored)
    assert kept["easy"].matches > shipped()["sixty-six"].ratings["easy"].matches


def test_a_write_that_finds_the_cache_lost_loads_it_first(
        app: Flask, redis_client: redis.Redis) -> None:
    client = app.test_client()
    players, _ = _human_match(client)
    _drain_all(redis_client, _engine(app))
    services = app.extensions["sixtysix"]
    before = {p: me(client, t) for p, t in players}
    _drop_cache(redis_client)
    (winner, _), (loser, _) = players
    assert services.leaderboard.apply("g2", "hand:1", "sixty-six", month_of(time.time()),
                                      [Increment(winner, "human", 2, 1)])
    assert rate_match(services.ratings, "sixty-six", "g2", "match:1", 60,
                      [[("human", winner)], [("human", loser)]], [1, 2])
    after = {p: me(client, t) for p, t in players}
    assert after[winner]["ratings"]["sixty-six"]["matches"] == 2  # rated from the database's
    assert after[loser]["ratings"]["sixty-six"]["matches"] == 2
    board = client.get("/v1/leaderboard?limit=100").json
    assert board is not None
    points = {e["player_id"]: e["points"] for e in board["entries"]}
    assert points[winner] == before[winner]["leaderboard"]["all"]["all"]["points"] + 2
    assert points[loser] == before[loser]["leaderboard"]["all"]["all"]["points"]


def test_a_read_waits_for_another_process_loading_the_cache(
        app: Flask, redis_client: redis.Redis) -> None:
    client = app.test_client()
    _human_match(client)
    engine = _engine(app)
    _drain_all(redis_client, engine)
    before = client.get("/v1/ratings?variant=sixty-six").json
    _drop_cache(redis_client)
    redis_client.set(slot_meta_key(RATINGS_TAG, "loading"), 1)  # another process loads it
    other = threading.Timer(0.5, durable.load_slot, (redis_client, engine, RATINGS_TAG, 60))
    other.start()
    try:
        assert client.get("/v1/ratings?variant=sixty-six").json == before
    finally:
        other.join()
