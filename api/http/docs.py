"""The documentation pages, served offline: Swagger UI at ``/docs``, ReDoc at ``/redoc``.

Both load their scripts and styles from ``/static`` (``api/static``, package data: Swagger UI
and ReDoc vendored at the pinned versions of ``api/static/README.md``, with their licences),
never from the internet; Swagger UI's online validator badge is turned off. ``GET /``
redirects (302) to ``/docs``. flask-smorest renders the two pages from the settings in
:data:`OPENAPI_UI`.
"""

from __future__ import annotations

from typing import Final

from flask import Flask, redirect
from werkzeug.wrappers import Response

#: Where Flask serves ``api/static`` (the app's default static folder).
STATIC_URL: Final = "/static/"
DOCS_PATH: Final = "/docs"

OPENAPI_UI: Final = {
    "OPENAPI_SWAGGER_UI_PATH": DOCS_PATH.lstrip("/"),
    "OPENAPI_SWAGGER_UI_URL": STATIC_URL + "swagger-ui/",
    # null: no badge image fetched from validator.swagger.io
    "OPENAPI_SWAGGER_UI_CONFIG": {"validatorUrl": None},
    "OPENAPI_REDOC_PATH": "redoc",
    "OPENAPI_REDOC_URL": STATIC_URL + "redoc/redoc.standalone.js",
}


def init(app: Flask) -> None:
    """Route ``GET /`` to the Swagger UI page."""

    @app.get("/")
    def _root() -> Response:
        return redirect(DOCS_PATH, 302)
