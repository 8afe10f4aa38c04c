"""Helpers of the lobby tests: players, tables, and playing a table's game to its end."""

from __future__ import annotations

import json
import random
from typing import Any

import redis
from flask.testing import FlaskClient

from api.http.examples_lobby import LOBBY_ERRORS
from tests.api.helpers import bearer

#: Seconds a test waits for what a worker records just after its save (standings, history).
SETTLE: float = 15.0


def new_player(client: FlaskClient, name: str, kind: str = "human") -> tuple[str, str]:
    """A new player: its id and token."""
    response = client.post("/v1/players", json={"name": name, "kind": kind})
    assert response.status_code == 201, response.json
    body: dict[str, Any] = response.json  # type: ignore[assignment]
    return body["player_id"], body["token"]


def new_table(client: FlaskClient, token: str, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/tables", json=body, headers=bearer(token))
    assert response.status_code == 201, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    return out


def join(client: FlaskClient, token: str, table_id: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"/v1/tables/{table_id}/join", json=body, headers=bearer(token))
    assert response.status_code == 200, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    return out


def table(client: FlaskClient, table_id: str, token: str | None = None,
          **query: str) -> dict[str, Any]:
    response = client.get(f"/v1/tables/{table_id}", query_string=query,
                          headers=bearer(token) if token else {})
    assert response.status_code == 200, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    return out


def seat_tokens(client: FlaskClient, table_id: str, player_tokens: list[str],
                ) -> tuple[str, dict[int, str]]:
    """The table's current game and each player's seat token, read from the table view."""
    game_id = None
    tokens = {}
    for token in player_tokens:
        you = table(client, table_id, token)["you"]
        game_id = you["game_id"]
        tokens[you["seat"]] = you["token"]
    assert game_id is not None
    return game_id, tokens


def play_to_end(client: FlaskClient, game_id: str, tokens: dict[int, str],
                rng: random.Random, steps: int = 3000) -> dict[str, Any]:
    """Play every human seat at random until ``match_over``; the last view. While a computer
    is to move (its move comes from a worker) it long-polls for the next version."""
    for _ in range(steps):
        views = {seat: client.get(f"/v1/games/{game_id}", headers=bearer(t)).json
                 for seat, t in tokens.items()}
        first: dict[str, Any] = next(iter(views.values()))  # type: ignore[assignment]
        if first["status"] == "match_over":
            return first
        seat = next((s for s, v in views.items() if v["legal_actions"]), None)  # type: ignore[index]
        if seat is None:  # a computer is to move (on the worker tier): wait for its move
            client.get(f"/v1/games/{game_id}?after_version={first['version']}&wait=10",
                       headers=bearer(next(iter(tokens.values()))))
            continue
        action = rng.choice(views[seat]["legal_actions"])  # type: ignore[index]
        response = client.post(f"/v1/games/{game_id}/actions", json=action,
                               headers=bearer(tokens[seat]))
        assert response.status_code == 200, response.json
    raise AssertionError(f"{game_id} did not end in {steps} steps")


def stored_values(client: redis.Redis) -> dict[str, str]:
    """Every key in Redis with all it holds (fields, members, items, value) as one text (bytes
    that are not UTF-8 replaced: the secrets looked for are ASCII)."""
    out = {}
    for raw in client.scan_iter(count=1000):
        key = raw.decode()
        kind = client.type(key).decode()
        parts: list[bytes | str] = []
        if kind == "string":
            parts = [client.get(key) or b""]
        elif kind == "hash":
            for field, value in client.hgetall(key).items():
                parts += [field, value]
        elif kind == "list":
            parts = client.lrange(key, 0, -1)
        elif kind == "set":
            parts = list(client.smembers(key))
        elif kind == "zset":
            parts = [member for member, _ in client.zrange(key, 0, -1, withscores=True)]
        # binary values (RQ's compressed job data, the active-games HyperLogLog of
        # api.http.metrics) are scanned as escaped bytes
        out[key] = "\n".join(p.decode(errors="backslashreplace") if isinstance(p, bytes)
                             else p for p in parts)
    return out


def same_problem(response: Any, name: str, **ids: str) -> None:
    """``response`` is the example ``name`` with each example id replaced by this run's."""
    text = json.dumps(LOBBY_ERRORS[name])
    for example, real in ids.items():
        text = text.replace(example, real)
    expected = json.loads(text)
    got = response.json
    assert got == {**expected, "request_id": got["request_id"]}
    assert response.status_code == expected["status"]
    if response.status_code == 401:
        assert response.headers["WWW-Authenticate"] == 'Bearer realm="sixtysix"'
