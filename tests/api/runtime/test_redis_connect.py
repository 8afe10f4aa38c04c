"""Parsing of Sentinel and Cluster URLs, and plain URLs against the real test server."""

from __future__ import annotations

import pytest
import redis

from api.runtime.redis_connect import RedisURLError, Target, connect, parse, redact
from api.runtime.redis_server import EmbeddedRedis


def test_sentinel_url_with_several_sentinels_master_and_db() -> None:
    url = "redis+sentinel://app:s%40cret@s1:26380,s2,[::1]:26381/games/2?sentinel_password=sp"
    assert parse(url) == Target(
        hosts=(("s1", 26380), ("s2", 26379), ("::1", 26381)),
        tls=False,
        username="app",
        password="s@cret",
        master="games",
        db=2,
        sentinel_password="sp",
    )


def test_cluster_url_with_password_only_and_tls() -> None:
    assert parse("rediss+cluster://secret@n1:7000,n2") == Target(
        hosts=(("n1", 7000), ("n2", 6379)), tls=True, password="secret"
    )


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("redis+sentinel://s1:26379", "master_name"),
        ("redis+sentinel://s1/games/zero", "db must be a number"),
        ("redis+sentinel://s1/games/0/extra", "master_name"),
        ("redis+cluster://n1:7000/1", "only db 0"),
        ("redis+cluster://n1:99999", "bad port"),
        ("redis+cluster://n1,,n2", "empty host"),
        ("redis+cluster://n1?read_from_replicas=1", "unsupported query"),
        ("redis+shard://n1", "unsupported scheme"),
        ("n1:6379", "not a URL"),
    ],
)
def test_malformed_urls_are_refused(url: str, reason: str) -> None:
    with pytest.raises(RedisURLError, match=reason):
        parse(url)


def test_plain_url_gives_a_single_server_client(redis_server: EmbeddedRedis) -> None:
    client = connect(redis_server.url, socket_timeout=2.0)
    try:
        assert isinstance(client, redis.Redis)
        assert client.ping()
    finally:
        client.close()


def test_unsupported_scheme_is_refused_before_connecting() -> None:
    with pytest.raises(RedisURLError, match="unsupported scheme"):
        connect("redis+shard://127.0.0.1:1")


@pytest.mark.parametrize("url", [
    "redis+sentinel://app:pa55word@s1,s2",                 # no master name
    "redis+cluster://:pa55word@n1:7000/3",                 # a cluster has no db 3
    "redis+cluster://pa55word@n1?tls=1",                   # unknown parameter
    "redis+sentinel://s1/m/0?sentinel_password=pa55word&x=1",
    "redis+nothing://u:pa55word@h",                        # unknown scheme
    "redis://u:pa55word@h:port/0",                         # redis-py's own complaint
    "redis://u:pa55word@h/0?password=pa55word&db=x",
    "u:pa55word@h:6379",                                   # not a URL at all
])
def test_error_messages_never_show_a_password(url: str) -> None:
    with pytest.raises(RedisURLError) as raised:
        connect(url)
    assert "pa55word" not in str(raised.value)
    assert "***" in str(raised.value)


def test_the_app_refuses_a_bad_url_without_showing_its_password() -> None:
    from api.app import create_app

    with pytest.raises(RedisURLError) as raised:
        create_app({"REDIS_URL": "redis://admin:pa55word@h:x/0"})
    assert "pa55word" not in str(raised.value) and "admin:***@h:x/0" in str(raised.value)


def test_redact() -> None:
    assert redact("redis://u:p/w?x@h:1/0") == "redis://u:***@h:1/0"
    assert redact("rediss://secret@h/0") == "rediss://***@h/0"
    assert redact("redis://h:6379/0") == "redis://h:6379/0"
    assert redact("redis://h/0?db=1&password=pp") == "redis://h/0?db=1&password=***"
