"""Redis stopped mid-game: every request that needs the store is a 503 with Retry-After (never a
500); once Redis is back (from its append-only file) the game goes on where it was."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import redis
import requests

from api.keys import RATE_PREFIX
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.faults.integrity import kill9
from tests.faults.play import TIMEOUT, TwoHumans


def _requests(url: str, game: TwoHumans) -> list[tuple[str, str, dict[str, object] | None]]:
    """(method, path, JSON body) of every endpoint that reads or writes the store."""
    return [
        ("GET", f"/v1/games/{game.game_id}", None),
        ("GET", f"/v1/games/{game.game_id}?after_version={game.acked}&wait=1", None),
        ("GET", f"/v1/games/{game.game_id}/events?after=0", None),
        ("POST", f"/v1/games/{game.game_id}/actions", {"type": "close"}),
        ("POST", "/v1/games", {"seats": [{"kind": "human"}, {"kind": "computer"}]}),
        ("GET", "/readyz", None),
    ]


@pytest.mark.parametrize("stop", ["shutdown", "kill"])
def test_store_outage_is_503_then_the_game_goes_on(tmp_path: Path, stop: str) -> None:
    data = tmp_path / "redis"
    first = EmbeddedRedis(data, appendonly=True, extra_args=("--appendfsync", "always")).start()
    port = first.port
    try:
        # the app as deployed: rate limits on at their defaults, counted in the same Redis
        with LocalServer(first.url, {"SIXTYSIX_RETRY_AFTER": 7, "RATELIMIT_ENABLED": True}
                         ) as server, requests.Session() as session:
            url = server.url
            game = TwoHumans.create(session, url)
            rng = random.Random(5)
            for _ in range(6):
                assert game.move(session, url, rng) is not None
            with redis.Redis.from_url(first.url) as counts:
                assert counts.keys(f"*{RATE_PREFIX}/*"), "the limiter counts in this Redis"
            before = game.acked
            if stop == "kill":
                kill9(first.url)
            first.stop()
            for method, path, body in _requests(url, game):
                response = session.request(method, url + path, json=body,
                                           headers=game.auth(0), timeout=TIMEOUT)
                assert response.status_code == 503, (method, path, response.text)
                assert response.headers["Retry-After"] == "7"
                assert response.headers["Content-Type"] == "application/problem+json"
                assert response.json()["type"].endswith("/store-unavailable")
            assert session.get(f"{url}/healthz", timeout=TIMEOUT).status_code == 200

            with EmbeddedRedis(data, port=port, appendonly=True):
                assert session.get(f"{url}/readyz", timeout=TIMEOUT).status_code == 200
                assert game.view(session, url, 0)["version"] == before
                for _ in range(4):
                    response = game.move(session, url, rng)
                    assert response is not None and response.status_code == 200, response
                assert game.acked == before + 4
    finally:
        first.stop()
