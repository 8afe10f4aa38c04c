"""A chat message whose answer is lost is settled as a save is: logged once, or not at all."""

from __future__ import annotations

import pytest
import redis

from api.keys import events_key
from api.live.chat import chat_event
from api.runtime.redis_server import EmbeddedRedis
from engine import Rules, new_game
from tests.faults.test_unconfirmed_save import _busy, _pause_writes, _store, own_redis

__all__ = ["own_redis"]  # the fixture, used by name

META = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}


def _game(store_url: str, game_id: str, settle_wait: float) -> tuple[int, int]:
    """A new game's version and event count, made through a store of ``settle_wait``."""
    store = _store(store_url, settle_wait)
    state, events = new_game(Rules(), first_dealer=0)
    game = store.create(game_id, state, dict(META), events)
    return game.version, game.event_count


def test_a_message_logged_after_its_timeout_is_answered_as_logged(
        own_redis: EmbeddedRedis) -> None:
    version, count = _game(own_redis.url, "late", 3.0)
    store = _store(own_redis.url, settle_wait=3.0)
    store.chat("late", chat_event(META, 0, "hi"), 10)  # Redis now has the script
    busy = _busy(own_redis.url, 1200)  # the answer times out after 0.5 s
    logged, replayed = store.chat("late", chat_event(META, 1, "still there?"), 10)
    busy.join()
    assert (logged.seq, replayed) == (count + 2, False)
    direct = redis.Redis.from_url(own_redis.url)
    assert direct.llen(events_key("late")) == count + 2
    assert store.version("late") == version


def test_a_message_fenced_off_before_it_ran_is_the_store_error(
        own_redis: EmbeddedRedis) -> None:
    _, count = _game(own_redis.url, "fenced", 3.0)
    store = _store(own_redis.url, settle_wait=3.0)
    _pause_writes(own_redis.url, 900)
    with pytest.raises(redis.TimeoutError):
        store.chat("fenced", chat_event(META, 0, "hello?"), 10)
    direct = redis.Redis.from_url(own_redis.url)
    assert direct.llen(events_key("fenced")) == count  # nothing logged: retrying is safe
