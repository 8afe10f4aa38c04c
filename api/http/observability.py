"""Request ids and logs: one line per request, and the app's own logs, as JSON or as text.

Request id: a client's ``X-Request-Id`` if it is 1–128 characters of ``A-Z a-z 0-9 . _ : -``
(nginx's ``$request_id`` is), else a fresh one from :func:`api.unique.new_id` (a
per-process random prefix and a counter: no random draw per request; ids identify, they are
no secret); answered in ``X-Request-Id`` and in every problem document (``request_id``).

Logs go to standard error, one line each, through the ``api`` logger (Flask's own logger
included), in the format ``SIXTYSIX_LOG_FORMAT`` names: ``text`` (``sixtysix serve``'s
default) writes readable lines as gunicorn does, a request as ``[2026-12-07 18:26:18 +0000]
GET /v1/games/1d0QITWlkkAbh5EN 200 3.1 ms`` (its route, a game's id filled in, its status and
duration), another line as ``[time] [LEVEL] logger: message``. ``json`` (the default under
gunicorn alone) writes one JSON object per line: ``ts`` (UTC, ISO 8601), ``level``,
``logger``, ``msg``, ``request_id`` when in a request, ``exc`` with a traceback. The request
line (``msg: "request"``, logger ``api.requests``; either format off with
``SIXTYSIX_LOG_REQUESTS = 0``) adds ``method``, ``path`` (the route template, e.g.
``/v1/games/<game_id>/actions``, never the query), ``status``, ``duration_ms`` and
``game_id`` (null on a 404: an unknown id may be anything a client typed). No header is
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
#: The values of ``SIXTYSIX_LOG_FORMAT``.
JSON: Final = "json"
TEXT: Final = "text"

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


class LineFormatter(logging.Formatter):
    """A record as one line; :meth:`request_text` is the request line without a record."""

    def request_text(self, rid: str, answered: Answered, created: float) -> str:
        """The request line as this formatter writes the record of :func:`request_line` made
        at ``created`` (Unix time)."""
        record = request_line(rid, answered)
        record.created = created
        return self.format(record)


class JsonFormatter(LineFormatter):
    """A record as one JSON object: the fixed members, then its ``fields`` extra."""

    def request_text(self, rid: str, answered: Answered, created: float) -> str:
        return request_text(rid, answered, created)

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


class TextFormatter(LineFormatter):
    """A record as a readable line, as gunicorn writes its own: ``[time] [LEVEL] logger:
    message`` (then the traceback); the request line ``[time] METHOD path status N.N ms``."""

    def format(self, record: logging.LogRecord) -> str:
        fields = getattr(record, "fields", None)
        if record.name == REQUEST_LOGGER and isinstance(fields, dict):
            return access_text(fields, record.created)
        line = (f"[{local_time(record.created)}] [{record.levelname}] {record.name}: "
                f"{record.getMessage()}")
        return f"{line}\n{self.formatException(record.exc_info)}" if record.exc_info else line

    def request_text(self, rid: str, answered: Answered, created: float) -> str:
        return access_text(_fields(answered), created)


def access_text(fields: dict[str, Any], created: float) -> str:
    """A request line of :class:`TextFormatter` from the fields of :func:`request_line`: the
    route with its game's id filled in (never the query), the status, the milliseconds."""
    path = str(fields["path"])
    if fields["game_id"] is not None:
        path = path.replace("<game_id>", str(fields["game_id"]))
    return (f"[{local_time(created)}] {fields['method']} {path} {fields['status']} "
            f"{fields['duration_ms']:.1f} ms")


class SecondText:
    """A whole second (Unix time) as text by ``time.strftime(pattern, convert(second))``,
    the last one kept: a log line costs one strftime per second."""

    def __init__(self, pattern: str, convert: Callable[[float], time.struct_time]) -> None:
        self.pattern = pattern
        self.convert = convert
        self.last: tuple[int, str] = (-1, "")

    def __call__(self, second: int) -> str:
        cached, text = self.last
        if cached != second:
            text = time.strftime(self.pattern, self.convert(second))
            self.last = (second, text)
        return text


_local_second: Final = SecondText("%Y-%m-%d %H:%M:%S %z", time.localtime)
_utc_second: Final = SecondText("%Y-%m-%dT%H:%M:%S", time.gmtime)


def local_time(created: float) -> str:
    """``created`` (Unix time) as gunicorn's log lines show it: ``2026-12-07 18:26:18 +0000``
    (local time and its offset)."""
    return _local_second(int(created))


def timestamp(created: float) -> str:
    """``created`` (Unix time) in ISO 8601 UTC to the millisecond, ``...T12:00:00.123+00:00``."""
    second = int(created)
    return f"{_utc_second(second)}.{int((created - second) * 1000):03d}+00:00"


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


def log_format(value: object) -> str:
    """``SIXTYSIX_LOG_FORMAT``'s value, checked: :data:`JSON` or :data:`TEXT`."""
    kind = str(value).strip().lower()
    if kind not in (JSON, TEXT):
        raise ValueError(f"SIXTYSIX_LOG_FORMAT must be {JSON} or {TEXT}; got {value!r}")
    return kind


def configure_logging(kind: str = JSON) -> None:
    """Lines of ``kind`` (:data:`JSON` or :data:`TEXT`) on standard error for the ``api``
    loggers (one handler per process; the last app made sets its format)."""
    logger = logging.getLogger(APP_LOGGER)
    logger.removeHandler(default_handler)
    handler = next((h for h in logger.handlers if isinstance(h, StderrHandler)), None)
    if handler is None:
        handler = StderrHandler()
        logger.addHandler(handler)
    handler.setFormatter(TextFormatter() if kind == TEXT else JsonFormatter())
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
    configure_logging(log_format(app.config["SIXTYSIX_LOG_FORMAT"]))
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
            direct = _direct_handler()
            if direct is None:
                log.handle(request_line(rid, answered))
            else:
                handler, formatter = direct
                handler.write_line(formatter.request_text(rid, answered, time.time()))
        return response


def _direct_handler() -> tuple[StderrHandler, LineFormatter] | None:
    """The handler the request line would reach alone, and its formatter, if
    :func:`configure_logging`'s set-up is unchanged: the request logger without handlers or
    filters, propagating to the ``api`` logger, whose only handler is a
    :class:`StderrHandler` with a :class:`JsonFormatter` or :class:`TextFormatter`, no
    filters, a level letting INFO through. Else ``None`` (log through :mod:`logging`)."""
    parent = log.parent
    if log.handlers or log.filters or not log.propagate or parent is None or (
            parent.name != APP_LOGGER or parent.filters or len(parent.handlers) != 1):
        return None
    handler = parent.handlers[0]
    formatter = handler.formatter
    if (type(handler) is not StderrHandler or handler.filters or handler.level > logging.INFO
            or type(formatter) not in (JsonFormatter, TextFormatter)):
        return None
    return handler, cast(LineFormatter, formatter)


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
