"""Ratings: OpenSkill's published worked example through the model and the store, the
display scale, rated table matches (players, bots, computer levels), the lobby's seat ratings,
and ``sixtysix arena --rate``."""

from __future__ import annotations

import json
import random
import threading

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api.cli import main
from api.ratings.model import Rated, Rating, display, new_model, rate
from api.ratings.seed import shipped
from api.ratings.service import rate_match
from api.ratings.store import RatingStore
from api.runtime.redis_server import EmbeddedRedis
from tests.api.lobby_helpers import (
    SETTLE,
    join,
    new_player,
    new_table,
    play_to_end,
    seat_tokens,
    table,
)
from tests.api.rank_helpers import me
from tests.waiting import eventually

# The worked example of the openskill README (openskill.py 3.x on PyPI, openskill.js, the
# Elixir port: the same figures): a1 and a2 as a team beat b1 and b2. Those figures predate
# the model's tau, hence tau=0 here.
A1, A2 = Rating(25.0, 25.0 / 3), Rating(32.444, 5.123)
B1, B2 = Rating(43.381, 2.421), Rating(25.188, 6.211)
PUBLISHED = [[(28.669648436582808, 8.071520788025197), (33.83086971107981, 5.062772998705765)],
             [(43.071274808241974, 2.4166900452721256), (23.149503312339064, 6.1378606973362135)]]
PUBLISHED_ORDINAL = 35.821204672425594  # ordinal of (43.071274808241974, 2.4166900452721256)


def _figures(teams: list[list[Rating]]) -> list[list[tuple[float, float]]]:
    return [[(r.mu, r.sigma) for r in team] for team in teams]


def test_the_published_example_through_the_model() -> None:
    rated = rate(new_model(tau=0), [[A1, A2], [B1, B2]], [1, 2])
    assert _figures(rated) == [[pytest.approx(x, abs=1e-12) for x in team]  # type: ignore[misc]
                               for team in PUBLISHED]
    assert Rating(*PUBLISHED[1][0]).ordinal == pytest.approx(PUBLISHED_ORDINAL, abs=1e-12)


def test_the_published_example_through_the_store(redis_client: redis.Redis) -> None:
    store = RatingStore(redis_client)
    entities = [("human", "a1"), ("human", "a2"), ("human", "b1"), ("human", "b2")]
    start = [A1, A2, B1, B2]
    assert store.commit("four-hand", "setup", "0", 0,
                        [(e, None, r) for e, r in zip(entities, start, strict=True)])
    teams = [entities[:2], entities[2:]]
    assert rate_match(store, "four-hand", "game", "match:1", 60, teams, [1, 2],
                      model=new_model(tau=0))
    got = store.get("four-hand", entities)
    assert [(r.mu, r.sigma) for r in got] == [
        pytest.approx(x, abs=1e-12) for team in PUBLISHED for x in team]  # type: ignore[misc]
    assert [r.matches for r in got] == [1, 1, 1, 1]
    assert not rate_match(store, "four-hand", "game", "match:1", 60, teams, [1, 2])  # once
    assert store.get("four-hand", entities) == got
    listed = [i for i, _ in store.page("four-hand", "human", 0, 10)]
    assert listed == ["b1", "a2", "b2", "a1"]  # by ordinal mu − 3 sigma


def test_display_is_elo_like() -> None:
    assert display(25.0) == 1500 and display(30.0) == 1650 and display(20.0) == 1350
    assert Rating(25.0, 8.3).provisional and not Rating(25.0, 4.0).provisional


def _rated_match(client: FlaskClient, variant: str, seats: list[dict[str, str]],
                 kind: str = "human") -> tuple[str, str, int, dict[str, object], str]:
    player_id, token = new_player(client, "Rated One", kind)
    table_id = new_table(client, token, variant=variant, seats=seats,
                         match_points=3)["table_id"]
    game_id, tokens = seat_tokens(client, table_id, [token])
    final = play_to_end(client, game_id, tokens, random.Random(variant))
    table(client, table_id)  # records the match if a worker's save ended it and its hook lags
    seat = next(iter(tokens))
    return player_id, token, seat, final, table_id


