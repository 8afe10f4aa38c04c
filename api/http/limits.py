"""Rate limits (flask-limiter, counted in the game store's Redis), answered 429 as problem+json.

Limits, in ``limits`` notation (``10/second``, ``100 per 5 minutes``; ``off`` disables one):

* ``SIXTYSIX_RATE_ADDRESS`` — every ``/v1`` request, per client address;
* ``SIXTYSIX_RATE_CREATE`` — ``POST /v1/games`` and ``POST /v1/tour/{station}/start`` (both
  create a game; one budget), per client address;
* ``SIXTYSIX_RATE_PLAYERS`` — ``POST /v1/players``, per client address;
* ``SIXTYSIX_RATE_TABLES`` — ``POST /v1/tables`` and ``POST /v1/tables/{id}/rematch`` (both
  start matches; one budget, so a flood of rematches is slowed as a flood of tables is), per
  client address;
* ``SIXTYSIX_RATE_ACTIONS`` — ``POST /v1/games/{game_id}/actions``, per seat token (counted
  under the token's SHA-256, never the token);
* ``SIXTYSIX_RATE_CHAT`` — ``POST /v1/games/{game_id}/chat``, per seat token (likewise).

Probes, ``/metrics`` and the documentation are never limited. A 429 names the limit that was
hit (``"limit": "150 per 1 second per token"``) and says in ``Retry-After`` how many seconds
until a request would be counted again. Counting uses the moving-window strategy (each request
is remembered for the limit's window, one Redis round trip per limit and request), so a client
that honours ``Retry-After`` waits at most one window (a second for the per-second limits), never
the rest of a fixed minute. If Redis is unreachable the request is a 503, like any other store
outage.

The defaults let any one match of a fast bot through untouched and slow a client that plays
match after match without pause, without locking it out (the measurements behind them:
docs/performance.md#rate-limits).

The client address is the peer's, or with ``SIXTYSIX_TRUSTED_PROXIES = n`` the n-th address
from the right of ``X-Forwarded-For`` (set n to the number of proxies in front, e.g. 1 behind
the nginx of ``deploy/``; never more, or clients choose their own address).

Storage: a single server or a Sentinel-managed master shares the game store's connection pool
(so a Sentinel fail-over is followed alike); for a Redis Cluster, limits builds its own cluster
client from the same startup nodes, credentials and TLS setting. ``RATELIMIT_ENABLED = False``
in the Flask config turns limiting off.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any, Final

import redis
from apispec import APISpec, BasePlugin
from flask import Flask, Response, request
from flask_limiter import ApplicationLimit, Limiter, RequestLimit
from flask_limiter.errors import RateLimitExceeded
from limits import parse_many
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response as BaseResponse

from api.games.tokens import digest
from api.http.errors import PROBLEM_JSON, ProblemType, problem_response
from api.http.support import required_token
from api.keys import RATE_PREFIX
from api.runtime.redis_connect import Client, parse

RATE_LIMITED: Final = ProblemType("rate-limited", 429, "Too many requests")
#: A 429 as the actions limit answers it (documentation).
RATE_LIMITED_EXAMPLE: Final = {
    "type": RATE_LIMITED.uri, "title": RATE_LIMITED.title, "status": 429,
    "detail": "rate limit of 10 per 1 second per token exceeded; retry in 1 s",
    "instance": "/v1/games/q3V9k2xR0aLmT7wZ/actions",
    "request_id": "4c1f6078d1b74eeebd1006b443acea6e", "limit": "10 per 1 second per token"}
#: Endpoints with a limit of their own (flask-smorest names them blueprint.ViewClass).
CREATE_ENDPOINT: Final = "games.Games"
ACTIONS_ENDPOINT: Final = "actions.Actions"
PLAYERS_ENDPOINT: Final = "players.Players"
TABLES_ENDPOINT: Final = "tables.Tables"
REMATCH_ENDPOINT: Final = "tables.Rematch"
CHAT_ENDPOINT: Final = "chat.Chat"
TOUR_START_ENDPOINT: Final = "tour.TourStart"
OFF: Final = "off"
#: Counting strategy (see the module docstring).
STRATEGY: Final = "moving-window"
#: The settings that hold the limits.
LIMIT_SETTINGS: Final = ("SIXTYSIX_RATE_ADDRESS", "SIXTYSIX_RATE_CREATE", "SIXTYSIX_RATE_ACTIONS",
                         "SIXTYSIX_RATE_PLAYERS", "SIXTYSIX_RATE_TABLES", "SIXTYSIX_RATE_CHAT")


def client_address() -> str:
    return request.remote_addr or "unknown"


def _token_key() -> str:
    return digest(required_token())


def _posting_to(*endpoints: str) -> Callable[[], bool]:
    return lambda: request.method == "POST" and request.endpoint in endpoints


def _with_token(endpoint: str) -> Callable[[], bool]:
    """A POST to ``endpoint`` with a token (without one it is a 401 and counts per address
    only)."""
    posting = _posting_to(endpoint)
    return lambda: posting() and "Authorization" in request.headers


def _limit_text(raw: str, name: str) -> str:
    """``raw`` validated as a limit string; ``off`` is no limit."""
    if raw.strip().lower() == OFF:
        return ""
    try:
        parse_many(raw)
    except ValueError:
        raise ValueError(f"{name} must be a rate limit like '10/second' or 'off'; "
                         f"got {raw!r}") from None
    return raw


def _on_breach(per: str) -> Callable[[RequestLimit], Response]:
    def respond(hit: RequestLimit) -> Response:
        retry = max(1, math.ceil(hit.window.reset_time - time.time()))
        text = f"{hit.limit} {per}"
        return problem_response(RATE_LIMITED, f"rate limit of {text} exceeded; retry in {retry} s",
                                {"Retry-After": str(retry)}, limit=text)
    return respond


def _limit(raw: str, name: str, scope: str, per: str, key: Callable[[], str],
           applies: Callable[[], bool] | None = None) -> ApplicationLimit:
    text = _limit_text(raw, name)
    return ApplicationLimit(text, key_function=key, scope=scope, on_breach=_on_breach(per),
                            exempt_when=None if applies is None else lambda: not applies())


def storage(url: str, client: Client) -> tuple[str, dict[str, Any]]:
    """The limits storage URI and options for the store's ``client`` (opened from ``url``)."""
    if isinstance(client, redis.Redis):
        return "redis://", {"connection_pool": client.connection_pool}
    target = parse(url)
    hosts = ",".join(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in target.hosts)
    kwargs = client.get_connection_kwargs()  # type: ignore[no-untyped-call]
    options: dict[str, Any] = {k: kwargs[k] for k in ("socket_timeout", "socket_connect_timeout")
                               if kwargs.get(k) is not None}
    if target.username:
        options["username"] = target.username
    if target.password:
        options["password"] = target.password
    if target.tls:
        options["ssl"] = True
    return f"redis+cluster://{hosts}", options


