"""Open a Redis client from one URL: a single server, a Sentinel-managed master, or a Cluster.

Accepted URLs (``user:password@`` optional everywhere; it authenticates against the data nodes):

- ``redis://host:port/db``, ``rediss://...`` (TLS), ``unix:///path.sock?db=N`` — one server,
  as :meth:`redis.Redis.from_url` reads them.
- ``redis+sentinel://host:port,host:port/master_name/db`` — the current master of
  ``master_name`` as reported by the Sentinels (default port 26379, default db 0). The client
  follows fail-overs: each new connection asks the Sentinels again. Query parameter
  ``sentinel_password`` authenticates against the Sentinels themselves.
  ``rediss+sentinel://`` speaks TLS to the master.
- ``redis+cluster://host:port,host:port`` — a Redis Cluster reached through any of these startup
  nodes (default port 6379); the client discovers the others. ``rediss+cluster://`` speaks TLS.
  A cluster has only db 0, so a path is refused.

Keyword ``options`` (``socket_timeout`` in seconds, ``decode_responses``, ...) go to every
connection to a data node.

``pool_size`` bounds the connections open at once (per data node of a cluster) with a
*blocking* pool: a command that finds them all in use waits for one to be released (at most
``socket_timeout`` seconds, then ``ConnectionError``) instead of failing at once. redis-py's
own pool refuses the 101st concurrent command with ``MaxConnectionsError``: a gevent worker
serving a burst of a few hundred requests at once (a crowd of long-polls coming back, players
arriving together) answered a share of them 503.

Error messages never show a password: a URL in one is written by :func:`redact`
(``redis://user:***@host:6379/0``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, TypeAlias
from urllib.parse import parse_qs, unquote

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.sentinel import Sentinel, SentinelConnectionPool

from engine.numerals import parse_natural

#: What :func:`connect` returns; the store and the long-poll waiter accept either.
Client: TypeAlias = redis.Redis | RedisCluster

SENTINEL_PORT = 26379
REDIS_PORT = 6379


#: Query parameters of a Redis URL whose values are secrets.
SECRET_PARAMS: Final = re.compile(r"(?i)((?:^|[?&])(?:sentinel_)?password=)[^&#]*")


class RedisURLError(ValueError):
    """The URL names no supported scheme, or its hosts, master name or db are malformed."""


def redact(url: str) -> str:
    """``url`` with its password (``user:***@``, or ``***@`` for a password alone) and any
    ``password`` or ``sentinel_password`` query parameter replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    if not sep:  # not a URL; what comes before an @ may still be a password
        return "***@" + url.rpartition("@")[2] if "@" in url else url
    # the last @ ends the user info, even if an unescaped password holds / ? or @
    userinfo, at, hosts = rest.rpartition("@")
    if at:
        user, colon, _ = userinfo.partition(":")
        userinfo = f"{user}:***@" if colon else "***@"
    hosts = SECRET_PARAMS.sub(r"\1***", hosts)
    return f"{scheme}://{userinfo}{hosts}"


@dataclass(frozen=True)
class Target:
    """A parsed Sentinel URL (``master`` set) or Cluster URL (``master`` None)."""

    hosts: tuple[tuple[str, int], ...]
    tls: bool
    username: str | None = None
    password: str | None = None
    master: str | None = None
    db: int = 0
    sentinel_password: str | None = None


