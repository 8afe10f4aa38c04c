"""Clocked tables end to end on the leaderboard, with the real queue (RQ's scheduler and the
session's worker processes run the clock jobs): a match played to its end counts each hand
won and the placement; a player whose clock runs out three times in a row forfeits, and
counts as leaving (10 off, no place) exactly once, although the forfeit is a worker's clock
job and requests race it."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.helpers import bearer
from tests.api.lobby_helpers import (
    join,
    new_player,
    new_table,
    play_to_end,
    seat_tokens,
    table,
)
from tests.api.rank_helpers import board, expected_points, load, me, profile

#: Seconds the forfeit may take at most (three 1 s think times, a reading time, job delays).
PATIENCE = 90.0


@pytest.fixture(autouse=True)
def short_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Think times down to 1 s and a 1 s reading time (for the games created here)."""
    monkeypatch.setenv("SIXTYSIX_MIN_THINK_TIME_S", "1")
    monkeypatch.setenv("SIXTYSIX_READING_S", "1")


def _clocked_table(client: FlaskClient, **settings: Any,
                   ) -> tuple[str, str, dict[int, str], dict[str, tuple[int, str, str]]]:
    """Ann and Bob at a started two-hand table with a clock: the table and game ids, the seat
    tokens, and per name (seat, player id, player token)."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    table_id = new_table(client, ann[1], seats=[{"kind": "player"}, {"kind": "open"}],
                         match_points=3, settings=settings)["table_id"]
    join(client, bob[1], table_id)
    game_id, tokens = seat_tokens(client, table_id, [ann[1], bob[1]])
    seats = {s["player_id"]: s["seat"] for s in table(client, table_id)["seats"]}
    return table_id, game_id, tokens, {name: (seats[pid], pid, token) for name, (pid, token)
                                       in (("Ann", ann), ("Bob", bob))}


def test_a_clocked_match_to_its_end_counts_hands_won_and_placement(
        app: Flask, client: FlaskClient) -> None:
    _, game_id, tokens, players = _clocked_table(client, think_time_s=20)
    assert load(app, game_id).meta["clock"]["think_time_s"] == 20
    final = play_to_end(client, game_id, tokens, random.Random("clocked"))
    game = load(app, game_id)
    events = [e.event for e in app.extensions["sixtysix"].games.all_events(game)]
    assert final["match"]["timed_out_by"] is None
    expected = {pid: expected_points(final, "sixty-six", seat)
                for seat, pid, _ in players.values()}
    assert board(client) == board(client, variant="sixty-six") == expected
    assert sorted(expected.values())[-1] - sorted(expected.values())[0] >= 15  # 30 vs 15
    for seat, player_id, token in players.values():
        won = sum(1 for e in events if e.type == "hand_settled"
                  and e.data["settlement"]["winner_side"] == seat)
        mine = me(client, token)
        assert mine["hands_won"]["sixty-six"] == won
        assert mine["ratings"]["sixty-six"]["matches"] == 1
        rank = 1 + sum(1 for p in expected.values() if p > expected[player_id])
        assert mine["leaderboard"]["all"]["all"] == {"points": expected[player_id], "rank": rank}


def _ann_plays(client: FlaskClient, game_id: str, token: str, done: threading.Event) -> None:
    """Ann acts whenever she may (answers to a clock that moved first are ignored)."""
    while not done.is_set():
        seen = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
        assert seen is not None
        if seen["status"] == "match_over":
            return
        if seen["legal_actions"]:
            client.post(f"/v1/games/{game_id}/actions", json=seen["legal_actions"][0],
                        headers={**bearer(token), "If-Match": f'"{seen["version"]}"',
                                 "Prefer": "respond-async"})
        else:
            time.sleep(0.05)


def _race(app: Flask, game_id: str, table_id: str, token: str, done: threading.Event) -> None:
    """Requests that apply a passed deadline themselves: views and the table, in a loop."""
    client = app.test_client()
    while not done.is_set():
        assert client.get(f"/v1/games/{game_id}", headers=bearer(token)).status_code == 200
        assert client.get(f"/v1/tables/{table_id}").status_code == 200


def test_three_expiries_forfeit_and_count_as_leaving_once(app: Flask,
                                                          client: FlaskClient) -> None:
    table_id, game_id, tokens, players = _clocked_table(
        client, think_time_s=1, on_timeout="computer", timeout_level="random")
    (ann_seat, ann_id, _), (bob_seat, bob_id, _) = players["Ann"], players["Bob"]
    done = threading.Event()
    threads = [threading.Thread(target=_ann_plays, args=(app.test_client(), game_id,
                                                         tokens[ann_seat], done))]
    threads += [threading.Thread(target=_race, args=(app, game_id, table_id, tokens[bob_seat],
                                                     done)) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        end = time.monotonic() + PATIENCE
        while not load(app, game_id).state.over:
            assert time.monotonic() < end, "Bob's clock did not forfeit the match"
            time.sleep(0.2)
        time.sleep(1.0)  # the racing requests go on a while after the forfeit's save
    finally:
        done.set()
        for thread in threads:
            thread.join(timeout=30)
    table(client, table_id)  # records the match now if the forfeit's save's hook lags
    final = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[ann_seat])).json
    assert final is not None
    assert final["match"]["result_reason"] == "timeout"
    assert final["match"]["timed_out_by"] == bob_seat and final["match"]["winner"] == ann_seat
    points = final["match"]["points"]
    events = app.extensions["sixtysix"].games.all_events(load(app, game_id))
    played = any(e.event.type == "hand_settled" for e in events)
    # Ann: her hands' game points and first place (if a hand was settled before the forfeit:
    # else the match was too short to place her); Bob: his hands' points, 10 off, no place
    expected = {ann_id: points[ann_seat] + 30 * played, bob_id: points[bob_seat] - 10}
    assert board(client) == board(client, period="month") == {
        p: n for p, n in expected.items() if n}
    for player_id in (ann_id, bob_id):
        assert profile(client, player_id)["leaderboard"]["all"]["sixty-six"] == (
            {"points": expected[player_id], "rank": 1 + sum(
                1 for n in expected.values() if n and n > expected[player_id])}
            if expected[player_id] else None)
    for player_id in (ann_id, bob_id):  # her win and his loss only if the match was played
        rating = profile(client, player_id)["ratings"]["sixty-six"]
        assert (rating["matches"] if rating else 0) == int(played)
    history = client.get(f"/v1/players/{bob_id}/games").json
    assert history is not None
    assert [(g["game_id"], g["result"], g["reason"]) for g in history["games"]] == [
        (game_id, "lost", "timeout")]
