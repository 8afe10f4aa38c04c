"""The Flask class of the app: Flask with :meth:`App.ensure_sync` remembered per function.

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

from flask import Flask

#: Most functions whose kind an app remembers.
REMEMBERED: Final = 512


class App(Flask):
    """Flask, with ``ensure_sync`` answered from memory (see the module docstring)."""

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
