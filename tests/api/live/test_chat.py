"""``POST /v1/games/{id}/chat``: messages as chat events, the text rules, limits, problems."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from api.app import close_app, create_app
from api.games.store import MarkSlot
from api.games.tokens import digest
from api.http.examples import ERRORS, GAME_ID
from api.keys import game_key, idem_key
from api.live.chat import MAX_CHARS
from api.runtime.redis_server import EmbeddedRedis
from api.text_policy import PATTERN, normalised, refusal
from tests.api.conftest import SHIPPED_LIMITS
from tests.api.helpers import act, assert_problem, bearer, configured, two_humans, view

ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def first_move(client: FlaskClient, game_id: str, tokens: list[str]) -> TestResponse:
    """The first legal action of the seat to act."""
    for token in tokens:
        legal = view(client, game_id, token)["legal_actions"]
        if legal:
            return act(client, game_id, token, legal[0])
    raise AssertionError("no seat may act")


def chat(client: FlaskClient, game_id: str, token: str | None, text: Any) -> TestResponse:
    return client.post(f"/v1/games/{game_id}/chat", json={"text": text},
                       headers=bearer(token) if token else {})


def events(client: FlaskClient, game_id: str, token: str | None = None,
           after: int = 0) -> dict[str, Any]:
    response = client.get(f"/v1/games/{game_id}/events?after={after}&limit=500",
                          headers=bearer(token) if token else {})
    assert response.status_code == 200, response.json
    page: dict[str, Any] = response.json  # type: ignore[assignment]
    return page


def test_a_message_is_a_chat_event_every_seat_and_spectator_reads(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    before = events(client, game_id)["last_seq"]
    response = chat(client, game_id, tokens[0], "  Good luck, Bob!  ")
    assert response.status_code == 201, response.json
    sent = response.json
    assert sent is not None
    assert set(sent) == {"seq", "seat", "name", "text", "at"}
    assert (sent["seq"], sent["seat"], sent["name"], sent["text"]) == (
        before + 1, 0, "Ann", "Good luck, Bob!")
    assert ISO_UTC.fullmatch(sent["at"])
    expected = {"type": "chat", **sent}
    for reader in (tokens[0], tokens[1], None):
        page = events(client, game_id, reader)
        assert page["last_seq"] == sent["seq"] and page["events"][-1] == expected
    assert events(client, game_id, None, after=before)["events"] == [expected]
    reply = chat(client, game_id, tokens[1], "Thanks, Ann")
    assert reply.json is not None
    assert (reply.json["seq"], reply.json["seat"], reply.json["name"]) == (
        sent["seq"] + 1, 1, "Bob")


def test_a_message_leaves_the_version_so_a_pending_if_match_still_holds(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)  # seat 0 leads
    seen = view(client, game_id, tokens[0])
    state = redis_client.hget(game_key(game_id), "state")
    for token in tokens:
        assert chat(client, game_id, token, "hello").status_code == 201
    after_chat = client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0]))
    assert after_chat.headers["ETag"] == f'"{seen["version"]}"'
    # nothing in the view changes but Bob's presence: his message showed he is there
    assert [s["connected"] for s in seen["seats"]] == [True, False]
    assert [s["connected"] for s in after_chat.json["seats"]] == [True, True]
    for seat in seen["seats"]:
        seat["connected"] = True
    assert after_chat.json == seen
    assert redis_client.hget(game_key(game_id), "state") == state
    acted = act(client, game_id, tokens[0], seen["legal_actions"][0],
                **{"If-Match": f'"{seen["version"]}"'})
    assert acted.status_code == 200, acted.json
    log = events(client, game_id)
    seqs = [e["seq"] for e in log["events"]]
    assert seqs == list(range(1, log["last_seq"] + 1))  # no number taken twice
    chats = [e["seq"] for e in log["events"] if e["type"] == "chat"]
    assert acted.json is not None
    assert min(e["seq"] for e in acted.json["events"]) == max(chats) + 1


@pytest.mark.parametrize(("text", "reason"), [
    ("", "must not be empty"),
    (" \u3000 ", "must not be empty"),
    ("x" * 201, "at most 200 characters; got 201"),
    ("tab\there", "character 4 is a control character (U+0009)"),
    ("two\nlines", "character 4 is a control character (U+000A)"),
    ("\x1b[2Jwiped", "character 1 is a control character (U+001B)"),
    ("ne\x85l", "character 3 is a control character (U+0085)"),
    ("del\x7f", "character 4 is a control character (U+007F)"),
    ("gg \u202eevil", "character 4 is a bidirectional control (U+202E)"),
    ("\u2066isolate", "character 1 is a bidirectional control (U+2066)"),
    ("a\u2028b", "character 2 is a line separator (U+2028)"),
    ("a\u2029b", "character 2 is a paragraph separator (U+2029)"),
    ("gg\n", "character 3 is a control character (U+000A)"),
    ("rtl \u200f:)", "character 5 is a format character (U+200F)"),
    ("zero\u200bwidth", "character 5 is a format character (U+200B)"),
    ("blank \u3164", "character 7 is an invisible filler (U+3164)"),
    ("\u2800", "character 1 is an invisible filler (U+2800)"),
])
def test_refused_texts_are_a_422_naming_text(client: FlaskClient, text: str,
                                             reason: str) -> None:
    game_id, tokens = two_humans(client)
    last = events(client, game_id)["last_seq"]
    problem = assert_problem(chat(client, game_id, tokens[0], text), 422, "validation-error")
    assert list(problem["errors"]) == ["text"]
    assert reason in problem["errors"]["text"][0]
    assert events(client, game_id)["last_seq"] == last  # nothing logged


def test_a_lone_surrogate_and_a_text_that_is_no_string_are_refused(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    path = f"/v1/games/{game_id}/chat"
    raw = client.post(path, data='{"text": "half \\ud800"}', content_type="application/json",
                      headers=bearer(tokens[0]))
    problem = assert_problem(raw, 422, "validation-error")
    assert "surrogate code point (U+D800)" in problem["errors"]["text"][0]
    for body in ({"text": 5}, {}, {"text": None}, {"text": "hi", "extra": 1}):
        assert_problem(client.post(path, json=body, headers=bearer(tokens[0])), 422,
                       "validation-error")


def test_text_is_normalised_and_counted_in_characters(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    decomposed = "e\u0301" * 200  # 400 code points, 200 once composed
    sent = chat(client, game_id, tokens[0], decomposed).json
    assert sent is not None and sent["text"] == "\u00e9" * 200
    rtl = "\u05e9\u05dc\u05d5\u05dd :)"  # right-to-left text is fine, as is
    assert chat(client, game_id, tokens[0], rtl).json["text"] == rtl  # type: ignore[index]
    assert chat(client, game_id, tokens[0], "x" * 200).status_code == 201


def test_who_may_send(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    other_id, other_tokens = two_humans(client)
    assert_problem(chat(client, game_id, None, "hi"), 401, "unauthorized")
    assert_problem(chat(client, game_id, other_tokens[0], "hi"), 401, "unauthorized")
    assert_problem(chat(client, "nosuchgame0000", tokens[0], "hi"), 404, "game-not-found")
    assert_problem(chat(client, "bad id!", tokens[0], "hi"), 404, "game-not-found")
    assert events(client, game_id)["last_seq"] == events(client, other_id)["last_seq"]


def test_problem_examples_of_chat_are_what_the_server_answers(client: FlaskClient,
                                                              app: Flask) -> None:
    app.config["SIXTYSIX_MAX_CHAT"] = 500
    game_id, tokens = two_humans(client)

    def same(response: TestResponse, name: str) -> None:
        got = response.json
        assert got is not None
        text = json.dumps(ERRORS[name]).replace(GAME_ID, game_id)
        assert got == {**json.loads(text), "request_id": got["request_id"]}

    same(chat(client, game_id, tokens[0], "one\nline"), "invalid_chat_text")
    for i in range(500):
        assert chat(client, game_id, tokens[i % 2], f"message {i}").status_code == 201
    same(chat(client, game_id, tokens[0], "one more"), "chat_full")


@pytest.fixture
def capped(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[FlaskClient]:
    with configured(redis_server.url, SIXTYSIX_MAX_CHAT=3) as client:
        yield client


def test_a_game_holds_at_most_max_chat_messages(capped: FlaskClient) -> None:
    game_id, tokens = two_humans(capped)
    for i in range(3):
        assert chat(capped, game_id, tokens[i % 2], f"m{i}").status_code == 201
    last = events(capped, game_id)["last_seq"]
    problem = assert_problem(chat(capped, game_id, tokens[1], "m3"), 409, "chat-full")
    assert problem["max_messages"] == 3
    assert events(capped, game_id)["last_seq"] == last
    assert sum(e["type"] == "chat" for e in events(capped, game_id)["events"]) == 3
    assert first_move(capped, game_id, tokens).status_code == 200  # the game plays on


@pytest.fixture
def limited(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[FlaskClient]:
    """The app with the rate limits as shipped."""
    application = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                              **SHIPPED_LIMITS})
    yield application.test_client()
    close_app(application)


def test_the_shipped_rate_limit_is_five_messages_per_ten_seconds_per_token(
        limited: FlaskClient, redis_client: redis.Redis) -> None:
    game_id, tokens = two_humans(limited)
    for i in range(5):
        assert chat(limited, game_id, tokens[0], f"quick {i}").status_code == 201
    refused = chat(limited, game_id, tokens[0], "one too many")
    problem = assert_problem(refused, 429, "rate-limited")
    assert problem["limit"] == "5 per 10 second per token for chat messages"
    assert 1 <= int(refused.headers["Retry-After"]) <= 10
    assert "one too many" not in json.dumps(events(limited, game_id))
    # the other seat has its own count, and the seat may still act
    assert chat(limited, game_id, tokens[1], "my turn to talk").status_code == 201
    assert first_move(limited, game_id, tokens).status_code == 200
    # the limiter keys hold the token's digest, never the token
    for key in redis_client.scan_iter("sixtysix:rate*"):
        assert all(t not in key.decode() for t in tokens)


def test_an_idempotency_key_logs_a_message_once(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    path = f"/v1/games/{game_id}/chat"
    keyed = {**bearer(tokens[0]), "Idempotency-Key": "say-1"}
    first = client.post(path, json={"text": "only once"}, headers=keyed)
    again = client.post(path, json={"text": " only once "}, headers=keyed)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json and again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert_problem(client.post(path, json={"text": "something else"}, headers=keyed), 422,
                   "idempotency-key-reused")
    # the key is the seat's own: the other seat's message under it is another message
    other = client.post(path, json={"text": "only once"},
                        headers={**bearer(tokens[1]), "Idempotency-Key": "say-1"})
    assert other.json is not None and other.json["seq"] == first.json["seq"] + 1  # type: ignore[index]
    texts = [e["text"] for e in events(client, game_id)["events"] if e["type"] == "chat"]
    assert texts == ["only once", "only once"]


def test_a_chat_key_kept_under_its_own_key_before_the_marks_hash_is_still_honoured(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    """A message's key a server wrote in the layout before the game's marks hash (its own
    string key, holding the message's ``seq``) still logs the message once for its day."""
    game_id, tokens = two_humans(client)
    path = f"/v1/games/{game_id}/chat"
    keyed = {**bearer(tokens[0]), "Idempotency-Key": "said-before"}
    first = client.post(path, json={"text": "said before"}, headers=keyed)
    assert first.status_code == 201 and first.json is not None
    scoped = f"chat:{digest(tokens[0])}:said-before"
    slot = MarkSlot.of(game_id, scoped)
    assert redis_client.hget(slot.key, slot.field) == str(first.json["seq"]).encode()
    redis_client.hdel(slot.key, slot.field)
    redis_client.set(idem_key(game_id, scoped), first.json["seq"], ex=600)
    again = client.post(path, json={"text": "said before"}, headers=keyed)
    assert again.status_code == 201 and again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert_problem(client.post(path, json={"text": "something else"}, headers=keyed), 422,
                   "idempotency-key-reused")
    texts = [e["text"] for e in events(client, game_id)["events"] if e["type"] == "chat"]
    assert texts == ["said before"]


_SPECIAL = st.sampled_from(["\t", "\n", "\x1b", "\x85", " ", "\u3000", "\u2028", "\u202e",
                            "\u2067", "\u200f", "\u0301", "\u0958", "\ufeff"])


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]) | _SPECIAL, max_size=210))
@settings(max_examples=400, deadline=None)
def test_the_documented_pattern_agrees_with_the_text_rules(text: str) -> None:
    stored = normalised(text)
    reason = refusal(stored, 1, MAX_CHARS)
    if re.fullmatch(PATTERN, text) and len(text) <= MAX_CHARS:
        assert reason is None or len(stored) > MAX_CHARS  # only NFC can lengthen a text
    if reason is None:
        assert re.fullmatch(PATTERN, stored) and len(stored) <= MAX_CHARS
