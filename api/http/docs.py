"""The documentation pages, served offline: Swagger UI at ``/docs``, ReDoc at ``/redoc``.

Both load their scripts and styles from ``/static`` (``api/static``, package data: Swagger UI
and ReDoc vendored at the pinned versions of ``api/static/README.md``, with their licences),
never from the internet; Swagger UI's online validator badge is turned off. flask-smorest
renders the two pages from the settings in :data:`OPENAPI_UI`.

``GET /favicon.ico`` answers the web client's icon (an SVG): Swagger UI's and ReDoc's pages
name no icon, so a browser asks for that path (it was a 404).

``GET /`` answers a small landing page for people who open the server in a browser: play in
the browser (``/play``), how to play, the API reference (Swagger UI and ReDoc), the OpenAPI
document and the server's version. It has no script, and its style sheet is the web client's.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Final

from flask import Flask, current_app, send_file
from werkzeug.wrappers import Response

#: Where Flask serves ``api/static`` (the app's default static folder).
STATIC_URL: Final = "/static/"
DOCS_PATH: Final = "/docs"
#: The web client's icon, also the server's ``/favicon.ico``.
ICON: Final = Path(__file__).resolve().parents[1] / "web" / "icon.svg"
#: Seconds a browser may keep the icon.
ICON_MAX_AGE: Final = 86400

OPENAPI_UI: Final = {
    "OPENAPI_SWAGGER_UI_PATH": DOCS_PATH.lstrip("/"),
    "OPENAPI_SWAGGER_UI_URL": STATIC_URL + "swagger-ui/",
    # null: no badge image fetched from validator.swagger.io
    "OPENAPI_SWAGGER_UI_CONFIG": {"validatorUrl": None},
    "OPENAPI_REDOC_PATH": "redoc",
    "OPENAPI_REDOC_URL": STATIC_URL + "redoc/redoc.standalone.js",
}


#: The landing page; ``{version}`` is the server's version (HTML-escaped).
LANDING_PAGE: Final = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sixty-Six game server</title>
<link rel="icon" href="/play/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/play/style.css">
</head>
<body>
<main class="lobby landing">
<h1>Sixty-Six</h1>
<p class="wide">A server for the card game Sixty-Six (Sechsundsechzig) and its variants: play
it in the browser, or write a client or a bot against its HTTP API.</p>
<section class="panel wide" aria-labelledby="h-play">
<h2 id="h-play">Play</h2>
<ul>
<li><a href="/play">Play in the browser</a>: the lobby, a game against the computer, tables
with friends, the Route 66 tour and the leaderboard.</li>
<li><a href="/play#how-to-play">How to play</a>: the rules in brief.</li>
</ul>
</section>
<section class="panel wide" aria-labelledby="h-api">
<h2 id="h-api">The API</h2>
<ul>
<li><a href="/docs">API reference</a> (Swagger UI: try every request)</li>
<li><a href="/redoc">API reference</a> (ReDoc: to read)</li>
<li><a href="/openapi.json">OpenAPI document</a> (openapi.json)</li>
<li><a href="/v1/rules">The variants, options and computer levels</a> (GET /v1/rules)</li>
</ul>
</section>
<p class="version wide">sixtysix {version}</p>
</main>
</body>
</html>
"""


def landing_page(version: str) -> str:
    """The landing page's HTML for a server of ``version``."""
    return LANDING_PAGE.replace("{version}", escape(version))


def init(app: Flask) -> None:
    """Route ``GET /`` to the landing page and ``GET /favicon.ico`` to the icon."""

    @app.get("/favicon.ico")
    def _favicon() -> Response:
        return send_file(ICON, mimetype="image/svg+xml", max_age=ICON_MAX_AGE)

    @app.get("/")
    def _root() -> Response:
        page = landing_page(str(current_app.config["API_VERSION"]))
        return Response(page, mimetype="text/html")
