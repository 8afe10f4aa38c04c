"""The app's Flask class remembers whether a function is a coroutine function, and treats
both kinds as Flask does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Response

from api.http.flask_app import REMEMBERED, App, AppResponse


def test_a_sync_view_is_called_as_it_is() -> None:
    app = App("t")

    @app.get("/sync")
    def sync_view() -> Response:
        return Response("sync")

    client = app.test_client()
    for _ in range(2):  # the second time from memory
        assert client.get("/sync").get_data() == b"sync"
    assert app.ensure_sync(sync_view) is sync_view


def test_a_coroutine_function_is_still_made_sync(monkeypatch: pytest.MonkeyPatch) -> None:
    app = App("t")
    made: list[Callable[..., Any]] = []

    def to_sync(func: Callable[..., Any]) -> Callable[..., Any]:
        made.append(func)
        return lambda: "ran"

    monkeypatch.setattr(app, "async_to_sync", to_sync)

    async def coroutine() -> None:
        return None

    assert app.ensure_sync(coroutine)() == app.ensure_sync(coroutine)() == "ran"
    assert made == [coroutine, coroutine]


def _fresh() -> Callable[[], None]:
    return lambda: None


def test_functions_beyond_the_bound_are_asked_each_time() -> None:
    app = App("t")
    functions = [_fresh() for _ in range(REMEMBERED + 10)]
    assert all(app.ensure_sync(f) is f for f in functions)
    assert len(app._coroutine) == REMEMBERED


def test_a_bound_method_is_remembered_by_its_function() -> None:
    class View:
        def get(self) -> str:
            return "x"

    app = App("t")
    first, second = View(), View()
    assert app.ensure_sync(first.get)() == app.ensure_sync(second.get)() == "x"
    assert list(app._coroutine) == [View.get]


@pytest.mark.parametrize(("status", "headers", "body"), [
    (200, {"ETag": '"3"'}, b"{}"), (201, {"Location": "/v1/games/x"}, b"{}"),
    (200, {"Content-Location": "/v1/\u00e9"}, b"{}"), (204, {}, b""), (304, {"ETag": '"3"'}, b""),
    (404, {}, b"{}"), (200, {"X-Many": "a"}, iter([b"{", b"}"]))])
def test_the_headers_handed_to_the_server_are_werkzeugs(status: int, headers: dict[str, str],
                                                       body: Any) -> None:
    """The shortcut of the common answer hands on what werkzeug's own way would, and any
    other answer goes werkzeug's way."""
    environ = {"SERVER_NAME": "example.org", "SERVER_PORT": "80", "wsgi.url_scheme": "http",
               "PATH_INFO": "/v1/games", "REQUEST_METHOD": "POST"}
    ours = AppResponse(body, status, headers, content_type="application/json")
    theirs = Response(body, status, headers, content_type="application/json")
    got = ours.get_wsgi_headers(environ)
    assert got.to_wsgi_list() == theirs.get_wsgi_headers(environ).to_wsgi_list()
    got.add("X-Later", "1")  # a copy: the response's own headers stay as they were
    assert "X-Later" not in ours.headers
