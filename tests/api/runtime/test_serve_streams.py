"""Streams and long-polls against a real ``sixtysix serve`` with its default worker (gevent).

One worker with two threads (which a gthread worker would be bound by): many streams and
long-polls wait at once, and the server still answers every other request meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
import requests

from api.runtime.redis_server import HOST, EmbeddedRedis
from tests.api.serving import sixtysix_serve

WAITING = 12  # more than workers x threads (1 x 2)


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