def test_a_match_against_a_level_rates_the_player_against_its_fixed_rating(
        client: FlaskClient) -> None:
    seats = [{"kind": "player"}, {"kind": "computer", "level": "easy"}]
    player_id, token, seat, final, table_id = _rated_match(client, "sixty-six", seats)
    won = final["match"]["set_winner"] == seat
    model = new_model()
    seeded = shipped()["sixty-six"].ratings  # the level's rating is the shipped seed's
    (mine,), _ = rate(model, [[Rating()], [seeded["easy"]]], [1, 2] if won else [2, 1])

    def rated() -> dict[str, float]:
        found: dict[str, float] | None = me(client, token)["ratings"]["sixty-six"]
        assert found is not None
        return found

    rating = eventually(rated, SETTLE)
    assert (rating["mu"], rating["sigma"], rating["matches"]) == (
        round(mine.mu, 3), round(mine.sigma, 3), 1)
    levels = client.get("/v1/ratings?variant=sixty-six&kind=computer").json
    assert levels is not None  # an anchor: only arena runs move a level
    assert {r["id"]: (r["mu"], r["display"], r["matches"]) for r in levels["ratings"]} == {
        name: (round(r.mu, 3), r.display, r.matches) for name, r in seeded.items()}
    level = seeded["easy"]
    humans = client.get("/v1/ratings?variant=sixty-six").json
    assert humans is not None
    assert [(r["place"], r["id"], r["name"]) for r in humans["ratings"]] == [
        (1, player_id, "Rated One")]
    assert client.get("/v1/ratings?variant=schnapsen").json["ratings"] == []  # type: ignore
    shown = {s["seat"]: s["rating"] for s in table(client, table_id)["seats"]}
    assert shown == {seat: mine.display, 1 - seat: level.display}


def test_a_level_in_several_seats_is_not_rated_against_itself(client: FlaskClient) -> None:
    cpu = {"kind": "computer", "level": "random"}
    _, token, _, _, _ = _rated_match(client, "three-hand", [{"kind": "player"}, cpu, cpu])
    assert me(client, token)["ratings"]["three-hand"]["matches"] == 1
    levels = client.get("/v1/ratings?variant=three-hand&kind=computer").json
    assert levels is not None
    assert {r["id"]: (r["mu"], r["matches"]) for r in levels["ratings"]} == {
        name: (round(r.mu, 3), r.matches) for name, r in shipped()["three-hand"].ratings.items()}


def test_bot_accounts_have_their_own_table(client: FlaskClient) -> None:
    seats = [{"kind": "player"}, {"kind": "computer", "level": "easy"}]
    player_id, *_ = _rated_match(client, "schnapsen", seats, kind="bot")

    def bots_rated() -> None:
        bots = client.get("/v1/ratings?variant=schnapsen&kind=bot").json
        assert bots is not None and [r["id"] for r in bots["ratings"]] == [player_id]

    eventually(bots_rated, SETTLE)
    assert client.get("/v1/ratings?variant=schnapsen").json["ratings"] == []  # type: ignore


def test_lobby_listings_show_the_seats_ratings(app: Flask, client: FlaskClient,
                                               redis_client: redis.Redis) -> None:
    ann, ann_token = new_player(client, "Ann")
    store = RatingStore(redis_client)
    store.commit("sixty-six", "setup", "0", 0, [(("human", ann), None, Rating(30.0, 3.0)),
                                                (("computer", "normal"), None,
                                                 Rating(27.0, 2.0))])
    new_table(client, ann_token, variant="sixty-six",
              seats=[{"kind": "player"}, {"kind": "open"}])
    listed = client.get("/v1/tables").json
    assert listed is not None
    assert [s.get("rating") for s in listed["tables"][0]["seats"]] == [1650, None]
    table_id = new_table(client, ann_token, variant="sixty-six", seats=[
        {"kind": "player"}, {"kind": "computer", "level": "normal"}])["table_id"]
    assert [s["rating"] for s in table(client, table_id)["seats"]] == [1650, 1560]
    _, bob_token = new_player(client, "Bob")
    table_id = new_table(client, ann_token, variant="sixty-six",
                         seats=[{"kind": "player"}, {"kind": "open"}])["table_id"]
    seats = join(client, bob_token, table_id)["seats"]
    assert [s["rating"] for s in seats] == [1650, None]  # Bob was never rated


