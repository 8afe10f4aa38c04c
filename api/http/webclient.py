"""The reference web client, served offline at ``/play`` (issue F).

``GET /play`` answers ``api/web/index.html``; ``GET /play/<file>`` the page's ES modules, its
style sheet and icon from ``api/web`` (package data; no build step, nothing from another host).
The page uses only the public HTTP API. Its ``Content-Security-Policy`` comes from
:mod:`api.http.security` like the documentation pages': scripts, styles and images from this server
only, requests to this server only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from flask import Blueprint, Flask, Response

WEB_DIR: Final = Path(__file__).parents[1] / "web"
PLAY_PATH: Final = "/play"

blp = Blueprint("play", __name__, static_folder=str(WEB_DIR), static_url_path=PLAY_PATH)


@blp.get(PLAY_PATH)
def _page() -> Response:
    # a buffered body (not a file passthrough): api.http.security hashes the page's inline scripts
    return Response((WEB_DIR / "index.html").read_text(encoding="utf-8"), mimetype="text/html")


def init(app: Flask) -> None:
    """Serve the web client at :data:`PLAY_PATH`."""
    app.register_blueprint(blp)
