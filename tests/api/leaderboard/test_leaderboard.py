"""The leaderboard over HTTP: tables of players and computers played to the end in every
variant, then the boards, ranks, hands won, ratings and histories; every exclusion."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.ratings.seed import shipped
from engine import find_variant
from tests.api.helpers import act, assert_problem, bearer, create
from tests.api.lobby_helpers import (
    SETTLE,
    join,
    new_player,
    new_table,
    play_to_end,
    seat_tokens,
    table,
)
from tests.api.rank_helpers import board, expected_points, load, me, profile, side_of
from tests.waiting import eventually

CPU: dict[str, str] = {"kind": "computer", "level": "random"}
OPEN: dict[str, str] = {"kind": "open"}
ME: dict[str, str] = {"kind": "player"}
VARIANTS = ("sixty-six", "schnapsen", "three-hand", "four-hand")


def _start(client: FlaskClient, variant: str, seats: list[dict[str, str]],
           kinds: list[str] | None = None, match_points: int = 3, **options: Any,
           ) -> tuple[str, str, dict[int, str], list[tuple[str, str, int]]]:
    """A table of ``seats`` with new players (of ``kinds``) in its player and open seats,
    started: table id, game id, seat tokens, and (player id, token, seat) per player."""
    count = sum(s["kind"] != "computer" for s in seats)
    kinds = kinds or ["human"] * count
    players = [new_player(client, f"Player {i}", kinds[i]) for i in range(count)]
    table_id = new_table(client, players[0][1], variant=variant, seats=seats,
                         match_points=match_points, **options)["table_id"]
    for _, token in players[1:]:
        join(client, token, table_id)
    game_id, tokens = seat_tokens(client, table_id, [t for _, t in players])
    seated = {s.get("player_id"): s["seat"]
              for s in table(client, table_id, players[0][1])["seats"]}
    return table_id, game_id, tokens, [(p, t, seated[p]) for p, t in players]


@pytest.mark.parametrize(("variant", "seats", "kinds"), [
    ("sixty-six", [ME, OPEN], None),
    ("sixty-six", [ME, CPU], ["bot"]),
    ("schnapsen", [ME, OPEN], ["human", "bot"]),
    ("three-hand", [ME, OPEN, CPU], None),
    ("three-hand", [ME, OPEN, OPEN], None),
    ("four-hand", [ME, CPU, OPEN, CPU], None),   # two players, partners
    ("four-hand", [ME, OPEN, CPU, CPU], None),   # two players, opponents
])
def test_a_match_to_the_end_counts_hands_and_placement(
        app: Flask, client: FlaskClient, variant: str, seats: list[dict[str, str]],
        kinds: list[str] | None) -> None:
    _, game_id, tokens, players = _start(client, variant, seats, kinds)
    final = play_to_end(client, game_id, tokens, random.Random(variant + str(len(players))))
    game = load(app, game_id)
    events = [e.event for e in app.extensions["sixtysix"].games.all_events(game)]
    kind_of = {p: (kinds or ["human"] * len(players))[i] for i, (p, _, _) in
               enumerate(players)}
    # a computer's move that ends the match is saved (and seen) before the worker's hook
    # after that save has counted it: the checks wait for what the hook records
    eventually(lambda: _counted(client, final, variant, events, players, kind_of), SETTLE)


def _counted(client: FlaskClient, final: dict[str, Any], variant: str, events: list[Any],
             players: list[tuple[str, str, int]], kind_of: dict[str, str]) -> None:
    """The boards, ranks, hands won, ratings and histories of a match played to its end."""
    game_id = final["game_id"]
    for kind in ("human", "bot"):
        expected = {p: expected_points(final, variant, seat) for p, _, seat in players
                    if kind_of[p] == kind}
        for query in ({}, {"variant": variant}, {"period": "month"},
                      {"period": "month", "variant": variant}):
            assert board(client, kind=kind, **query) == {
                p: n for p, n in expected.items() if n}
        for other in VARIANTS:
            if other != variant:
                assert board(client, kind=kind, variant=other) == {}
    for player_id, token, seat in players:
        side = side_of(variant, seat)
        won = sum(1 for e in events if e.type == "hand_settled"
                  and e.data["settlement"]["winner_side"] == side)
        mine = me(client, token)
        assert mine["hands_won"][variant] == won
        points = expected_points(final, variant, seat)
        rivals = [expected_points(final, variant, s) for p, _, s in players
                  if kind_of[p] == kind_of[player_id]]
        standing = {"points": points, "rank": 1 + sum(1 for r in rivals if r > points)}
        for period in ("all", "month"):
            for scope in ("all", variant):
                assert mine["leaderboard"][period][scope] == (standing if points else None)
        assert mine["ratings"][variant]["matches"] == 1
        assert profile(client, player_id)["ratings"] == mine["ratings"]
        history = client.get(f"/v1/players/{player_id}/games").json
        assert history is not None and [g["game_id"] for g in history["games"]] == [game_id]
        entry = history["games"][0]
        assert entry["result"] == ("won" if final["match"]["set_winner"] == side else "lost")
        assert entry["seat"] == seat and entry["rated"] and entry["reason"] == "points"
        assert client.get(entry["record"]).status_code == 200


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_unrated_table_never_counts(client: FlaskClient, variant: str) -> None:
    seats = [ME, OPEN] + [CPU] * (find_variant(variant).players - 2)
    table_id, game_id, tokens, players = _start(client, variant, seats, rated=False)
    assert table(client, table_id)["rated"] is False
    final = play_to_end(client, game_id, tokens, random.Random(3))
    assert final["rated"] is False
    for kind in ("human", "bot"):
        assert board(client, kind=kind) == {} and board(client, kind=kind, period="month") == {}
    assert client.get(f"/v1/ratings?variant={variant}").json["ratings"] == []  # type: ignore
    for player_id, token, _ in players:
        mine = me(client, token)
        assert mine["ratings"][variant] is None and mine["hands_won"][variant] == 0

        def in_history(player_id: str = player_id) -> None:
            games = client.get(f"/v1/players/{player_id}/games").json["games"]  # type: ignore
            assert [(g["game_id"], g["rated"]) for g in games] == [(game_id, False)]

        eventually(in_history, SETTLE)


def test_games_without_a_player_never_count(client: FlaskClient) -> None:
    created = create(client, match_points=3)
    token = created["seats"][0]["token"]
    rng = random.Random(5)
    game_id = created["game_id"]
    while True:
        view = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
        assert view is not None
        if view["status"] == "match_over":
            break
        act(client, game_id, token, rng.choice(view["legal_actions"]))
    assert board(client) == {} and board(client, kind="bot") == {}
    levels = client.get("/v1/ratings?kind=computer").json["ratings"]  # type: ignore[index]
    assert {r["id"]: r["matches"] for r in levels} == {  # as shipped: nothing was rated
        level: r.matches for level, r in shipped()["sixty-six"].ratings.items()}


def test_a_hinted_hand_and_its_match_lose_their_points(app: Flask, client: FlaskClient) -> None:
    _, game_id, tokens, players = _start(client, "sixty-six", [ME, CPU])
    player_id, player_token, seat = players[0]
    token = tokens[seat]
    for _ in range(20):  # the computer may lead: its move comes from the worker tier
        view = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
        assert view is not None
        if view["legal_actions"]:
            break
        client.get(f"/v1/games/{game_id}?after_version={view['version']}&wait=10",
                   headers=bearer(token))
    assert view["legal_actions"] and view["hand_no"] == 1
    hint = client.post(f"/v1/games/{game_id}/hint?budget_ms=50", headers=bearer(token))
    assert hint.status_code == 200, hint.json
    final = play_to_end(client, game_id, {seat: token}, random.Random(11))
    events = [e.event for e in app.extensions["sixtysix"].games.all_events(load(app, game_id))]
    hands = [e for e in events if e.type == "hand_settled"]
    first = hands[0].data["settlement"]
    hand_one = first["game_points"] if first["winner_side"] == seat else 0
    expected = final["match"]["points"][seat] - hand_one  # no placement bonus either
    won = sum(1 for e in hands[1:] if e.data["settlement"]["winner_side"] == seat)

    def counted() -> None:
        assert board(client) == ({player_id: expected} if expected else {})
        mine = me(client, player_token)
        assert mine["hands_won"]["sixty-six"] == won  # nor the hinted hand as a hand won
        rating = mine["ratings"]["sixty-six"]  # a win with advice is not his; a loss is
        if final["match"]["set_winner"] == seat:
            assert rating is None
        else:
            assert rating is not None and rating["matches"] == 1 and rating["display"] < 1500

    eventually(counted, SETTLE)


def test_a_match_won_with_a_hint_moves_no_rating_and_the_hinted_hand_counts_for_nobody(
        client: FlaskClient) -> None:
    """Ann takes a hint in hand 1; once it is settled Bob resigns, so Ann's side wins: her win
    is not hers (no rating gain, no place, not the hand) and Bob's loss is not his (to
    advice), though his leaving costs him 10."""
    _, game_id, tokens, players = _start(client, "sixty-six", [ME, OPEN], match_points=7)
    (_, ann_token, ann_seat), (bob, bob_token, bob_seat) = players
    rng = random.Random(29)
    hinted = False
    while True:
        views = {s: client.get(f"/v1/games/{game_id}", headers=bearer(t)).json
                 for s, t in tokens.items()}
        if views[ann_seat]["status"] != "playing":  # type: ignore[index]
            assert views[ann_seat]["status"] == "hand_over"  # type: ignore[index]
            break
        if not hinted and views[ann_seat]["legal_actions"]:  # type: ignore[index]
            hint = client.post(f"/v1/games/{game_id}/hint?budget_ms=50",
                               headers=bearer(tokens[ann_seat]))
            assert hint.status_code == 200, hint.json
            hinted = True
            continue
        seat = next(s for s, v in views.items() if v["legal_actions"])  # type: ignore[index]
        action = rng.choice(views[seat]["legal_actions"])  # type: ignore[index]
        assert act(client, game_id, tokens[seat], action).status_code == 200
    settlement = views[ann_seat]["settlement"]  # type: ignore[index]
    won = settlement["game_points"] if settlement["winner_side"] == bob_seat else 0
    assert act(client, game_id, tokens[bob_seat], {"type": "resign"}).status_code == 200
    mine = me(client, ann_token)
    assert mine["hands_won"]["sixty-six"] == 0  # the hinted hand counts for nobody of hers
    assert mine["ratings"]["sixty-six"] is None  # a win with advice is no win
    assert mine["leaderboard"]["all"]["all"] is None  # no hand, no place
    theirs = me(client, bob_token)
    assert theirs["ratings"]["sixty-six"] is None  # nobody loses to advice
    assert board(client) == {bob: won - 10}


def test_resigning_at_once_against_a_player_costs_10_and_places_nobody(
        client: FlaskClient) -> None:
    _, game_id, tokens, players = _start(client, "sixty-six", [ME, OPEN])
    (ann, ann_token, ann_seat), (_, bob_token, bob_seat) = players
    view = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[ann_seat])).json
    mover = ann_seat if view and view["legal_actions"] else bob_seat
    moves = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[mover])).json
    assert moves is not None
    assert act(client, game_id, tokens[mover], moves["legal_actions"][0]).status_code == 200
    assert act(client, game_id, tokens[ann_seat], {"type": "resign"}).status_code == 200
    # left before a hand was settled: too short to place Bob or to rate either of them
    assert board(client) == {ann: -10}
    assert board(client, variant="sixty-six", period="month") == {ann: -10}
    assert me(client, bob_token)["ratings"]["sixty-six"] is None
    assert me(client, ann_token)["ratings"]["sixty-six"] is None


def test_resigning_after_the_first_settled_hand_rates_both_players(client: FlaskClient) -> None:
    """The threshold that places the winner (a settled hand) rates both sides alike."""
    _, game_id, tokens, players = _start(client, "sixty-six", [ME, OPEN], match_points=7)
    (_, ann_token, ann_seat), (_, bob_token, _) = players
    rng = random.Random(5)
    while True:
        views = {s: client.get(f"/v1/games/{game_id}", headers=bearer(t)).json
                 for s, t in tokens.items()}
        if views[ann_seat]["settlement"] is not None:  # type: ignore[index]
            break
        seat = next(s for s, v in views.items() if v["legal_actions"])  # type: ignore[index]
        action = rng.choice(views[seat]["legal_actions"])  # type: ignore[index]
        assert act(client, game_id, tokens[seat], action).status_code == 200
    assert act(client, game_id, tokens[ann_seat], {"type": "resign"}).status_code == 200
    ann, bob = (me(client, t)["ratings"]["sixty-six"] for t in (ann_token, bob_token))
    assert ann["matches"] == bob["matches"] == 1
    assert ann["display"] < 1500 < bob["display"]


def test_resigning_against_computers_costs_nothing(client: FlaskClient) -> None:
    _, game_id, tokens, players = _start(client, "three-hand", [ME, CPU, CPU], match_points=7)
    token = tokens[players[0][2]]
    resigned = None
    for _ in range(20):  # the computers move on the worker tier, so a save may come first
        view = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
        assert view is not None
        if not view["legal_actions"]:  # wait for the computers
            client.get(f"/v1/games/{game_id}?after_version={view['version']}&wait=10",
                       headers=bearer(token))
            continue
        # he dealt and sat out the first hand: its settlement is acknowledged first
        action = ({"type": "continue"} if view["legal_actions"] == [{"type": "continue"}]
                  else {"type": "resign"})
        response = act(client, game_id, token, action, **{"If-Match": f'"{view["version"]}"'})
        if response.status_code == 412:  # a computer's save came first: look again
            continue
        assert response.status_code == 200, response.json
        if action["type"] == "resign":
            resigned = response.json
            break
    assert resigned is not None and resigned["status"] == "match_over"
    assert board(client) == {}


def test_an_aborted_match_is_no_result(client: FlaskClient) -> None:
    _, game_id, tokens, players = _start(client, "sixty-six", [ME, OPEN])
    (ann, _, ann_seat), _ = players
    response = act(client, game_id, tokens[ann_seat], {"type": "abort"})
    assert response.status_code == 200, response.json
    assert board(client) == {}
    entry = client.get(f"/v1/players/{ann}/games").json["games"][0]  # type: ignore[index]
    assert (entry["result"], entry["reason"]) == ("aborted", "aborted")


@pytest.mark.parametrize("query", [{"period": "week"}, {"kind": "computer"},
                                   {"variant": "skat"}, {"cursor": "x"}, {"limit": "0"},
                                   {"period": "month", "month": "2025-13"}])
def test_a_bad_query_is_a_422(client: FlaskClient, query: dict[str, str]) -> None:
    assert_problem(client.get("/v1/leaderboard", query_string=query), 422, "validation-error")


def test_pages_follow_the_cursor(client: FlaskClient) -> None:
    from api.leaderboard.store import LeaderboardStore
    from api.runtime.redis_connect import Client
    redis: Client = client.application.extensions["sixtysix"].games.redis
    store = LeaderboardStore(redis, 60)
    ids = [new_player(client, f"Pager {i}")[0] for i in range(5)]
    from api.leaderboard.store import Increment
    for i, player_id in enumerate(ids):
        store.apply("g", f"hand:{i}", "sixty-six", "2025-01",
                    [Increment(player_id, "human", 10 * (i // 2) + 1, 0)])
    first = client.get("/v1/leaderboard?limit=2").json
    assert first is not None and first["next_cursor"] == "2"
    second = client.get("/v1/leaderboard?limit=2&cursor=2").json
    assert second is not None
    rows = first["entries"] + second["entries"]
    assert [(e["rank"], e["points"]) for e in rows] == [(1, 21), (2, 11), (2, 11), (4, 1)]
    third = client.get("/v1/leaderboard?limit=2&cursor=4").json
    assert third is not None and third["next_cursor"] is None
    assert [e["points"] for e in third["entries"]] == [1]
    month = client.get("/v1/leaderboard?period=month&month=2025-01&limit=100").json
    assert month is not None and len(month["entries"]) == 5


def test_a_private_tables_match_is_in_the_history_of_the_player_only(
        client: FlaskClient) -> None:
    _, game_id, tokens, players = _start(client, "sixty-six", [ME, CPU], visibility="private")
    play_to_end(client, game_id, tokens, random.Random(13))
    player_id, token, _ = players[0]

    def listed() -> dict[str, Any]:  # once the hook after the match's last save has run
        own: dict[str, Any] | None = client.get(f"/v1/players/{player_id}/games",
                                                headers=bearer(token)).json
        assert own is not None and [g["game_id"] for g in own["games"]] == [game_id]
        return own

    own = eventually(listed, SETTLE)
    assert own["games"][0]["private"] is True
    public = client.get(f"/v1/players/{player_id}/games").json
    assert public == {"games": [], "next_cursor": None}
    assert_problem(client.get("/v1/players/nobody000000/games"), 404, "player-not-found")
    assert_problem(client.get(f"/v1/players/{player_id}/games?cursor=x"), 422,
                   "validation-error")
