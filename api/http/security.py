"""Security headers on every response, and CORS for the configured origins (closed by default).

Every response carries ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``,
``X-Frame-Options: DENY`` and a ``Content-Security-Policy``: ``default-src 'none';
frame-ancestors 'none'`` for the API; the HTML pages (``/docs``, ``/redoc``, ``/play``) may
load scripts, styles, images and fonts from this server only (``'self'``: the vendored copies
under ``/static``, the web client under ``/play``), run their own inline scripts (allowed by
hash), fetch from this server (``/openapi.json``, the API) and start blob workers. Responses
under ``/v1/games``, ``/v1/players`` and ``/v1/tables`` (views, events, seat and player
tokens) carry ``Cache-Control: no-store``.

CORS: ``SIXTYSIX_CORS_ORIGINS`` lists the allowed origins, comma-separated (``*`` allows any).
An allowed ``Origin`` gets ``Access-Control-Allow-Origin`` and the headers a browser client
needs to read (``ETag``, ``Location``, ``Retry-After``, ``X-Request-Id``); a preflight also
gets the methods and request headers the API takes. Credentials are never allowed: seat tokens
travel in ``Authorization``, not cookies. With no origins configured no CORS header is sent.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Final
from urllib.parse import urlsplit

from flask import Flask, Response, request

API_CSP: Final = "default-src 'none'; frame-ancestors 'none'"
STATIC_HEADERS: Final = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
#: Responses that may carry a token (seat or player) or a private view.
NO_STORE_PREFIXES: Final = ("/v1/games", "/v1/players", "/v1/tables")
EXPOSED: Final = "ETag, Location, Preference-Applied, Retry-After, X-Request-Id"
ALLOWED_METHODS: Final = "GET, POST"
ALLOWED_HEADERS: Final = ("Authorization, Content-Type, If-Match, If-None-Match, "
                          "Idempotency-Key, Last-Event-ID, Prefer, X-Invite-Code, X-Request-Id")
PREFLIGHT_MAX_AGE: Final = "600"
_INLINE_SCRIPT: Final = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def origins(raw: str) -> frozenset[str]:
    """The origins of ``SIXTYSIX_CORS_ORIGINS`` (``scheme://host[:port]`` each, or ``*``)."""
    out = set()
    for item in (part.strip().rstrip("/") for part in raw.split(",")):
        if not item:
            continue
        parts = urlsplit(item)
        if item != "*" and (parts.scheme not in ("http", "https") or not parts.netloc
                            or parts.path or parts.query):
            raise ValueError(f"SIXTYSIX_CORS_ORIGINS: {item!r} is not an origin "
                             "like https://example.org")
        out.add(item)
    return frozenset(out)


def html_csp(html: str) -> str:
    """The policy of a documentation page: this server, and its inline scripts by SHA-256."""
    sources = " ".join(["'self'", *(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in _INLINE_SCRIPT.findall(html))])
    return (f"default-src 'none'; script-src {sources}; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; font-src 'self'; connect-src 'self'; "
            "worker-src blob:; frame-ancestors 'none'")


def init(app: Flask) -> None:
    """Add the headers above to every response of ``app``."""
    allowed = origins(app.config["SIXTYSIX_CORS_ORIGINS"])

    @app.after_request
    def _secure(response: Response) -> Response:
        no_store = request.path.startswith(NO_STORE_PREFIXES)
        html = response.mimetype == "text/html"
        if html or not _append(response, no_store):
            response.headers.update(STATIC_HEADERS)
            response.headers["Content-Security-Policy"] = (
                html_csp(response.get_data(as_text=True)) if html else API_CSP)
            if no_store:
                response.headers["Cache-Control"] = "no-store"
        if allowed:
            _cors(response, allowed)
        return response


#: The headers of an API response, without and with ``Cache-Control: no-store``.
_API_HEADERS: Final = [*STATIC_HEADERS.items(), ("Content-Security-Policy", API_CSP)]
_NO_STORE_HEADERS: Final = [*_API_HEADERS, ("Cache-Control", "no-store")]
_NAMES: Final = frozenset(name.lower() for name, _ in _NO_STORE_HEADERS)


def _append(response: Response, no_store: bool) -> bool:
    """Append the headers of an API response at once, if the response has none of them yet
    (what setting them one by one would do, without werkzeug's search and check of each:
    they are constants, checked here once); whether it did."""
    headers = response.headers
    if any(name.lower() in _NAMES for name, _ in headers):
        return False  # a view set one of them: replace it the long way round
    headers._list.extend(_NO_STORE_HEADERS if no_store else _API_HEADERS)
    return True


def _cors(response: Response, allowed: frozenset[str]) -> None:
    response.vary.add("Origin")
    origin = request.headers.get("Origin")
    if origin is None or not ("*" in allowed or origin in allowed):
        return
    response.headers["Access-Control-Allow-Origin"] = "*" if "*" in allowed else origin
    response.headers["Access-Control-Expose-Headers"] = EXPOSED
    if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
        response.headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
        response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
        response.headers["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
