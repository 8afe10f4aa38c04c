"""Request ids and structured logs: one JSON line per request, and JSON for the app's own logs.

Request id: a client's ``X-Request-Id`` if it is 1–128 characters of ``A-Z a-z 0-9 . _ : -``
(nginx's ``$request_id`` is), else a fresh random one; answered in ``X-Request-Id`` and in
every problem document (``request_id``).

Logs go to standard error, one JSON object per line, through the ``api`` logger (Flask's own
logger included): ``ts`` (UTC, ISO 8601), ``level``, ``logger``, ``msg``, ``request_id`` when in
a request, ``exc`` with a traceback. The request line (``msg: "request"``, logger
``api.requests``; off with ``SIXTYSIX_LOG_REQUESTS = 0``) adds ``method``, ``path`` (the route
template, e.g. ``/v1/games/<game_id>/actions``, never the query), ``status``, ``duration_ms``
and ``game_id`` (null on a 404: an unknown id may be anything a client typed). No header is
ever logged, so neither ``Authorization`` nor a token.
"""

from __future__ import annotations

import datetime
import json
import logging
import re
import sys
import time
import uuid
from typing import Any, Final

from flask import Flask, Response, g, has_request_context, request
from flask.logging import default_handler

REQUEST_ID_HEADER: Final = "X-Request-Id"
REQUEST_ID: Final = re.compile(r"[A-Za-z0-9._:-]{1,128}")
APP_LOGGER: Final = "api"
REQUEST_LOGGER: Final = "api.requests"

log = logging.getLogger(REQUEST_LOGGER)


def request_id() -> str:
    """This request's id (taken from the client or made on first use)."""
    found: str | None = g.get("request_id")
    if found is None:
        given = request.headers.get(REQUEST_ID_HEADER, "")
        found = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        g.request_id = found
    return found


def game_id_of(response: Response) -> str | None:
    """The game a request was about: its URL's, or the one it created; None on a 404."""
    if response.status_code == 404:
        return None
    game_id = (request.view_args or {}).get("game_id")
    if game_id is None and response.status_code == 201 and response.location:
        game_id = response.location.rsplit("/", 1)[-1]
    return None if game_id is None else str(game_id)


def route_of() -> str:
    """The route template of this request (bounded: never the raw path)."""
    return request.url_rule.rule if request.url_rule is not None else "unmatched"


class JsonFormatter(logging.Formatter):
    """A record as one JSON object: the fixed members, then its ``fields`` extra."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        if has_request_context():
            out["request_id"] = request_id()
        out.update(getattr(record, "fields", {}))
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class StderrHandler(logging.Handler):
    """Writes to the current ``sys.stderr`` (which a test runner may have replaced)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # logging must never break a request
            self.handleError(record)


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


def init(app: Flask) -> None:
    """Request ids and request lines for ``app``; register before any other request hook."""
    configure_logging()
    log_requests = bool(app.config["SIXTYSIX_LOG_REQUESTS"])

    @app.before_request
    def _start() -> None:
        g.started = time.perf_counter()
        request_id()

    @app.after_request
    def _finish(response: Response) -> Response:
        response.headers[REQUEST_ID_HEADER] = request_id()
        if log_requests:
            log.info("request", extra={"fields": {
                "method": request.method,
                "path": route_of(),
                "status": response.status_code,
                "duration_ms": round(elapsed() * 1000, 2),
                "game_id": game_id_of(response),
            }})
        return response


def elapsed() -> float:
    """Seconds since this request started."""
    started: float = g.get("started", time.perf_counter())
    return time.perf_counter() - started