class SpecPlugin(BasePlugin):
    """Documents the 429 answer of every ``/v1`` operation (an apispec plugin)."""

    RESPONSE: Final = "RATE_LIMITED"

    def init_spec(self, spec: APISpec) -> None:
        spec.components.response(self.RESPONSE, {
            "description": "A rate limit was hit: the problem's limit names it",
            "headers": {"Retry-After": {
                "description": "Seconds until the limit's window ends",
                "schema": {"type": "integer", "minimum": 1}}},
            "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"},
                                       "example": RATE_LIMITED_EXAMPLE}},
        })

    def operation_helper(self, path: str | None = None,
                         operations: dict[str, Any] | None = None, **_: Any) -> None:
        if path is None or operations is None or not path.startswith("/v1/"):
            return
        for operation in operations.values():
            operation.setdefault("responses", {})["429"] = self.RESPONSE


def init(app: Flask, client: Client) -> Limiter | None:
    """Limit ``app``'s requests as configured, counting in ``client``'s Redis.

    With every limit ``off`` (or ``RATELIMIT_ENABLED`` false) no limiter is installed at all:
    flask-limiter costs about half a millisecond per request even with nothing to count.
    """
    config = app.config
    if config["SIXTYSIX_TRUSTED_PROXIES"] > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app,  # type: ignore[method-assign]
                                x_for=config["SIXTYSIX_TRUSTED_PROXIES"])
    limits: list[str | Callable[[], str] | ApplicationLimit] = [
        _limit(config["SIXTYSIX_RATE_ADDRESS"], "SIXTYSIX_RATE_ADDRESS", "address",
               "per address", client_address),
        _limit(config["SIXTYSIX_RATE_CREATE"], "SIXTYSIX_RATE_CREATE", "create",
               "per address for new games", client_address,
               _posting_to(CREATE_ENDPOINT, TOUR_START_ENDPOINT)),
        _limit(config["SIXTYSIX_RATE_ACTIONS"], "SIXTYSIX_RATE_ACTIONS", "actions",
               "per token", _token_key, _with_token(ACTIONS_ENDPOINT)),
        _limit(config["SIXTYSIX_RATE_PLAYERS"], "SIXTYSIX_RATE_PLAYERS", "players",
               "per address for new players", client_address, _posting_to(PLAYERS_ENDPOINT)),
        _limit(config["SIXTYSIX_RATE_TABLES"], "SIXTYSIX_RATE_TABLES", "tables",
               "per address for new tables and rematches", client_address,
               _posting_to(TABLES_ENDPOINT, REMATCH_ENDPOINT)),
        _limit(config["SIXTYSIX_RATE_CHAT"], "SIXTYSIX_RATE_CHAT", "chat",
               "per token for chat messages", _token_key, _with_token(CHAT_ENDPOINT)),
    ]
    if not config.get("RATELIMIT_ENABLED", True) or not any(
            config[name].strip().lower() != OFF for name in LIMIT_SETTINGS):
        return None
    uri, options = storage(config["REDIS_URL"], client)
    limiter = Limiter(
        client_address,
        application_limits=limits,
        storage_uri=uri,
        storage_options=options,
        strategy=STRATEGY,
        key_prefix=RATE_PREFIX,
        headers_enabled=False,
    )
    limiter.request_filter(lambda: not request.path.startswith("/v1/"))
    limiter.init_app(app)
    # its INFO line on a breach names the key: a client address or a token digest
    logging.getLogger("flask-limiter").setLevel(logging.WARNING)

    @app.errorhandler(RateLimitExceeded)
    def _rate_limited(error: RateLimitExceeded) -> BaseResponse:
        return error.get_response()  # the problem made by the limit's on_breach

    return limiter
