"""Helpers of the leaderboard, ratings and tour tests."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from api.games.store import Game, GameStore
from tests.api.helpers import bearer


def game_store(app: Flask) -> GameStore:
    store: GameStore = app.extensions["sixtysix"].games
    return store


def load(app: Flask, game_id: str) -> Game:
    return game_store(app).load(game_id)


def side_of(variant: str, seat: int) -> int:
    return seat % 2 if variant == "four-hand" else seat


def expected_points(final: dict[str, Any], variant: str, seat: int) -> int:
    """A seat's points from an unhinted match played to its end: its side's game points (the
    sum of the hands it won) plus its place's bonus (1 + sides with more points)."""
    points = final["match"]["points"]
    sides = {side_of(variant, s): p for s, p in enumerate(points)}
    mine = sides[side_of(variant, seat)]
    place = 1 + sum(1 for p in sides.values() if p > mine)
    return mine + (30, 15, 5)[place - 1]


def board(client: FlaskClient, **query: str) -> dict[str, int]:
    """A leaderboard as ``{player_id: points}`` (checked sorted and ranked)."""
    response = client.get("/v1/leaderboard", query_string={"limit": "100", **query})
    assert response.status_code == 200, response.json
    entries = response.json["entries"]  # type: ignore[index]
    points = [e["points"] for e in entries]
    assert points == sorted(points, reverse=True)
    for e in entries:
        assert e["rank"] == 1 + sum(1 for p in points if p > e["points"])
    return {e["player_id"]: e["points"] for e in entries}


def profile(client: FlaskClient, player_id: str) -> dict[str, Any]:
    response = client.get(f"/v1/players/{player_id}")
    assert response.status_code == 200, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    return out


def me(client: FlaskClient, token: str) -> dict[str, Any]:
    response = client.get("/v1/players/me", headers=bearer(token))
    assert response.status_code == 200, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    return out
