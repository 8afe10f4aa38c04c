"""The bound of rated matches per pair of player accounts (api/leaderboard/pairs.py)."""

from __future__ import annotations

import redis

from api.keys import pair_key
from api.leaderboard.pairs import PAIR_LIMIT, PAIR_WINDOW, admit


def test_a_pair_has_its_limit_within_the_window_and_a_retry_counts_once(
        redis_client: redis.Redis) -> None:
    now = 1_000_000.0
    for i in range(PAIR_LIMIT):
        assert admit(redis_client, f"t.{i}", ["ann", "bob"], now + i)
        assert admit(redis_client, f"t.{i}", ["bob", "ann"], now + i)  # the same game again
    assert not admit(redis_client, "t.over", ["ann", "bob"], now + PAIR_LIMIT)
    assert redis_client.zcard(pair_key("ann", "bob")) == PAIR_LIMIT  # the refused one unlisted
    assert admit(redis_client, "t.other", ["ann", "cid", None], now)  # another pair is free
    # a three-hand table: one pair at its limit makes the match unrated, and counts nothing
    assert not admit(redis_client, "t.three", ["ann", "bob", "cid"], now + PAIR_LIMIT)
    assert redis_client.zcard(pair_key("ann", "cid")) == 1
    assert admit(redis_client, "t.alone", ["ann", None], now)  # one player: no pair
    # the oldest leaves the window: one more may start
    assert admit(redis_client, "t.later", ["ann", "bob"], now + PAIR_WINDOW + 0.5)
    assert not admit(redis_client, "t.later2", ["ann", "bob"], now + PAIR_WINDOW + 0.5)
    assert 0 < redis_client.pttl(pair_key("ann", "bob")) <= PAIR_WINDOW * 1000
