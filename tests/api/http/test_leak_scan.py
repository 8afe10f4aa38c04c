"""A leak scan over every endpoint and error: bodies, headers and log lines.

Two humans play a hand; at every step each seat and a spectator call every endpoint (the
record of the game in play, JSON and text, included, chat messages, sent and refused, and the
event stream from its first event, with a stream ticket too), right and wrong (401, 404, 405,
409, 412, 413, 422, 304). Nothing they receive may contain a seat token or a token digest
(except the creation answer, which hands out the tokens), a card of the talon under the
face-up trump card, or a card of another seat's hand not shown face up; no log line may
contain a token or a digest.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api.games.tokens import digest
from api.keys import game_key
from engine import PLAYING, from_json
from engine.cards import CARD_CODES, codes
from tests.api.helpers import CREATE_KEY, bearer, two_humans


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if not (key == "events" and isinstance(item, list)):
                yield from _strings(item)
                continue
            # cards repeat from hand to hand: only the current hand's events count
            dealt = [i for i, e in enumerate(item) if e.get("type") == "hand_dealt"]
            yield from _strings(item[dealt[-1]:] if dealt else item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _hidden(redis_client: redis.Redis, game_id: str, seat: int | None) -> set[str]:
    """Cards ``seat`` may not see now: other hands' unshown cards and the covered talon."""
    state = from_json(redis_client.hget(game_key(game_id), "state") or b"")
    if state.status != PLAYING:
        return set()
    hidden = set(codes(sum(1 << c for c in state.talon[1:])))
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= set(codes(hand & ~state.public))
    return hidden


class Scan:
    """Checks every response it is given; counts the cards it could check."""

    def __init__(self, secrets: list[str]) -> None:
        self.secrets = secrets
        self.responses = 0
        self.cards_checked = 0

    def check(self, response: TestResponse, hidden: set[str], *, tokens_shown: bool = False,
              ) -> TestResponse:
        self.responses += 1
        if response.mimetype == "text/event-stream":
            return self._check_stream(response, hidden)
        text = response.get_data(as_text=True)
        headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
        for secret in self.secrets:
            if not tokens_shown:
                assert secret not in text, f"secret in body of {response.request.path}"
            assert secret not in headers, f"secret in headers of {response.request.path}"
        cards: set[str] = set()
        if (response.mimetype or "").endswith("json") and text:
            cards = {s for s in _strings(json.loads(text)) if s in CARD_CODES}
        elif response.mimetype == "text/plain":  # a record's text form
            cards = set(re.findall(r"\b[ATKQJ9][CSHD]\b", text))
        assert not cards & hidden, f"{response.request.path} leaked {cards & hidden}"
        self.cards_checked += bool(cards)
        for card in hidden:  # nor in a header
            assert f'"{card}"' not in headers
        return response

    def _check_stream(self, response: TestResponse, hidden: set[str]) -> TestResponse:
        """The stream's first chunk (the view, then every event after ``?after=``), as the
        JSON documents it carries; the stream is closed after it."""
        try:
            text = next(iter(response.response)).decode()  # type: ignore[arg-type]
        finally:
            response.close()
        headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
        for secret in self.secrets:
            assert secret not in text and secret not in headers, "secret in a stream"
        data = [json.loads(line[6:]) for line in text.split("\n") if line.startswith("data: ")]
        view, events = data[0], data[1:]
        assert "hand" in view and all("seq" in e for e in events)
        cards = {s for s in _strings({**view, "events": events}) if s in CARD_CODES}
        assert not cards & hidden, f"{response.request.path} streamed {cards & hidden}"
        self.cards_checked += bool(cards)
        return response


