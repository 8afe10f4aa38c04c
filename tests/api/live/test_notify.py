"""The long-poll listener thread logs its failures and subscribes again; it never dies."""

from __future__ import annotations

import logging
import threading
import time

import pytest
import redis

from api.keys import notify_channel
from api.live.notify import VersionWaiter, publish
from tests.waiting import until

DEADLINE = 20.0  # seconds; far less than the wait's own timeout below


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_a_malformed_notice_is_logged_and_the_listener_goes_on(
        redis_client: redis.Redis) -> None:
    records = _Records()
    logger = logging.getLogger("api.live.notify")
    logger.addHandler(records)
    # no recheck within the wait: only the listener can answer it before its timeout
    waiter = VersionWaiter(redis_client, recheck=60.0)
    redis_client.set("probe", 1)
    answered: list[int] = []
    waiting = threading.Thread(target=lambda: answered.append(waiter.wait(
        notify_channel("g1"), 1, 60.0, lambda: int(redis_client.get("probe") or 0))))
    waiting.start()
    try:
        deadline = time.monotonic() + DEADLINE
        while not any(r.levelno == logging.ERROR and r.exc_info for r in records.records):
            assert time.monotonic() < deadline, "the listener's failure was not logged"
            publish(redis_client, notify_channel("g1"), "not a version")
            time.sleep(0.05)
        assert "subscribing again" in records.records[-1].getMessage()
        redis_client.set("probe", 2)
        while waiting.is_alive():  # until the subscribed-again listener hears the notice
            assert time.monotonic() < deadline, "the listener did not come back"
            publish(redis_client, notify_channel("g1"), "2")
            waiting.join(0.1)
        assert answered == [2]
    finally:
        logger.removeHandler(records)
        redis_client.set("probe", 2)
        waiter.close()
        waiting.join()


def test_a_wait_on_something_that_is_no_channel_is_refused(redis_client: redis.Redis) -> None:
    """A bare game id would never be woken by a notice, only by the recheck."""
    waiter = VersionWaiter(redis_client)
    try:
        with pytest.raises(ValueError, match="not a notice channel"):
            waiter.wait("someGameId", 0, 0.1, lambda: 0)
        assert waiter.wait(notify_channel("someGameId"), 0, 0.1, lambda: 0) == 0
    finally:
        waiter.close()


def test_a_wait_rechecks_rarely_while_the_listener_is_subscribed(
        redis_client: redis.Redis) -> None:
    """Reads: the first, one at the timeout (and one when the subscription is confirmed);
    not one per ``recheck`` (0.2 s here: ten in the 2 s) as while the listener is away. The
    wait counted starts once the listener is subscribed: until then every wait rechecks, and
    a machine under load may take longer than a recheck to subscribe."""
    waiter = VersionWaiter(redis_client, recheck=0.2)
    reads: list[float] = []

    def current() -> int:
        reads.append(time.monotonic())
        return 1

    try:
        assert waiter.wait(notify_channel("g-rare"), 1, 0.0, lambda: 1) == 1  # starts it
        until(lambda: waiter._live, "the listener's subscription")
        assert waiter.wait(notify_channel("g-rare"), 1, 2.0, current) == 1
    finally:
        waiter.close()
    assert 2 <= len(reads) <= 3, reads


def test_a_notice_lost_while_the_listener_is_away_is_found_when_it_is_lost(
        redis_client: redis.Redis) -> None:
    """The listener losing Redis wakes every wait to recheck at once (no periodic recheck
    within the minute here), so a save whose notice it missed is answered."""
    waiter = VersionWaiter(redis_client, recheck=60.0, live_recheck=60.0)
    redis_client.set("probe", 1)
    answered: list[int] = []
    waiting = threading.Thread(target=lambda: answered.append(waiter.wait(
        notify_channel("g-lost"), 1, 60.0, lambda: int(redis_client.get("probe") or 0))))
    waiting.start()
    try:
        deadline = time.monotonic() + DEADLINE
        while not waiter._live:  # the listener's subscription is confirmed
            assert time.monotonic() < deadline, "the listener did not subscribe"
            time.sleep(0.01)
        redis_client.set("probe", 2)  # saved, but its notice never published
        redis_client.client_kill_filter(_type="pubsub")
        waiting.join(DEADLINE)
        assert answered == [2]
    finally:
        redis_client.set("probe", 2)
        waiter.close()
        waiting.join()
