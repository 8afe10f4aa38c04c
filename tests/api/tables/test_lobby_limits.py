"""Creating players and tables is rate limited per client address (429, Retry-After)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from flask.testing import FlaskClient

from api.app import close_app, create_app
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import assert_problem, bearer


@pytest.fixture
def limited(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[FlaskClient]:
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                      "SIXTYSIX_RATE_ADDRESS": "off", "SIXTYSIX_RATE_CREATE": "off",
                      "SIXTYSIX_RATE_ACTIONS": "off", "SIXTYSIX_RATE_PLAYERS": "3/minute",
                      "SIXTYSIX_RATE_TABLES": "2/minute"})
    yield app.test_client()
    close_app(app)


def test_players_per_address(limited: FlaskClient) -> None:
    for i in range(3):
        assert limited.post("/v1/players", json={"name": f"Ann {i}"}).status_code == 201
    problem = assert_problem(limited.post("/v1/players", json={"name": "Ann 4"}), 429,
                             "rate-limited")
    assert problem["limit"] == "3 per 1 minute per address for new players"
    other = limited.post("/v1/players", json={"name": "Ann 5"},
                         environ_base={"REMOTE_ADDR": "192.0.2.8"})
    assert other.status_code == 201
    assert limited.get("/v1/players/me", headers=bearer(other.json["token"])).status_code == 200  # type: ignore[index]


def test_tables_per_address(limited: FlaskClient) -> None:
    token = limited.post("/v1/players", json={"name": "Ann"}).json["token"]  # type: ignore[index]
    seats = {"seats": [{"kind": "player"}, {"kind": "open"}]}
    for _ in range(2):
        assert limited.post("/v1/tables", json=seats, headers=bearer(token)).status_code == 201
    problem = assert_problem(limited.post("/v1/tables", json=seats, headers=bearer(token)), 429,
                             "rate-limited")
    assert problem["limit"] == "2 per 1 minute per address for new tables and rematches"
    assert 1 <= int(limited.post("/v1/tables", json=seats,
                                 headers=bearer(token)).headers["Retry-After"]) <= 60
    assert limited.get("/v1/tables").status_code == 200  # listing is not the creation limit


def test_rematches_share_the_tables_budget(limited: FlaskClient) -> None:
    """A flood of rematches (two accounts resigning and asking again) is slowed like tables."""
    token = limited.post("/v1/players", json={"name": "Ann"}).json["token"]  # type: ignore[index]
    seats = {"seats": [{"kind": "player"}, {"kind": "computer"}]}
    table = limited.post("/v1/tables", json=seats, headers=bearer(token)).json
    assert table is not None
    rematch = f"/v1/tables/{table['table_id']}/rematch"
    assert limited.post(rematch, headers=bearer(token)).status_code == 409  # still playing
    problem = assert_problem(limited.post(rematch, headers=bearer(token)), 429, "rate-limited")
    assert problem["limit"] == "2 per 1 minute per address for new tables and rematches"
