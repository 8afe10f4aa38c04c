"""Request ids and structured logs: one JSON line per request, and JSON for the app's own logs.

Request id: a client's ``X-Request-Id`` if it is 1–128 characters of ``A-Z a-z 0-9 . _ : -``
(nginx's ``$request_id`` is), else a fresh one from :func:`api.unique.new_id` (a
per-process random prefix and a counter: no random draw per request; ids identify, they are
no secret); answered in ``X-Request-Id`` and in every problem document (``request_id``).

Logs go to standard error, one JSON object per line, through the ``api`` logger (Flask's own
logger included): ``ts`` (UTC, ISO 8601), ``level``, ``logger``, ``msg``, ``request_id`` when in
a request, ``exc`` with a traceback. The request line (``msg: "request"``, logger
``api.requests``; off with ``SIXTYSIX_LOG_REQUESTS = 0``) adds ``method``, ``path`` (the route
template, e.g. ``/v1/games/<game_id>/actions``, never the query), ``status``, ``duration_ms``
and ``game_id`` (null on a 404: an unknown id may be anything a client typed). No header is
ever logged, so neither ``Authorization`` nor a token. While the request logger ends in this
module's handler alone (no handler, filter or level of anyone else's on the way), the request
line is formatted and written directly, the same text as through :mod:`logging`, without
building a log record (about a tenth of an action's CPU went to the request line).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeAlias, cast

from flask import Flask, Request, Response, g, has_request_context, request
from flask.logging import default_handler

from api.unique import new_id

REQUEST_ID_HEADER: Final = "X-Request-Id"
REQUEST_ID: Final = re.compile(r"[A-Za-z0-9._:-]{1,128}")
APP_LOGGER: Final = "api"
REQUEST_LOGGER: Final = "api.requests"
LISTENERS: Final = "sixtysix_answered"

log = logging.getLogger(REQUEST_LOGGER)
#: JSON as ``json.dumps`` writes it; anything else (a path, an exception) as its ``str``.
_encode: Final = json.JSONEncoder(default=str).encode




def request_id() -> str:
    """This request's id (taken from the client or made on first use)."""
    found: str | None = g.get("request_id")
    if found is None:
        given = request.headers.get(REQUEST_ID_HEADER)
        found = given if given is not None and REQUEST_ID.fullmatch(given) else new_id()
        g.request_id = found
    return found


@dataclass(frozen=True, slots=True)
class Answered:
    """An answered request, as the request line and the listeners of :func:`listen` see it."""

    method: str
    #: The route template (bounded: never the raw path); ``unmatched`` for unknown URLs.
    route: str
    status: int
    seconds: float
    #: The game the request was about: its URL's, or the one it created; None on a 404.
    game_id: str | None


Listener: TypeAlias = Callable[[Answered], None]


def _answered(req: Request, response: Response, started: float) -> Answered:
    status = response.status_code
    game_id = None
    if status != 404:
        game_id = (req.view_args or {}).get("game_id")
        if game_id is None and status == 201 and (response.location or "").startswith(
                "/v1/games/"):
            game_id = response.location.rsplit("/", 1)[-1]
    return Answered(req.method, req.url_rule.rule if req.url_rule is not None else "unmatched",
                    status, time.perf_counter() - started,
                    None if game_id is None else str(game_id))


class JsonFormatter(logging.Formatter):
    """A record as one JSON object: the fixed members, then its ``fields`` extra."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        given = getattr(record, "request_id", None)
        if given is not None:
            out["request_id"] = given
        elif has_request_context():
            out["request_id"] = request_id()
        out.update(getattr(record, "fields", {}))
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return _encode(out)


#: The second last formatted and its text: a log line costs one strftime per second.
_second: tuple[int, str] = (-1, "")


def timestamp(created: float) -> str:
    """``created`` (Unix time) in ISO 8601 UTC to the millisecond, ``...T12:00:00.123+00:00``."""
    global _second
    second = int(created)
    cached, text = _second
    if cached != second:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _second = (second, text)
    return f"{text}.{int((created - second) * 1000):03d}+00:00"


class StderrHandler(logging.Handler):
    """Writes to the current ``sys.stderr`` (which a test runner may have replaced)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # logging must never break a request
            self.handleError(record)

    def write_line(self, line: str) -> None:
        """Write a formatted line as :meth:`emit` would, under the handler's lock."""
        with self.lock or _NO_LOCK:
            try:
                sys.stderr.write(line + "\n")
                sys.stderr.flush()
            except Exception:  # logging must never break a request: the line is dropped
                pass


_NO_LOCK: Final = contextlib.nullcontext()
_INFO_NAME: Final = logging.getLevelName(logging.INFO)


