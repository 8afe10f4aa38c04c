"""The documentation pages work offline: every script, stylesheet and the spec they reference
come from the server itself (over a real socket), and neither page names an external URL.
``GET /`` is a landing page and is not counted against the ``/v1`` limits.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from importlib.metadata import version
from typing import Final
from urllib.parse import urljoin

import pytest
import redis
import requests

from api.app import close_app, create_app
from api.runtime.redis_server import EmbeddedRedis

TIMEOUT = 30
#: What each page must load, by the kind of reference: the spec and the front end's script.
EXPECTED = {
    "/docs": {"spec": "/openapi.json", "script": "/static/swagger-ui/swagger-ui-bundle.js",
              "stylesheet": "/static/swagger-ui/swagger-ui.css"},
    "/redoc": {"spec": "/openapi.json", "script": "/static/redoc/redoc.standalone.js"},
}
#: A marker of each vendored file: the code the page calls, at the version pinned.
MARKERS = {
    "/static/swagger-ui/swagger-ui-bundle.js": b"SwaggerUIBundle",
    "/static/swagger-ui/swagger-ui-standalone-preset.js": b"SwaggerUIStandalonePreset",
    "/static/swagger-ui/swagger-ui.css": b".swagger-ui",
    "/static/redoc/redoc.standalone.js": b'"spec-url"',
}


class _References(HTMLParser):
    """``src`` of scripts, ``href`` of stylesheets, ReDoc's ``spec-url``."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "script" and attr.get("src"):
            self.found.append(("script", attr["src"] or ""))
        elif tag == "link" and attr.get("rel") == "stylesheet":
            self.found.append(("stylesheet", attr.get("href") or ""))
        elif tag == "redoc":
            self.found.append(("spec", attr.get("spec-url") or ""))


def references(html: str) -> list[tuple[str, str]]:
    parser = _References()
    parser.feed(html)
    # Swagger UI is given the spec in its inline configuration script
    return parser.found + [("spec", url) for url in re.findall(r'\burl: "([^"]+)"', html)]


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_page_and_every_asset_come_from_the_server(live_url: str, path: str) -> None:
    page = requests.get(live_url + path, timeout=TIMEOUT)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    assert not re.search(r"https?://", page.text), re.findall(r"https?://\S+", page.text)
    found = references(page.text)
    assert {kind: url for kind, url in found if url in EXPECTED[path].values()} == EXPECTED[path]
    for kind, url in found:
        assert not re.match(r"(https?:)?//", url), url  # no other host, not even scheme-relative
        asset = requests.get(urljoin(live_url + path, url), timeout=TIMEOUT)
        assert asset.status_code == 200, (url, asset.status_code)
        assert asset.content, url
        if kind == "spec":
            assert asset.json()["openapi"] == "3.1.0"
        else:
            assert asset.headers["Content-Type"].startswith(
                "text/css" if kind == "stylesheet" else "text/javascript"), url
            assert MARKERS[url] in asset.content, url
            assert b"fonts.googleapis.com" not in asset.content, url
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "font-src 'self';" in policy


#: A reference a browser follows to load something: an element's ``src`` (as markup, or as a
#: script sets it), a style's ``url(...)``, an ``@import``.
LOADS: Final = re.compile(rb"""(?:\bsrc\s*[:=]\s*["']|url\(\s*["']?|@import\s+["'])"""
                          rb"(?:https?:)?//[^\s\"')]*")


@pytest.mark.parametrize("path", sorted(MARKERS))
def test_no_vendored_file_loads_anything_from_another_host(live_url: str, path: str) -> None:
    """ReDoc's side menu loaded Redocly's logo from cdn.redoc.ly (the page's policy refused
    it, with an error in the console)."""
    asset = requests.get(live_url + path, timeout=TIMEOUT)
    assert asset.status_code == 200
    assert LOADS.findall(asset.content) == []


def test_favicon_is_the_web_clients_icon(live_url: str) -> None:
    """Swagger UI's and ReDoc's pages name no icon: the browser asks for /favicon.ico."""
    icon = requests.get(live_url + "/favicon.ico", timeout=TIMEOUT)
    assert icon.status_code == 200
    assert icon.headers["Content-Type"].startswith("image/svg+xml")
    assert icon.content == requests.get(live_url + "/play/icon.svg", timeout=TIMEOUT).content
    assert icon.content.lstrip().startswith(b"<svg")


def test_swagger_ui_does_not_call_the_online_validator(live_url: str) -> None:
    page = requests.get(live_url + "/docs", timeout=TIMEOUT).text
    assert '"validatorUrl": null' in page


def test_root_is_a_landing_page_with_the_ways_in_and_the_version(live_url: str) -> None:
    response = requests.get(live_url + "/", allow_redirects=False, timeout=TIMEOUT)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/html")
    page = response.text
    for link in ("/play", "/play#how-to-play", "/docs", "/redoc", "/openapi.json", "/v1/rules"):
        assert f'href="{link}"' in page
        target = requests.get(live_url + link.split("#")[0], timeout=TIMEOUT)
        assert target.status_code == 200, link
    assert f"sixtysix {version('sixtysix')}" in page
    assert "<script" not in page


def test_root_and_static_files_are_not_rate_limited(redis_server: EmbeddedRedis,
                                                    redis_client: redis.Redis) -> None:
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url,
                      "SIXTYSIX_RATE_ADDRESS": "2/minute"})
    client = app.test_client()
    try:
        for _ in range(4):
            assert client.get("/").status_code == 200
            with client.get("/static/redoc/LICENSE") as static:
                assert static.status_code == 200
        assert client.get("/v1/rules").status_code == 200
        assert client.get("/v1/rules").status_code == 200
        assert client.get("/v1/rules").status_code == 429  # the limit is on, and counts /v1
    finally:
        close_app(app)
