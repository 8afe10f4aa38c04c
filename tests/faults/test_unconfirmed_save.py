"""A save whose answer is lost: the answer must still be true, and a repeat never applies twice.

Two ways to lose the answer of a save that Redis has been sent, both with a small socket
timeout: ``CLIENT PAUSE ... WRITE`` from another connection (reads go on, the save waits until
the client gives up), and a busy Lua script from another connection (Redis reads nothing until
it ends, then runs the save it was sent although its client has gone: the move is applied
after the client was told of a timeout).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests

from api.clients.client import SixtySixClient
from api.games.store import FENCED, GameStore, OutcomeUnknown
from api.keys import game_key, write_key
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from engine import Rules, new_game
from tests.faults.integrity import stored_version
from tests.faults.play import TIMEOUT, UNLIMITED, TwoHumans

#: Socket timeout of the app's and the store's Redis connections in these tests, seconds.
REDIS_TIMEOUT = 0.5
#: Blocks the whole server for ARGV[1] microseconds.
BUSY = """
local start = redis.call('TIME')
local stop = start[1] * 1000000 + start[2] + tonumber(ARGV[1])
repeat local now = redis.call('TIME') until now[1] * 1000000 + now[2] >= stop
return 1
"""


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A redis-server of the test's own: pausing it disturbs no other test."""
    with EmbeddedRedis(tmp_path / "redis", appendonly=False) as server:
        yield server


def _pause_writes(url: str, ms: int) -> None:
    admin = redis.Redis.from_url(url)
    admin.execute_command("CLIENT", "PAUSE", ms, "WRITE")
    admin.close()


def _busy(url: str, ms: int) -> threading.Thread:
    """Start a script that keeps Redis busy for ``ms`` (it is running on return)."""
    def run() -> None:
        client = redis.Redis.from_url(url)
        client.eval(BUSY, 0, ms * 1000)
        client.close()

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.2)
    return thread


def _store(url: str, settle_wait: float) -> GameStore:
    client = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT,
                                  socket_connect_timeout=REDIS_TIMEOUT)
    return GameStore(client, ttl=600, settle_wait=settle_wait)


def test_a_save_applied_after_its_timeout_is_answered_as_saved(own_redis: EmbeddedRedis) -> None:
    store = _store(own_redis.url, settle_wait=3.0)
    state, events = new_game(Rules(), first_dealer=0)
    game = store.create("late", state, {"seats": []}, events)
    busy = _busy(own_redis.url, 1200)  # the save's answer times out after 0.5 s
    saved = store.save(game, [])
    busy.join()
    assert saved.version == game.version + 1
    direct = redis.Redis.from_url(own_redis.url)
    assert stored_version(direct, "late") == saved.version
    assert direct.keys(write_key("late", "*"))  # the record the settling read


def test_a_save_fenced_off_before_it_ran_is_the_store_error(own_redis: EmbeddedRedis) -> None:
    """The paused save is dropped with its connection; the settling runs once the pause ends
    and fences the save off: "unavailable, nothing applied" is then true for good."""
    store = _store(own_redis.url, settle_wait=3.0)
    state, events = new_game(Rules(), first_dealer=0)
    game = store.create("fenced", state, {"seats": []}, events)
    _pause_writes(own_redis.url, 900)
    with pytest.raises(redis.TimeoutError):
        store.save(game, [])
    direct = redis.Redis.from_url(own_redis.url)
    assert stored_version(direct, "fenced") == game.version
    records = direct.keys(write_key("fenced", "*"))
    assert [direct.get(k) for k in records].count(FENCED.encode()) == 1


def test_a_save_redis_does_not_settle_in_time_is_outcome_unknown(
        own_redis: EmbeddedRedis) -> None:
    store = _store(own_redis.url, settle_wait=0.3)
    state, events = new_game(Rules(), first_dealer=0)
    game = store.create("unknown", state, {"seats": []}, events)
    _pause_writes(own_redis.url, 3000)
    with pytest.raises(OutcomeUnknown) as info:
        store.save(game, [])
    assert (info.value.what, info.value.ident) == ("game", "unknown")
    assert isinstance(info.value.__cause__, redis.TimeoutError)


def test_a_refused_connection_is_the_store_error_not_settled() -> None:
    """Nothing was sent: no settling (which would end in OutcomeUnknown), retrying is safe."""
    store = _store("redis://127.0.0.1:1/0", settle_wait=30.0)
    state, _ = new_game(Rules(), first_dealer=0)
    with pytest.raises(redis.ConnectionError):
        store.create("refused", state, {"seats": []}, [])


@pytest.fixture
def paused_app(own_redis: EmbeddedRedis) -> Iterator[str]:
    config = {**UNLIMITED, "SIXTYSIX_REDIS_TIMEOUT": REDIS_TIMEOUT}
    with LocalServer(own_redis.url, config) as server:
        yield server.url


def test_an_action_paused_in_its_save_is_answered_truly_and_replays_once(
        paused_app: str, own_redis: EmbeddedRedis) -> None:
    url, direct = paused_app, redis.Redis.from_url(own_redis.url)
    with requests.Session() as session:
        game = TwoHumans.create(session, url)
        seat, view = next((s, v) for s in (0, 1)
                          if (v := game.view(session, url, s))["legal_actions"])
        before = view["version"]
        action = {"json": view["legal_actions"][0], "timeout": TIMEOUT,
                  "headers": {**game.auth(seat), "Idempotency-Key": "paused-move-1"}}
        _pause_writes(own_redis.url, 3000)
        paused_until = time.monotonic() + 3.0
        answer = session.post(f"{url}/v1/games/{game.game_id}/actions", **action)
        problem = answer.json()
        assert answer.status_code == 503, answer.text
        assert problem["type"].endswith("/outcome-unknown")
        assert "Retry-After" not in answer.headers
        assert "may have been applied" in problem["detail"]
        assert answer.headers["Content-Type"] == "application/problem+json"
        time.sleep(max(0.0, paused_until - time.monotonic()) + 0.2)
        # the truth, and the repeat under the same key: applied exactly once
        first = session.post(f"{url}/v1/games/{game.game_id}/actions", **action)
        again = session.post(f"{url}/v1/games/{game.game_id}/actions", **action)
        assert first.status_code == again.status_code == 200, (first.text, again.text)
        assert first.json()["version"] == again.json()["version"] == before + 1
        assert again.headers["Idempotent-Replayed"] == "true"
        assert stored_version(direct, game.game_id) == before + 1


def test_the_client_repeats_an_action_of_unknown_outcome_under_its_key(
        paused_app: str, own_redis: EmbeddedRedis) -> None:
    """api.clients.client sends every action with a key and repeats it on outcome-unknown (after a
    pause of its own, there being no Retry-After) until the store answers."""
    with SixtySixClient(paused_app) as client:
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "human"}],
                                  first_dealer=1)  # seat 0 leads
        me = client.with_token(game["seats"][0]["token"])
        view = me.view(game["game_id"])
        _pause_writes(own_redis.url, 2500)
        moved = me.act(game["game_id"], view["legal_actions"][0])
        assert moved["version"] == view["version"] + 1
        assert me.view(game["game_id"])["version"] == view["version"] + 1
    direct = redis.Redis.from_url(own_redis.url)
    assert stored_version(direct, game["game_id"]) == view["version"] + 1
    assert direct.hget(game_key(game["game_id"]), "v") == str(view["version"] + 1).encode()
