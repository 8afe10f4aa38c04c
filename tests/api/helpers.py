"""Small helpers shared by the API tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api.app import close_app, create_app
from api.keys import PREFIX, active_key
from engine.cards import card_code
from engine.rules import SIXTY_SIX

#: An Idempotency-Key a create accepts (22 characters of A-Z a-z 0-9 _ -).
CREATE_KEY = "create-key-0123456789a"
#: The sixty-six deck in index order. Dealt with ``first_dealer=1``: seat 0 (forehand) gets
#: :data:`HAND_0`, seat 1 :data:`HAND_1`, the trump card is AH (hearts are trump).
DECK: list[str] = [card_code(c) for c in SIXTY_SIX.deck]
HAND_0: list[str] = DECK[0:3] + DECK[6:9]
HAND_1: list[str] = DECK[3:6] + DECK[9:12]
#: Dealt with ``first_dealer=1``: seat 0 (forehand) gets KH QH AS TS 9C JC, seat 1 AH TH KS QS
#: 9D JD; the trump card is 9H (docs/api.md's curl session deals it too).
HEARTS_DECK: list[str] = [
    "KH", "QH", "AS", "AH", "TH", "KS", "TS", "9C", "JC", "QS", "9D", "JD", "9H",
    "AC", "TC", "KC", "QC", "JS", "9S", "AD", "TD", "KD", "QD", "JH"]


@contextmanager
def configured(redis_url: str, **config: Any) -> Iterator[FlaskClient]:
    """A test client of an app on ``redis_url`` with rate limits off and ``config`` (names
    of :data:`api.config.DEFAULTS`); its Redis connections closed after."""
    application = create_app({"TESTING": True, "REDIS_URL": redis_url,
                              "RATELIMIT_ENABLED": False, **config})
    yield application.test_client()
    close_app(application)


def service_keys(client: redis.Redis) -> set[bytes]:
    """The keys of the service's games, tables, players and markers: its ``sixtysix:`` keys
    but the active-games estimate (``sixtysix:active:``, written by a flush thread whenever
    one is due); not RQ's ``rq:*`` nor the worker tier's beats, which the session's workers
    write whenever they like."""
    stats = active_key(0).rpartition(":")[0].encode() + b":"
    return {key for key in client.scan_iter(match=f"{PREFIX}:*", count=1000)
            if not key.startswith(stats)}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    return out


def two_humans(client: FlaskClient, **body: Any) -> tuple[str, list[str]]:
    """A two-hand game of two human seats: its id and the seats' tokens."""
    created = create(client, seats=[{"kind": "human", "name": "Ann"},
                                    {"kind": "human", "name": "Bob"}], **body)
    return created["game_id"], [s["token"] for s in created["seats"]]


def view(client: FlaskClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/v1/games/{game_id}", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    return out


def act(client: FlaskClient, game_id: str, token: str, action: dict[str, Any],
        **headers: str) -> TestResponse:
    return client.post(f"/v1/games/{game_id}/actions", json=action,
                       headers={**bearer(token), **headers})


def assert_problem(response: TestResponse, status: int, slug: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.json  # type: ignore[assignment]
    assert body["type"] == f"https://sixtysix.dev/problems/{slug}"
    assert body["status"] == status
    assert body["title"] and body["detail"]
    return body


def assert_waits_for_the_busy_connection(client: Any) -> None:
    """``client`` (a Redis client whose pool holds one connection): a command sent while that
    connection is in use waits for it, and is answered once it is released."""
    pool = client.connection_pool
    held = pool.get_connection()  # the pool's only connection, busy
    answered: list[bool] = []
    waiter = threading.Thread(target=lambda: answered.append(bool(client.ping())))
    waiter.start()
    waiter.join(0.3)
    assert waiter.is_alive() and not answered  # waiting, not refused
    pool.release(held)
    waiter.join(5)
    assert answered == [True]