@pytest.mark.parametrize("query", [{"variant": "skat"}, {"kind": "robot"}, {"limit": "101"},
                                   {"cursor": "-1"}])
def test_a_bad_ratings_query_is_a_422(client: FlaskClient, query: dict[str, str]) -> None:
    response = client.get("/v1/ratings", query_string=query)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"


def test_arena_rate_feeds_the_levels_ratings_once(redis_server: EmbeddedRedis,
                                                  redis_client: redis.Redis,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--a", "easy", "--b", "random", "--hands", "40", "--json",
            "--no-progress", "--rate", "--redis-url", redis_server.url]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    matches = sum(b["matches_won"] for b in figures["bots"])
    store = RatingStore(redis_client)
    easy, rnd = store.get("sixty-six", [("computer", "easy"), ("computer", "random")])
    seeded = shipped()["sixty-six"].ratings  # rated on top of the shipped seed
    assert matches > 0
    assert (easy.matches, rnd.matches) == (seeded["easy"].matches + matches,
                                           seeded["random"].matches + matches)
    assert easy.mu > rnd.mu
    assert main(argv) == 0  # the same run again rates nothing twice
    assert "rated 0 new matches" in capsys.readouterr().err
    assert store.get("sixty-six", [("computer", "easy")])[0] == easy


def test_arena_rate_needs_a_redis_and_plain_levels(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["arena", "--hands", "2", "--rate", "--redis-url", ""]) == 2
    assert "--rate needs --redis-url" in capsys.readouterr().err
    for a, b in (("easy:max_samples=5", "random"), ("easy", "easy")):
        assert main(["arena", "--a", a, "--b", b, "--hands", "2", "--no-progress", "--rate",
                     "--redis-url", "redis://127.0.0.1:1"]) == 2
        assert "--rate" in capsys.readouterr().err


@pytest.mark.parametrize(("hinted_won", "moved"), [(True, False), (False, True)])
def test_a_match_won_with_advice_moves_no_rating_and_one_lost_with_it_both(
        redis_client: redis.Redis, hinted_won: bool, moved: bool) -> None:
    store = RatingStore(redis_client, seeded=False)
    teams = [[("human", "hinted")], [("human", "other")]]
    advice = Rated(rise=frozenset({1}), fall=frozenset({0}))  # side 0 took a hint
    ranks = [1, 2] if hinted_won else [2, 1]
    assert rate_match(store, "sixty-six", "game", "match:1", 60, teams, ranks, moves=advice)
    hinted, other = store.get("sixty-six", [("human", "hinted"), ("human", "other")])
    expected = rate(new_model(), [[Rating()], [Rating()]], ranks)
    assert (hinted, other) == ((expected[0][0], expected[1][0]) if moved else
                               (Rating(), Rating()))
    assert not rate_match(store, "sixty-six", "game", "match:1", 60, teams, ranks,
                          moves=advice)  # once


def test_matches_finishing_at_once_all_count(redis_client: redis.Redis) -> None:
    store = RatingStore(redis_client, seeded=False)  # the level starts as a newcomer
    teams = [[("human", "ann")], [("computer", "easy")]]
    barrier = threading.Barrier(6)

    def run(i: int) -> None:
        barrier.wait(timeout=10)
        for j in range(5):  # six players' games at once, each rated twice (a retry)
            rate_match(store, "sixty-six", f"game-{i}", f"match:{j}", 60, teams, [1, 2])
            rate_match(store, "sixty-six", f"game-{i}", f"match:{j}", 60, teams, [1, 2])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    ann, easy = store.get("sixty-six", [("human", "ann"), ("computer", "easy")])
    assert ann.matches == easy.matches == 30
    model = new_model()
    expected = [[Rating()], [Rating()]]
    for _ in range(30):
        expected = rate(model, expected, [1, 2])
    assert (ann.mu, ann.sigma) == (pytest.approx(expected[0][0].mu),  # type: ignore[misc]
                                   pytest.approx(expected[0][0].sigma))