def test_nothing_secret_in_any_answer_or_log_line(
        client: FlaskClient, redis_client: redis.Redis,
        capsys: pytest.CaptureFixture[str]) -> None:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            "settings": {"point_counter": True, "hint_66": True, "auto_continue": False}}
    created = client.post("/v1/games", json=body, headers={"Idempotency-Key": CREATE_KEY})
    game_id = created.json["game_id"]  # type: ignore[index]
    tokens = [s["token"] for s in created.json["seats"]]  # type: ignore[index]
    other_id, other_tokens = two_humans(client)
    secrets = [*tokens, *other_tokens, *(digest(t) for t in [*tokens, *other_tokens])]
    scan = Scan(secrets)
    scan.check(created, set(), tokens_shown=True)
    scan.check(client.post("/v1/games", json=body, headers={"Idempotency-Key": CREATE_KEY}), set(),
               tokens_shown=True)
    game = f"/v1/games/{game_id}"
    for path in ("/v1/rules", "/healthz", "/readyz", "/openapi.json", "/docs", "/redoc",
                 "/nowhere", f"/v1/games/{other_id}"):
        scan.check(client.get(path), set())
    scan.check(client.post("/v1/games", json={"variant": "chess"}), set())
    scan.check(client.delete(game), set())
    scan.check(client.post(f"{game}/actions", data="x" * 70_000, headers={
        **bearer(tokens[0]), "Content-Type": "application/json"}), set())

    rng = random.Random(5)
    for _ in range(14):
        views = []
        for seat in (0, 1, None):
            hidden = _hidden(redis_client, game_id, seat)
            auth = bearer(tokens[seat]) if seat is not None else {}
            get: Callable[..., TestResponse] = client.get
            view = scan.check(get(game, headers=auth), hidden)
            version = view.json["version"]  # type: ignore[index]
            scan.check(get(game, headers={**auth, "If-None-Match": f'"{version}"'}), hidden)
            scan.check(get(f"{game}/events?after=0&limit=500", headers=auth), hidden)
            scan.check(get(f"{game}/events?limit=0", headers=auth), hidden)
            scan.check(get(f"{game}/record", headers=auth), hidden)
            scan.check(get(f"{game}/record?format=text", headers=auth), hidden)
            scan.check(get(f"{game}/record?format=xml", headers=auth), hidden)
            scan.check(get(f"{game}/stream?after=0", headers=auth, buffered=False), hidden)
            if seat is not None:
                ticket = scan.check(client.post(f"{game}/stream-ticket", headers=auth), hidden)
                scan.check(get(f"{game}/stream?after=0&ticket={ticket.json['ticket']}",  # type: ignore[index]
                               buffered=False), hidden)
            views.append(view.json)
            chat = f"{game}/chat"
            scan.check(client.post(chat, json={"text": f"hello from {seat}"}, headers=auth),
                       hidden)
            scan.check(client.post(chat, json={"text": "two\nlines"}, headers=auth), hidden)
            scan.check(client.post(chat, json={"text": "hi"},
                                   headers=bearer(other_tokens[0])), hidden)
            if seat is None:
                continue
            for action in ({"type": "continue"}, {"type": "play", "card": "ZZ"},
                           {"type": "play", "card": "AH", "extra": 1}):
                scan.check(client.post(f"{game}/actions", json=action, headers=auth), hidden)
            scan.check(client.post(f"{game}/actions", json={"type": "close"},
                                   headers={**auth, "If-Match": '"0"'}), hidden)
            scan.check(client.post(f"{game}/actions", json={"type": "close"},
                                   headers=bearer(tokens[seat][::-1])), hidden)
            scan.check(client.get(game, headers=bearer(other_tokens[seat])), hidden)
        seat = next(s for s, v in enumerate(views[:2]) if v["legal_actions"])  # type: ignore[index]
        # no declaring: a hand that ended early would leave too little to scan
        legal = views[seat]["legal_actions"]  # type: ignore[index]
        action = rng.choice([a for a in legal if a["type"] != "declare"] or legal)
        response = client.post(f"{game}/actions", json=action, headers=bearer(tokens[seat]))
        assert response.status_code == 200
        scan.check(response, _hidden(redis_client, game_id, seat))
    scan.check(client.get("/metrics"), set())

    assert scan.responses > 200 and scan.cards_checked > 50
    said = client.get(f"{game}/events?limit=500").json["events"]  # type: ignore[index]
    assert sum(e["type"] == "chat" for e in said) == 28  # two seats, 14 rounds
    log = capsys.readouterr().err
    assert log.count('"msg": "request"') >= scan.responses
    for secret in secrets:
        assert secret not in log