def configure_logging() -> None:
    """JSON lines on standard error for the ``api`` loggers (once per process)."""
    logger = logging.getLogger(APP_LOGGER)
    logger.removeHandler(default_handler)
    if not any(isinstance(h, StderrHandler) for h in logger.handlers):
        handler = StderrHandler()
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def listen(app: Flask, listener: Listener) -> None:
    """Call ``listener`` with every answered request of ``app`` (after the other hooks)."""
    app.extensions[LISTENERS].append(listener)


def init(app: Flask) -> None:
    """Request ids and request lines for ``app``; register before any other request hook.

    The facts of an answered request (:class:`Answered`) are gathered once, at the very end,
    for the request line and for every listener (the metrics).
    """
    configure_logging()
    log_requests = bool(app.config["SIXTYSIX_LOG_REQUESTS"])
    listeners: list[Listener] = []
    app.extensions[LISTENERS] = listeners

    @app.before_request
    def _start() -> None:
        g.started = time.perf_counter()  # the id is made on first use

    @app.after_request
    def _finish(response: Response) -> Response:
        rid = request_id()
        response.headers[REQUEST_ID_HEADER] = rid
        answered = _answered(cast(Any, request)._get_current_object(), response,
                             g.get("started", time.perf_counter()))
        for listener in listeners:
            listener(answered)
        if log_requests and log.isEnabledFor(logging.INFO):
            handler = _direct_handler()
            if handler is None:
                log.handle(request_line(rid, answered))
            else:
                handler.write_line(request_text(rid, answered, time.time()))
        return response


def _direct_handler() -> StderrHandler | None:
    """The handler the request line would reach alone, if :func:`configure_logging`'s set-up
    is unchanged: the request logger without handlers or filters, propagating to the ``api``
    logger, whose only handler is a :class:`StderrHandler` with a :class:`JsonFormatter`, no
    filters, a level letting INFO through. Else ``None`` (log through :mod:`logging`)."""
    parent = log.parent
    if log.handlers or log.filters or not log.propagate or parent is None or (
            parent.name != APP_LOGGER or parent.filters or len(parent.handlers) != 1):
        return None
    handler = parent.handlers[0]
    if (type(handler) is not StderrHandler or handler.filters
            or type(handler.formatter) is not JsonFormatter or handler.level > logging.INFO):
        return None
    return handler


def request_text(rid: str, answered: Answered, created: float) -> str:
    """The request line as :class:`JsonFormatter` formats :func:`request_line`'s record made
    at ``created`` (Unix time). Its texts are nearly always printable ASCII without quotes or
    backslashes, which JSON writes as they are: such a line is filled in as a template, any
    other encoded member by member."""
    game_id = answered.game_id
    if _plain(rid) and _plain(answered.method) and _plain(answered.route) and (
            game_id is None or _plain(game_id)):
        return (f'{_LINE_HEAD}{timestamp(created)}{_LINE_LEVEL}{rid}", "method": '
                f'"{answered.method}", "path": "{answered.route}", "status": '
                f'{int(answered.status)}, "duration_ms": '
                f'{round(answered.seconds * 1000, 2)!r}, "game_id": '
                f'{"null" if game_id is None else f"{_QUOTE}{game_id}{_QUOTE}"}}}')
    return _encode({"ts": timestamp(created), "level": _INFO_NAME.lower(), "logger": REQUEST_LOGGER,
                    "msg": "request", "request_id": rid, **_fields(answered)})


_LINE_HEAD: Final = '{"ts": "'
_LINE_LEVEL: Final = (f'", "level": "{_INFO_NAME.lower()}", "logger": "{REQUEST_LOGGER}", '
                      '"msg": "request", "request_id": "')
_QUOTE: Final = '"'


def _plain(text: str) -> bool:
    """Whether JSON writes ``text`` as it is between its quotes (printable ASCII, no ``"``
    or backslash)."""
    return text.isascii() and text.isprintable() and '"' not in text and "\\" not in text


def request_line(rid: str, answered: Answered) -> logging.LogRecord:
    """The request's log record, made directly: ``Logger.info`` would also look up the caller's
    source line on the stack, which the JSON line does not show."""
    return log.makeRecord(REQUEST_LOGGER, logging.INFO, "", 0, "request", (), None, extra={
        "request_id": rid, "fields": _fields(answered)})


def _fields(answered: Answered) -> dict[str, Any]:
    return {
        "method": answered.method,
        "path": answered.route,
        "status": answered.status,
        "duration_ms": round(answered.seconds * 1000, 2),
        "game_id": answered.game_id,
    }