def parse(url: str) -> Target:
    """Parse a ``redis+sentinel://`` or ``redis+cluster://`` URL (also with ``rediss+``)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise RedisURLError(f"not a URL: {redact(url)!r}")
    tls_prefix, plus, kind = scheme.lower().partition("+")
    if not plus or tls_prefix not in ("redis", "rediss") or kind not in ("sentinel", "cluster"):
        raise RedisURLError(f"unsupported scheme {scheme!r} in {redact(url)!r}")
    rest, _, query = rest.partition("?")
    netloc, _, path = rest.partition("/")
    userinfo, at, hostlist = netloc.rpartition("@")
    if not at:
        hostlist, userinfo = netloc, ""
    username, colon, password = userinfo.partition(":")
    if not colon:  # "redis+cluster://secret@host" carries a password only, as in redis://
        username, password = "", userinfo
    default_port = SENTINEL_PORT if kind == "sentinel" else REDIS_PORT
    hosts = tuple(_host_port(item, default_port) for item in hostlist.split(","))
    params = {name: values[-1] for name, values in parse_qs(query).items()}
    sentinel_password = params.pop("sentinel_password", None)
    if params:
        raise RedisURLError(
            f"unsupported query parameters {sorted(params)} in {redact(url)!r}")
    segments = [unquote(s) for s in path.split("/") if s]
    master: str | None = None
    db = 0
    if kind == "sentinel":
        if not segments or len(segments) > 2:
            raise RedisURLError(f"expected /master_name[/db] in {redact(url)!r}")
        master = segments[0]
        if len(segments) == 2:
            db = _db(segments[1])
    elif segments:
        raise RedisURLError(
            f"a Redis Cluster has only db 0; drop the path from {redact(url)!r}")
    return Target(
        hosts=hosts,
        tls=tls_prefix == "rediss",
        username=unquote(username) or None,
        password=unquote(password) or None,
        master=master,
        db=db,
        sentinel_password=sentinel_password,
    )


def _host_port(item: str, default_port: int) -> tuple[str, int]:
    item = item.strip()
    if item.startswith("["):  # [IPv6]:port
        host, _, port_part = item[1:].partition("]")
        port_text = port_part.removeprefix(":")
    else:
        host, _, port_text = item.partition(":")
    if not host:
        raise RedisURLError(f"empty host in {item!r}")
    if not port_text:
        return host, default_port
    port = parse_natural(port_text, 5)
    if port is None or not 0 < port < 65536:
        raise RedisURLError(f"bad port in {item!r}")
    return host, port


def _db(text: str) -> int:
    if (db := parse_natural(text)) is None:
        raise RedisURLError(f"db must be a number, not {text!r}")
    return db


class BlockingSentinelPool(SentinelConnectionPool, redis.BlockingConnectionPool):
    """The current master's connections as a blocking pool (see the module docstring)."""


#: Seconds a command waits for a free pooled connection when ``socket_timeout`` is not given.
POOL_WAIT: Final = 5.0


def connect(url: str, pool_size: int | None = None, **options: Any) -> Client:
    """Return a client for ``url`` (see the module docstring); ``pool_size``: at most that
    many connections at once (per node), waited for when all are busy; None: redis-py's pool.

    A single server or Sentinel client connects on first use; a cluster client connects at once
    to learn the slot map.
    """
    scheme = url.partition("://")[0].lower()
    pool: dict[str, Any] = {} if pool_size is None else {
        "max_connections": pool_size, "timeout": options.get("socket_timeout") or POOL_WAIT}
    if "+" not in scheme:
        try:
            if not pool:
                return redis.Redis.from_url(url, **options)
            client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
                url, **pool, **options))
        except ValueError as exc:
            raise RedisURLError(f"{exc} ({redact(url)!r})") from None
        client.auto_close_connection_pool = True  # as from_url does: close() closes the pool
        return client
    target = parse(url)
    options = {"username": target.username, "password": target.password, **options}
    if target.tls:
        options["ssl"] = True
    if target.master is None:
        nodes = [ClusterNode(host, port) for host, port in target.hosts]  # type: ignore[no-untyped-call]
        if pool:  # the cluster passes max_connections on to each node's pool, not timeout
            options.update(connection_pool_class=redis.BlockingConnectionPool,
                           max_connections=pool_size)
        return RedisCluster(startup_nodes=nodes, **options)
    if pool:
        options.update(connection_pool_class=BlockingSentinelPool, **pool)
    return _sentinel_master(target, target.master, options)


def _sentinel_master(target: Target, master: str, options: dict[str, Any]) -> redis.Redis:
    # The Sentinels get the same timeouts as the master, and their own password if any.
    sentinel_kwargs: dict[str, Any] = {
        key: options[key] for key in ("socket_timeout", "socket_connect_timeout") if key in options
    }
    if target.sentinel_password is not None:
        sentinel_kwargs["password"] = target.sentinel_password
    sentinel = Sentinel(list(target.hosts), sentinel_kwargs=sentinel_kwargs)  # type: ignore[no-untyped-call]
    client: redis.Redis = sentinel.master_for(master, db=target.db, **options)  # type: ignore[no-untyped-call]
    return client
