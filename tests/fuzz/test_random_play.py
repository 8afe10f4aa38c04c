"""Random action sequences over HTTP: legal moves mixed with malformed and illegal bodies,
tokens of the wrong seat, unknown tokens and stale ``If-Match``. Never a 5xx; the version goes
up by exactly one on every 200 and not at all otherwise; every settlement's working adds up
(card points of the tricks are the values of the cards taken; 120 in all once no card is left
unseen)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.faults.play import TIMEOUT, UNLIMITED

STEPS = 140
CARD_VALUES = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
GARBAGE: list[Any] = [
    {}, [], "play", 7, None, {"type": 5}, {"type": "play"}, {"type": "play", "card": "ZZ"},
    {"type": "play", "card": 11}, {"type": "meld", "suit": "X"}, {"type": "meld"},
    {"type": "fly"}, {"type": "play", "card": "QH", "extra": True}, {"type": "x" * 5000},
    {"type": "declare", "card": "AH"}, {"type": "exchange"}, {"type": "close"},
    {"type": "continue"}, {"type": "declare"},
]


@pytest.fixture(scope="module")
def url(redis_server: EmbeddedRedis) -> Iterator[str]:
    with LocalServer(redis_server.url, UNLIMITED) as server:
        yield server.url


class Table:
    """A game of human seats and the version the test expects it at."""

    def __init__(self, session: requests.Session, url: str, variant: str) -> None:
        players = {"sixty-six": 2, "schnapsen": 2, "three-hand": 3, "four-hand": 4}[variant]
        response = session.post(f"{url}/v1/games", json={
            "variant": variant, "seats": [{"kind": "human"}] * players}, timeout=TIMEOUT)
        assert response.status_code == 201, response.text
        body = response.json()
        self.session, self.url = session, url
        self.game_id: str = body["game_id"]
        self.tokens: list[str] = [s["token"] for s in body["seats"]]
        self.version: int = body["version"]
        self.settlements = 0

    def view(self, seat: int | None) -> dict[str, Any]:
        headers = {} if seat is None else {"Authorization": f"Bearer {self.tokens[seat]}"}
        response = self.session.get(f"{self.url}/v1/games/{self.game_id}", headers=headers,
                                    timeout=TIMEOUT)
        assert response.status_code == 200, response.text
        out: dict[str, Any] = response.json()
        return out

    def post(self, body: bytes, headers: dict[str, str]) -> requests.Response:
        return self.session.post(f"{self.url}/v1/games/{self.game_id}/actions", data=body,
                                 headers={"Content-Type": "application/json", **headers},
                                 timeout=TIMEOUT)

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


def check_settlement(settlement: dict[str, Any], talon_size: int) -> None:
    seen: list[str] = []
    for side in settlement["sides"]:
        assert side["trick_points"] == sum(CARD_VALUES[c[0]] for c in side["cards"]), side
        melds = sum(m["points"] for m in side["melds"])
        assert side["total"] == side["trick_points"] + melds + side["last_trick_bonus"], side
        seen += side["cards"]
    for hand in settlement["hands_left"].values():
        seen += hand
    assert len(seen) == len(set(seen)), seen
    points = sum(CARD_VALUES[c[0]] for c in seen)
    assert points <= 120
    if talon_size == 0:
        assert points == 120, settlement


def step(table: Table, rng: random.Random) -> bool:
    """One random request and the checks of its answer; False once the match is over."""
    views = [table.view(s) for s in range(len(table.tokens))]
    assert {v["version"] for v in views} == {table.version}
    movers = [s for s, v in enumerate(views) if v["legal_actions"]]
    if views[0]["status"] == "match_over":
        assert not movers
        return False
    assert movers, views[0]
    seat = rng.choice(movers)
    legal = views[seat]["legal_actions"]
    good = json.dumps(rng.choice(legal)).encode()
    kind = rng.choice(["legal", "legal", "legal", "if_match", "garbage", "raw", "wrong_seat",
                       "stale", "unknown_token", "no_token"])
    headers = table.auth(seat)
    body = good
    allowed: set[int]
    if kind in ("legal", "if_match"):
        if kind == "if_match":
            headers["If-Match"] = f'"{table.version}"'
        allowed = {200}
    elif kind == "garbage":
        body = json.dumps(rng.choice(GARBAGE)).encode()
        allowed = {200, 409, 422}  # a garbage body may happen to be a legal action
    elif kind == "raw":
        body = rng.choice([b"", b"{", b"\xff\xfe", b"null", b'{"type": "play", "card": '])
        allowed = {400, 422}
    elif kind == "wrong_seat":
        headers = table.auth(rng.choice([s for s in range(len(table.tokens)) if s != seat]))
        allowed = {200, 409}  # e.g. continue, legal for every seat after a hand
    elif kind == "stale":
        headers["If-Match"] = f'"{table.version - rng.randint(1, 3)}"'
        allowed = {412}
    elif kind == "unknown_token":
        headers = {"Authorization": "Bearer " + "A" * rng.randint(1, 60)}
        allowed = {401}
    else:
        headers = {}
        allowed = {401}
    response = table.post(body, headers)
    assert response.status_code < 500, (kind, body, response.text)
    assert response.status_code in allowed, (kind, body, response.status_code, response.text)
    if response.status_code == 200:
        assert response.json()["version"] == table.version + 1
        table.version += 1
    else:
        assert response.headers["Content-Type"] == "application/problem+json"
    after = table.view(None)
    assert after["version"] == table.version
    if after["settlement"] is not None and after["status"] != "playing":
        check_settlement(after["settlement"], after["talon_size"])
        table.settlements += 1
    return True


@pytest.mark.parametrize("variant", ["sixty-six", "schnapsen", "three-hand", "four-hand"])
def test_random_requests_never_break_a_game(url: str, variant: str) -> None:
    rng = random.Random(f"fuzz-{variant}")
    settlements = 0
    with requests.Session() as session:
        table = Table(session, url, variant)
        for _ in range(STEPS):
            if not step(table, rng):  # a new match when one is over
                settlements += table.settlements
                table = Table(session, url, variant)
        settlements += table.settlements
    assert settlements > 0, "no hand was finished"
