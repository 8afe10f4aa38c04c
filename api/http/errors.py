"""Every error as RFC 9457 ``application/problem+json``, with a stable ``type`` URI.

A problem has ``type`` (``https://sixtysix.dev/problems/<slug>``), ``title``, ``status``,
``detail``, ``instance`` (the request path) and ``request_id`` (as in ``X-Request-Id``), plus
extension members where useful:
``errors`` (field → messages) on 400/422, ``reason`` and ``legal_actions`` on an illegal
action, ``current_version`` on a version conflict, ``max_messages`` on a full chat. Flask's
own errors (404, 405, 413, 500), flask-smorest's 422, the domain's (:mod:`api.errors`: its
slug and title, the status of its kind) and Redis' are mapped here too: an outage
or a fail-over in progress (a read-only replica, a cluster down, resharding or with slots no
master serves, a Sentinel with no master: Redis refused the command, nothing was applied) is
a 503 with ``Retry-After``; a full Redis (``maxmemory`` reached: OOM) is a 507
``insufficient-storage`` (nothing was saved).
A save the store could not confirm is a 503 ``outcome-unknown`` without ``Retry-After``: it
may have been applied, so the client reloads the view or repeats the request with the same
``Idempotency-Key``, never blindly. A 503 ``store-unavailable`` is answered only where nothing
was applied; a table change that was saved but whose answer the store could not give is a 503
``saved-view-unavailable`` without ``Retry-After`` (read the table again, do not repeat it).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import redis
from flask import Flask, Response, current_app, json, request
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from api.errors import Busy, Conflict, DomainError, FieldError, Forbidden, NotFound, Unavailable
from api.games.store import ChatFull, GameNotFound, OutcomeUnknown, TooManyGames, VersionConflict
from api.http import metrics
from api.http.observability import request_id
from api.http.schemas import ProblemSchema
from api.text_policy import TextRefused
from engine import IllegalAction
from engine.hosted import actions_json

PROBLEM_BASE: Final = "https://sixtysix.dev/problems/"
PROBLEM_JSON: Final = "application/problem+json"

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ProblemType:
    slug: str
    status: int
    title: str

    @property
    def uri(self) -> str:
        return PROBLEM_BASE + self.slug


BAD_REQUEST: Final = ProblemType("bad-request", 400, "Malformed request")
UNAUTHORIZED: Final = ProblemType("unauthorized", 401, "Missing or unknown seat token")
NOT_FOUND: Final = ProblemType("not-found", 404, "No such resource")
GAME_NOT_FOUND: Final = ProblemType("game-not-found", 404, "No such game")
METHOD_NOT_ALLOWED: Final = ProblemType("method-not-allowed", 405, "Method not allowed")
ILLEGAL_ACTION: Final = ProblemType("illegal-action", 409, "Action not allowed now")
VERSION_CONFLICT: Final = ProblemType("version-conflict", 409,
                                      "The game changed meanwhile; nothing was applied")
REQUEST_IN_PROGRESS: Final = ProblemType("request-in-progress", 409,
                                         "A request with this Idempotency-Key is in progress")
CHAT_FULL: Final = ProblemType("chat-full", 409, "The game's chat is full")
STALE_VERSION: Final = ProblemType("stale-version", 412, "If-Match does not match the version")
TOO_MANY_GAMES: Final = ProblemType("too-many-games", 403,
                                    "Too many active games from this address")
PAYLOAD_TOO_LARGE: Final = ProblemType("payload-too-large", 413, "Request body too large")
UNSUPPORTED_MEDIA: Final = ProblemType("unsupported-media-type", 415, "Send application/json")
VALIDATION: Final = ProblemType(FieldError.slug, 422, FieldError.title)
IDEMPOTENCY_KEY_REUSED: Final = ProblemType(
    "idempotency-key-reused", 422, "Idempotency-Key already used for another request")
INTERNAL: Final = ProblemType("internal-error", 500, "Internal server error")
UNAVAILABLE: Final = ProblemType("store-unavailable", 503, "Game store unreachable")
STORE_FULL: Final = ProblemType("insufficient-storage", 507, "The game store is full")

#: Redis errors of a fail-over in progress; Redis refused the command, it was not applied.
#: (MasterNotFoundError and SlaveNotFoundError of a Sentinel are ConnectionErrors already;
#: ClusterError is redis-py giving up after a storm of MOVED, ASK or TRYAGAIN redirections.)
FAILOVER_ERRORS: Final = (redis.exceptions.ReadOnlyError, redis.exceptions.ClusterError,
                          redis.exceptions.TryAgainError, redis.exceptions.AskError)
#: The codes of those errors as a Lua script reports them, inside a plain ResponseError.
FAILOVER_CODES: Final = ("READONLY", "CLUSTERDOWN", "MASTERDOWN", "TRYAGAIN", "LOADING")
OOM_CODE: Final = "OOM"
OUTCOME_UNKNOWN: Final = ProblemType("outcome-unknown", 503,
                                     "The game store did not confirm the write")
#: A write that was saved, whose answer the store then could not give (read it again).
SAVED_VIEW_UNAVAILABLE: Final = ProblemType("saved-view-unavailable", 503,
                                            "Saved; the answer could not be read")

#: The detail of an ``outcome-unknown`` problem by what was written: how to find out.
_HOW_TO_FIND_OUT: Final = {
    "game": "the game store did not answer in time: the request may have been applied. Do "
            "not send it again blindly: repeat it with the same Idempotency-Key (answered from "
            "the first if it was applied, else applied once), or reload the view (GET the game: "
            "its version says whether the write was applied)",
    "table": "the game store did not answer in time: the change may have been applied. Do not "
             "send it again blindly: reload the table (GET it) and see whether it holds it",
}

_BY_STATUS: Final = {t.status: t for t in (
    BAD_REQUEST, UNAUTHORIZED, NOT_FOUND, METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE,
    UNSUPPORTED_MEDIA, VALIDATION, INTERNAL, UNAVAILABLE, STORE_FULL)}


def problem_type(status: int, title: str) -> ProblemType:
    """The problem type of an HTTP status: a known one, else ``http-<status>`` of ``title``."""
    return _BY_STATUS.get(status, ProblemType(f"http-{status}", status, title))


class Problem(Exception):
    """An error answered as a problem document of ``kind``."""

    def __init__(self, kind: ProblemType, detail: str, *, headers: Mapping[str, str] | None = None,
                 **extra: Any) -> None:
        self.kind = kind
        self.detail = detail
        self.headers = dict(headers or {})
        self.extra = extra
        super().__init__(detail)


#: The HTTP status of each kind of :class:`api.errors.DomainError`.
DOMAIN_STATUS: Final[dict[type[DomainError], int]] = {
    FieldError: 422, Forbidden: 403, NotFound: 404, Conflict: 409, Busy: 409, Unavailable: 503}


def domain_problem(error: DomainError) -> ProblemType:
    """The problem type of a domain error: its slug and title, the status of its kind."""
    status = next(DOMAIN_STATUS[kind] for kind in type(error).__mro__ if kind in DOMAIN_STATUS)
    return ProblemType(error.slug, status, error.title)


def problem_response(kind: ProblemType, detail: str, headers: Mapping[str, str] | None = None,
                     status: int | None = None, **extra: Any) -> Response:
    body = {"type": kind.uri, "title": kind.title, "status": status or kind.status,
            "detail": detail, "instance": request.path, "request_id": request_id(), **extra}
    response = current_app.response_class(json.dumps(body), status=body["status"],
                                          mimetype=PROBLEM_JSON)
    response.headers.update(headers or {})
    return response


def _flatten(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """webargs' nested messages as ``{"seats.0.kind": ["..."]}``."""
    if isinstance(messages, Mapping):
        out: dict[str, list[str]] = {}
        for key, value in messages.items():
            out.update(_flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return {prefix or "body": list(messages)}
    return {prefix or "body": [str(messages)]}


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest's Api answering its own errors as problem documents."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        """Document error responses as ``application/problem+json``."""
        self.DEFAULT_RESPONSE_CONTENT_TYPE = PROBLEM_JSON
        try:
            super()._register_responses()
        finally:
            del self.DEFAULT_RESPONSE_CONTENT_TYPE

    def _register_pagination_header(self) -> None:
        """Nothing: the API pages by cursor, not with flask-smorest's pagination header (whose
        schema would stand unused in the document)."""

    def handle_http_exception(self, error: HTTPException) -> Response:
        status = error.code or 500
        kind = problem_type(status, error.name)
        data = getattr(error, "data", None) or {}
        extra: dict[str, Any] = {}
        detail = error.description or kind.title
        if "messages" in data:
            # webargs nests by location (json, query, headers); the field name says enough
            errors: dict[str, list[str]] = {}
            for messages in data["messages"].values():
                errors.update(_flatten(messages))
            extra["errors"] = errors
            detail = "; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items())
        if status >= 500:
            detail = "the server failed; the error has been logged"
        headers = {k: v for k, v in error.get_headers() if k.lower() == "allow"}
        headers.update(data.get("headers") or {})
        return problem_response(kind, detail, headers, status=status, **extra)


def register(app: Flask) -> None:
    """Install the handlers of the service's own exceptions and of Redis outages."""

    @app.errorhandler(Problem)
    def _problem(error: Problem) -> Response:
        return problem_response(error.kind, error.detail, error.headers, **error.extra)

    @app.errorhandler(DomainError)
    def _domain(error: DomainError) -> Response:
        headers = {}
        if isinstance(error, Unavailable) and error.retry_after is not None:
            headers["Retry-After"] = str(error.retry_after)
        return problem_response(domain_problem(error), error.detail, headers, **error.extra)

    @app.errorhandler(TextRefused)
    def _text_refused(error: TextRefused) -> Response:
        return problem_response(VALIDATION, str(error), errors={error.field: [error.reason]})

    @app.errorhandler(GameNotFound)
    def _not_found(error: GameNotFound) -> Response:
        return problem_response(GAME_NOT_FOUND, str(error), game_id=error.game_id)

    @app.errorhandler(TooManyGames)
    def _too_many(error: TooManyGames) -> Response:
        return problem_response(TOO_MANY_GAMES, str(error), max_games=error.cap)

    @app.errorhandler(ChatFull)
    def _chat_full(error: ChatFull) -> Response:
        return problem_response(CHAT_FULL, f"{error}: no more can be sent to this game",
                                max_messages=error.cap)

    @app.errorhandler(VersionConflict)
    def _conflict(error: VersionConflict) -> Response:
        kind = STALE_VERSION if "If-Match" in request.headers else VERSION_CONFLICT
        return problem_response(kind, str(error), {"ETag": f'"{error.current}"'},
                                current_version=error.current)

    @app.errorhandler(IllegalAction)
    def _illegal(error: IllegalAction) -> Response:
        legal = actions_json(error.legal)
        return problem_response(ILLEGAL_ACTION, error.reason, reason=error.reason,
                                legal_actions=legal)

    @app.errorhandler(OutcomeUnknown)
    def _outcome_unknown(error: OutcomeUnknown) -> Response:
        log.warning("save of %s %s not confirmed by Redis", error.what, error.ident)
        if isinstance(error.__cause__, redis.RedisError):
            metrics.redis_error(error.__cause__)
        written: dict[str, Any] = {f"{error.what}_id": error.ident}  # game_id or table_id
        return problem_response(OUTCOME_UNKNOWN, _HOW_TO_FIND_OUT[error.what], **written)

    @app.errorhandler(redis.ConnectionError)
    @app.errorhandler(redis.TimeoutError)
    def _unavailable(error: Exception) -> Response:
        log.warning("Redis unavailable: %s", type(error).__name__)
        metrics.redis_error(error)
        retry = str(current_app.config["SIXTYSIX_RETRY_AFTER"])
        return problem_response(UNAVAILABLE, "the game store is unreachable; retry later",
                                {"Retry-After": retry})

    for failover in FAILOVER_ERRORS:
        app.register_error_handler(failover, _unavailable)

    @app.errorhandler(redis.exceptions.RedisClusterException)
    def _cluster(error: redis.exceptions.RedisClusterException) -> Response:
        """redis-py's own cluster errors: uncovered slots are a cluster down (a master lost)."""
        if isinstance(error, redis.exceptions.SlotNotCoveredError) or (
                "slots are not covered" in str(error)):
            return _unavailable(error)
        raise error  # a misuse of the cluster client: a logged 500

    @app.errorhandler(redis.exceptions.OutOfMemoryError)
    def _full(error: Exception) -> Response:
        log.error("Redis is full (maxmemory reached): a write was refused")
        metrics.redis_error(error)
        return problem_response(STORE_FULL, "the game store is full; nothing was saved")

    @app.errorhandler(redis.ResponseError)
    def _response_error(error: redis.ResponseError) -> Response:
        """A script's error carries Redis' code in its text: ``... -OOM command not ...``."""
        code = redis_error_code(error)
        if code == OOM_CODE:
            return _full(error)
        if code in FAILOVER_CODES:
            return _unavailable(error)
        raise error  # any other is a bug: a logged 500


def redis_error_code(error: redis.ResponseError) -> str | None:
    """The Redis error code (``OOM``, ``READONLY``...) that starts the error or, in the error
    of a Lua script, follows the ``-`` of the failed call's reply."""
    text = str(error)
    for code in (OOM_CODE, *FAILOVER_CODES):
        if text.startswith(code + " ") or f"-{code} " in text or f": {code} " in text:
            return code
    return None
