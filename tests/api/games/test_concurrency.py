"""Twenty identical actions at once over real sockets: exactly one is applied."""

from __future__ import annotations

import threading

import redis
import requests

from api.keys import events_key, game_key
from tests.api.helpers import DECK


def _create(live_url: str) -> tuple[str, list[str]]:
    created = requests.post(f"{live_url}/v1/games", json={
        "seats": [{"kind": "human"}, {"kind": "human"}], "deck": DECK, "first_dealer": 1,
    }, timeout=30).json()
    return created["game_id"], [s["token"] for s in created["seats"]]


def _race(url: str, n: int, headers: list[dict[str, str]], body: dict[str, str],
          ) -> list[requests.Response]:
    barrier = threading.Barrier(n)
    results: list[requests.Response | None] = [None] * n

    def one(i: int) -> None:
        with requests.Session() as session:  # its own connection
            barrier.wait()
            results[i] = session.post(url, json=body, headers=headers[i], timeout=60)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r is not None for r in results)
    return [r for r in results if r is not None]


def test_twenty_identical_actions_apply_once(live_url: str, redis_client: redis.Redis) -> None:
    game_id, tokens = _create(live_url)
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    headers = [{**auth, "If-Match": '"1"'} if i % 2 else auth for i in range(20)]
    responses = _race(f"{live_url}/v1/games/{game_id}/actions", 20, headers,
                      {"type": "play", "card": "AC"})
    statuses = sorted(r.status_code for r in responses)
    assert statuses.count(200) == 1, statuses
    assert set(statuses) <= {200, 409, 412}
    for r in responses:
        if r.status_code != 200:
            assert r.headers["Content-Type"] == "application/problem+json"
    view = requests.get(f"{live_url}/v1/games/{game_id}", headers=auth, timeout=30).json()
    assert view["version"] == 2 and view["trick"] == [{"seat": 0, "card": "AC"}]
    assert len(view["hand"]) == 5
    stored_count = int(redis_client.hget(game_key(game_id), "n") or 0)
    assert redis_client.llen(events_key(game_id)) == stored_count
    assert sum(1 for line in redis_client.lrange(events_key(game_id), 0, -1)
               if b'"card_played"' in line) == 1


def test_concurrent_retries_with_one_idempotency_key_all_get_the_answer(
        live_url: str, redis_client: redis.Redis) -> None:
    game_id, tokens = _create(live_url)
    headers = [{"Authorization": f"Bearer {tokens[0]}", "Idempotency-Key": "same"}] * 10
    responses = _race(f"{live_url}/v1/games/{game_id}/actions", 10, headers,
                      {"type": "play", "card": "AC"})
    assert {r.status_code for r in responses} == {200}
    assert len({r.text for r in responses}) == 1
    assert int(redis_client.hget(game_key(game_id), "v") or 0) == 2
