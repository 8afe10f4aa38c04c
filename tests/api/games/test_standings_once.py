"""Exactly once: the pipeline after a save (:class:`api.composition.Pipeline`) run for the same
saved game from many threads at once (two requests settling together, a worker retrying)
counts every hand and match once."""

from __future__ import annotations

import random
import threading
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from api.games.store import Game
from api.ratings.seed import apply, shipped
from tests.api.helpers import act, bearer
from tests.api.lobby_helpers import join, new_player, new_table, play_to_end, seat_tokens
from tests.api.rank_helpers import board, load

THREADS = 8
PATTERNS = ("sixtysix:leaderboard:*", "sixtysix:ratings:*", "sixtysix:player-history:*")


def _snapshot(client: redis.Redis) -> dict[str, Any]:
    """Every board, rating and marker; of a history its games (their finish time is when
    they were recorded)."""
    out: dict[str, Any] = {}
    for pattern in PATTERNS:
        for key in client.scan_iter(pattern):
            kind = client.type(key)
            if key.startswith(b"sixtysix:player-history:"):
                out[key] = sorted(client.zrange(key, 0, -1) if kind == b"zset"
                                  else client.hkeys(key))
                if kind == b"zset":
                    out[key] = [m.partition(b":")[2] for m in out[key]]
            elif kind == b"zset":
                out[key] = client.zrange(key, 0, -1, withscores=True)
            elif kind == b"hash":
                out[key] = client.hgetall(key)
    return out


def _forget(client: redis.Redis) -> None:
    """Back to the standings before the match: none, but the computers' shipped ratings."""
    for pattern in PATTERNS:
        for key in client.scan_iter(pattern):
            client.delete(key)
    apply(client, shipped())


def _at_once(app: Flask, game: Game) -> None:
    after_save = app.extensions["sixtysix"].after_save
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait(timeout=10)
            after_save(game)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive()
    assert errors == []


def _table(client: FlaskClient, variant: str, seats: list[dict[str, str]], points: int,
           ) -> tuple[str, dict[int, str]]:
    players = [new_player(client, f"Player {i}") for i in range(
        sum(s["kind"] != "computer" for s in seats))]
    table_id = new_table(client, players[0][1], variant=variant, seats=seats,
                         match_points=points)["table_id"]
    for _, token in players[1:]:
        join(client, token, table_id)
    return seat_tokens(client, table_id, [t for _, t in players])


def test_a_finished_match_is_counted_once(app: Flask, client: FlaskClient,
                                          redis_client: redis.Redis) -> None:
    game_id, tokens = _table(client, "four-hand", [{"kind": "player"}, {"kind": "open"},
                                                   {"kind": "computer", "level": "easy"},
                                                   {"kind": "open"}], 3)
    play_to_end(client, game_id, tokens, random.Random(21))
    counted = _snapshot(redis_client)
    assert counted and board(client)
    _forget(redis_client)
    assert board(client) == {}
    _at_once(app, load(app, game_id))
    assert _snapshot(redis_client) == counted
    app.extensions["sixtysix"].after_save(load(app, game_id))  # a retry, later
    assert _snapshot(redis_client) == counted


def test_hands_settled_by_two_saves_at_once_count_once(app: Flask, client: FlaskClient,
                                                       redis_client: redis.Redis) -> None:
    game_id, tokens = _table(client, "sixty-six", [{"kind": "player"}, {"kind": "open"}], 7)
    rng = random.Random(8)
    while True:  # play until a hand has been settled, the match still running
        views = {s: client.get(f"/v1/games/{game_id}", headers=bearer(t)).json
                 for s, t in tokens.items()}
        first: dict[str, Any] = next(iter(views.values()))  # type: ignore[assignment]
        if first["hand_no"] > 1 or first["status"] == "hand_over":
            break
        seat = next(s for s, v in views.items() if v and v["legal_actions"])
        act(client, game_id, tokens[seat], rng.choice(views[seat]["legal_actions"]))
    game = load(app, game_id)
    assert not game.state.over
    counted = _snapshot(redis_client)
    assert board(client)  # the settled hand's winner is on the board
    _forget(redis_client)
    logged = app.extensions["sixtysix"].games.all_events(game)
    batch = Game(game.game_id, game.version, game.state, game.meta, game.event_count, logged)
    _at_once(app, batch)  # every save's batch offered by eight requests at once
    assert _snapshot(redis_client) == counted
