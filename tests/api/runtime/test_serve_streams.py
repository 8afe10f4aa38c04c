"""Streams and long-polls against a real ``sixtysix serve`` with its default worker (gevent).

One worker with two threads (which a gthread worker would be bound by): many streams and
long-polls wait at once, and the server still answers every other request meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
import requests

from api.runtime.redis_server import HOST, EmbeddedRedis
from tests.api.helpers import HEARTS_DECK
from tests.api.serving import sixtysix_serve
from tests.api.sse import Message, Sse

WAITING = 12  # more than workers x threads (1 x 2)
#: Seconds a stream is read after a change to count what it sends (5 heartbeats).
COUNTED = 1.0


@pytest.fixture(scope="module")
def base(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[str]:
    log = tmp_path_factory.mktemp("serve-streams") / "stderr.log"
    with sixtysix_serve(redis_server.url, log, SIXTYSIX_THREADS="2",
                        SIXTYSIX_STREAM_HEARTBEAT="0.2") as port:
        yield f"http://{HOST}:{port}"


def _game(base: str) -> tuple[str, list[str]]:
    created = requests.post(f"{base}/v1/games", timeout=10, json={
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    return created["game_id"], [s["token"] for s in created["seats"]]


def test_streams_and_long_polls_do_not_hold_the_workers_threads(
        base: str, redis_client: redis.Redis) -> None:
    game_id, tokens = _game(base)
    streams = [requests.get(f"{base}/v1/games/{game_id}/stream", stream=True, timeout=10)
               for _ in range(WAITING)]
    try:
        chunks = [s.iter_content(chunk_size=None) for s in streams]
        firsts = [next(c) for c in chunks]
        assert all(b"event: view" in f for f in firsts)
        with ThreadPoolExecutor(WAITING) as pool:
            polls = [pool.submit(requests.get, f"{base}/v1/games/{game_id}", timeout=20,
                                 params={"after_version": 1, "wait": 15},
                                 headers={"Authorization": f"Bearer {tokens[0]}"})
                     for _ in range(WAITING)]
            # while all of them wait, the one worker answers as usual (timeout: a deadline)
            assert requests.get(f"{base}/healthz", timeout=5).ok
            views = [requests.get(f"{base}/v1/games/{game_id}", timeout=5,
                                  headers={"Authorization": f"Bearer {t}"}).json()
                     for t in tokens]
            seat = next(i for i, v in enumerate(views) if v["legal_actions"])
            acted = requests.post(f"{base}/v1/games/{game_id}/actions", timeout=5,
                                  json=views[seat]["legal_actions"][0],
                                  headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert acted.status_code == 200
            assert all(p.result().json()["version"] == 2 for p in polls)
        for stream_chunks in chunks:  # each stream has the change: its event, the new view
            seen = b""
            for chunk in stream_chunks:
                seen += chunk
                if b'"version":2' in seen:
                    break
            assert b"event: game_event" in seen
    finally:
        for stream in streams:
            stream.close()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _read_for(stream: Sse, seconds: float) -> list[Message]:
    """The events ``stream`` sends within ``seconds``, without comments and ``presence``
    (heartbeats, 0.2 s apart, end every read in time)."""
    out = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = stream.next()
        if message.comment is None and message.event != "presence":
            out.append(message)
    return out


def _posted(response: requests.Response, status: int) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def test_a_hint_then_a_chat_is_sent_once_and_later_moves_follow(base: str) -> None:
    """A hint saves a version with no event; a chat message then logs an event at that same
    version. Each open stream sends the chat and one view, then waits: it neither repeats the
    view (it once sent the hint's view in a busy loop, the chat never, and starved the
    worker) nor misses the moves after."""
    created = _posted(requests.post(f"{base}/v1/games", timeout=10, json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "deck": HEARTS_DECK, "first_dealer": 1}), 201)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    streams = [Sse(requests.get(f"{base}/v1/games/{game_id}/stream", headers=headers,
                                stream=True, timeout=(5, 5)))
               for headers in (_bearer(tokens[0]), _bearer(tokens[1]), {})]
    try:
        assert {s.next().data["version"] for s in streams} == {1}
        hinted = _posted(requests.post(f"{base}/v1/games/{game_id}/hint?budget_ms=40",
                                       headers=_bearer(tokens[0]), timeout=30), 200)
        for stream in streams:
            view = stream.until("view")[-1].data
            assert (view["version"], view["hinted_hands"]) == (
                hinted["version"], [{"seat": 0, "hand_no": 1, "match_no": 1}])
        said = _posted(requests.post(f"{base}/v1/games/{game_id}/chat", timeout=5,
                                     json={"text": "good luck"}, headers=_bearer(tokens[1])),
                       201)
        for stream in streams:
            got = _read_for(stream, COUNTED)
            assert [(m.event, m.id) for m in got] == [("game_event", said["seq"]),
                                                      ("view", None)], len(got)
            assert got[0].data["text"] == "good luck"
            assert got[1].data["version"] == hinted["version"]
        assert requests.get(f"{base}/healthz", timeout=5).ok
        _posted(requests.post(f"{base}/v1/games/{game_id}/actions", timeout=5,
                              json={"type": "play", "card": "QH"},
                              headers=_bearer(tokens[0])), 200)
        for stream in streams:
            got = stream.until("view")
            assert [m.data["type"] for m in got if m.event == "game_event"] == ["card_played"]
            assert got[-1].data["version"] == hinted["version"] + 1
            assert got[-1].data["trick"] == [{"seat": 0, "card": "QH"}]
    finally:
        for stream in streams:
            stream.close()
