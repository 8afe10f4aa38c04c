"""Configuration from the environment, with defaults; ``create_app(config)`` overrides it.

=============================  ==========================================  ==============
Variable                       Meaning                                     Default
=============================  ==========================================  ==============
``REDIS_URL``                  Redis server holding the games              ``redis://localhost:6379/0``
``SIXTYSIX_GAME_TTL``          seconds a game lives after its last write   604800 (7 days)
``SIXTYSIX_IDEMPOTENCY_TTL``   seconds an ``Idempotency-Key`` is honoured  86400 (1 day)
``SIXTYSIX_MAX_WAIT``          longest long-poll ``wait`` in seconds       30
``SIXTYSIX_REDIS_TIMEOUT``     Redis socket and connect timeout, seconds   5
``SIXTYSIX_REDIS_POOL``        Redis connections a web process opens at    100
                               once; a request finding all busy waits for
                               one (up to the timeout above)
``SIXTYSIX_RETRY_AFTER``       ``Retry-After`` seconds of a 503            5
``SIXTYSIX_MAX_BODY``          largest request body in bytes (else 413)    65536
``SIXTYSIX_RATE_ADDRESS``      ``/v1`` requests per client address         ``200/second``
``SIXTYSIX_RATE_CREATE``       games created per client address            ``10 per 10 seconds``
``SIXTYSIX_RATE_ACTIONS``      actions per seat token                      ``150/second``
``SIXTYSIX_RATE_PLAYERS``      players created per client address          ``10/minute``
``SIXTYSIX_RATE_TABLES``       tables created per client address           ``30/minute``
``SIXTYSIX_RATE_CHAT``         chat messages per seat token                ``5 per 10 seconds``
``SIXTYSIX_MAX_CHAT``          chat messages a game holds (then 409)       500
``SIXTYSIX_TABLE_OPEN_TTL``    seconds an open table waits for its seats   3600 (1 hour)
``SIXTYSIX_MAX_OPEN_TABLES``   open tables a player may have at once       10
                               (then 409; 0: no cap)
``SIXTYSIX_TRUSTED_PROXIES``   proxies whose ``X-Forwarded-For`` is        0
                               trusted for the client address
``SIXTYSIX_CORS_ORIGINS``      origins allowed by CORS, comma-separated    none (closed)
                               (``*``: any)
``SIXTYSIX_LOG_REQUESTS``      1: one log line per request; 0: none        1
``SIXTYSIX_LOG_FORMAT``        ``json``: a JSON object per log line;       ``json``
                               ``text``: readable lines (``sixtysix
                               serve``'s default)
``SIXTYSIX_STREAM_HEARTBEAT``  seconds between two heartbeat comments of   15
                               an event stream
``SIXTYSIX_PRESENCE_WINDOW``   seconds a seat counts as connected after    30
                               it was last seen
``QUEUE_URL``                  Redis of the task queue (one server or a    ``REDIS_URL``
                               Sentinel primary, never a cluster); several
                               separated by spaces: the queue's shards
``SIXTYSIX_COMPUTER_WAIT``     seconds a write waits for the computers'    10
                               replies by default (``Prefer`` changes it)
``SIXTYSIX_ADVICE_QUEUE``      hints and analyses waiting for a worker at  8
                               most (one more: 503 with ``Retry-After``)
``SIXTYSIX_ADVICE_WAIT``       seconds a hint or analysis waits for its    15
                               worker's answer (then 503, nothing saved)
``DATABASE_URL``               the archive of finished games (SQLAlchemy   none (no archive;
                               URL: ``sqlite:///<path>``,                  ``sixtysix serve``:
                               ``postgresql+psycopg://...``)               a SQLite file)
``SIXTYSIX_ARCHIVE_GRACE``     seconds a finished game stays in Redis      3600 (1 hour)
                               once archived
``SIXTYSIX_THINK_SCALE``       every computer level's work (deals,         1.0
                               playouts, nodes) and CPU cap times this
``SIXTYSIX_MOVE_CPU_MS``       CPU ms a computer move stops at, whatever   0 (none)
                               its level
``SIXTYSIX_REPLY_TARGET``      seconds from a human's action to the        1.5
                               computers' reply, the queue's wait
                               included (the p99 aimed at)
``SIXTYSIX_THINK_FLOOR``       the least share of its level's work a       0.125
                               reply gets when the queue is long
=============================  ==========================================  ==============

``SIXTYSIX_MAX_GAMES_PER_ADDRESS`` (default 200; 0: no cap) is the most active games (not
expired, match not over) created from one client address; one more is a 403 problem.

``SIXTYSIX_ARCHIVE_WEB_DRAIN`` (default 5; 0: never) is the seconds between two drains of the
archive's pending games by a web process while no worker process runs
(:mod:`api.http.archive_drain`); ``SIXTYSIX_ARCHIVE_PENDING_WARN`` (default 10000) the finished
games waiting for the archive above which ``/readyz`` says ``backlog`` (none is refused).

The four think-time settings are read by the worker processes (:mod:`api.games.think`,
:mod:`api.worker.deadline`; docs/operations.md gives the capacity of each).

Rate limits are in ``limits`` notation (``10/second``, ``100 per 5 minutes``); ``off`` disables
one; :mod:`api.http.limits` says why the defaults are what they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.numerals import parse_natural

DEFAULTS: dict[str, Any] = {
    "REDIS_URL": "redis://localhost:6379/0",
    "SIXTYSIX_GAME_TTL": 7 * 24 * 3600,
    "SIXTYSIX_IDEMPOTENCY_TTL": 24 * 3600,
    "SIXTYSIX_MAX_GAMES_PER_ADDRESS": 200,
    "SIXTYSIX_MAX_WAIT": 30,
    "SIXTYSIX_REDIS_TIMEOUT": 5.0,
    "SIXTYSIX_REDIS_POOL": 100,
    "SIXTYSIX_RETRY_AFTER": 5,
    "SIXTYSIX_MAX_BODY": 64 * 1024,
    "SIXTYSIX_RATE_ADDRESS": "200/second",
    "SIXTYSIX_RATE_CREATE": "10 per 10 seconds",
    "SIXTYSIX_RATE_ACTIONS": "150/second",
    "SIXTYSIX_RATE_PLAYERS": "10/minute",
    "SIXTYSIX_RATE_TABLES": "30/minute",
    "SIXTYSIX_RATE_CHAT": "5 per 10 seconds",
    "SIXTYSIX_MAX_CHAT": 500,
    "SIXTYSIX_TABLE_OPEN_TTL": 3600,
    "SIXTYSIX_MAX_OPEN_TABLES": 10,
    "SIXTYSIX_TRUSTED_PROXIES": 0,
    "SIXTYSIX_CORS_ORIGINS": "",
    "SIXTYSIX_LOG_REQUESTS": 1,
    "SIXTYSIX_LOG_FORMAT": "json",
    "SIXTYSIX_STREAM_HEARTBEAT": 15.0,
    "SIXTYSIX_PRESENCE_WINDOW": 30.0,
    "QUEUE_URL": "",
    "SIXTYSIX_COMPUTER_WAIT": 10.0,
    "SIXTYSIX_ADVICE_QUEUE": 8,
    "SIXTYSIX_ADVICE_WAIT": 15.0,
    "DATABASE_URL": "",
    "SIXTYSIX_ARCHIVE_GRACE": 3600,
    "SIXTYSIX_ARCHIVE_WEB_DRAIN": 5.0,
    "SIXTYSIX_ARCHIVE_PENDING_WARN": 10000,
    "SIXTYSIX_THINK_SCALE": 1.0,
    "SIXTYSIX_MOVE_CPU_MS": 0,
    "SIXTYSIX_REPLY_TARGET": 1.5,
    "SIXTYSIX_THINK_FLOOR": 0.125,
}


def from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """The settings of :data:`DEFAULTS`, each taken from ``env`` when set (same type)."""
    out: dict[str, Any] = {}
    for name, default in DEFAULTS.items():
        raw = env.get(name, "").strip()
        if not raw:
            out[name] = default
            continue
        try:
            out[name] = _parsed(raw, type(default))
        except ValueError:
            raise ValueError(f"{name} must be a {type(default).__name__}; got {raw!r}") from None
    return out


def _parsed(raw: str, kind: type) -> Any:
    """``raw`` as a setting of type ``kind``: an ``int`` is ASCII digits only
    (:func:`~engine.numerals.parse_natural`); ``ValueError`` if it is not one."""
    if kind is not int:
        return kind(raw)
    number = parse_natural(raw)
    if number is None:
        raise ValueError(raw)
    return number
