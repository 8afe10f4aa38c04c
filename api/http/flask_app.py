"""The Flask class of the app: Flask with :meth:`App.ensure_sync` remembered per function, and
its response class (:class:`AppResponse`).

Flask asks ``ensure_sync`` of every hook, view and error handler on every request, and each
answer is an ``inspect.iscoroutinefunction`` (about 0.5 µs; eight or more a request). Whether
a function is a coroutine function does not change, so :class:`App` remembers it for the first
:data:`REMEMBERED` functions it sees (hooks, views and handlers are registered once; a bound
method is remembered by its function), and asks again for any beyond.
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import iscoroutinefunction
from typing import Any, Final

from flask import Flask, Response
from werkzeug.datastructures import Headers

#: Most functions whose kind an app remembers.
REMEMBERED: Final = 512
#: Headers werkzeug rewrites on their way out (see :meth:`AppResponse.get_wsgi_headers`).
_REWRITTEN: Final = frozenset(("location", "content-location"))


class AppResponse(Response):
    """Flask's response; the common answer (2xx but 204, with its ``Content-Length``, no
    ``Location`` or ``Content-Location``) is handed to the server as a plain copy of its
    headers, since werkzeug would change nothing in it (werkzeug copies and checks each
    header again: about 3 µs for an API answer's ten)."""

    def get_wsgi_headers(self, environ: Any) -> Headers:
        status = self.status_code
        if 200 <= status < 300 and status != 204:
            pairs = self.headers._list
            sized = False
            for key, _ in pairs:
                low = key.lower()
                if low in _REWRITTEN:
                    break
                sized = sized or low == "content-length"
            else:
                if sized:
                    copy = Headers()
                    copy._list = list(pairs)
                    return copy
        return super().get_wsgi_headers(environ)


class App(Flask):
    """Flask, with ``ensure_sync`` answered from memory (see the module docstring) and
    :class:`AppResponse` for its responses."""

    response_class = AppResponse

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._coroutine: dict[Callable[..., Any], bool] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        key = getattr(func, "__func__", func)
        try:
            found = self._coroutine.get(key)
        except TypeError:  # an unhashable callable: ask each time
            return super().ensure_sync(func)
        if found is None:
            found = iscoroutinefunction(func)
            if len(self._coroutine) < REMEMBERED:
                self._coroutine[key] = found
        return self.async_to_sync(func) if found else func
