"""flask-smorest's Blueprint with typed decorators (the library ships no type hints).

``doc`` and ``alt_response`` only document: flask-smorest wraps the view once more for each
(a call through ``current_app.ensure_sync`` per request and decorator); here they set the
view's ``_apidoc`` the same way and return the view itself.

Its arguments parser (:class:`QuickBodyParser`) answers a JSON body at once when its schema
has a ``quick_load`` that accepts it as it is (the action of every move: webargs and
marshmallow took about 25 µs for it; a creation's body, about 0.2 ms), decoded by orjson
(strict UTF-8 JSON; a body it refuses, such as one with a lone surrogate's escape, goes the
full way); any other body, an invalid one included, is parsed and refused the full way, with
the same answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import flask_smorest
import orjson
from flask import request
from webargs.flaskparser import FlaskParser, is_json_request

F = TypeVar("F", bound=Callable[..., Any])
#: A routed view: a MethodView class or a function.
C = TypeVar("C", bound=type | Callable[..., Any])


class QuickBodyParser(FlaskParser):
    """webargs' Flask parser with the shortcut of the module docstring: ``quick_load(body)``
    returns what the schema's ``load`` would, or ``None`` to parse the full way."""

    def parse(self, argmap: Any, req: Any = None, *, location: str | None = None,
              **kwargs: Any) -> Any:
        quick = getattr(argmap, "quick_load", None)
        if quick is not None and location == "json" and is_json_request(request):
            try:  # strict UTF-8 JSON: whatever orjson refuses goes the full way
                loaded = quick(orjson.loads(request.get_data(cache=True)))
            except orjson.JSONDecodeError:  # not JSON (or a lone surrogate): the full way
                loaded = None
            if loaded is not None:
                return loaded
        return super().parse(argmap, req, location=location, **kwargs)


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    ARGUMENTS_PARSER = QuickBodyParser()

    def route(self, rule: str, **options: Any) -> Callable[[C], C]:
        return cast(Callable[[C], C], super().route(rule, **options))

    def arguments(self, schema: Any, **kwargs: Any) -> Callable[[F], F]:
        return cast(Callable[[F], F], super().arguments(schema, **kwargs))

    def response(self, status_code: int, schema: Any = None, **kwargs: Any) -> Callable[[F], F]:
        return cast(Callable[[F], F], super().response(status_code, schema, **kwargs))

    def doc(self, **kwargs: Any) -> Callable[[F], F]:
        return _documenting(super().doc(**kwargs))

    def alt_response(self, status_code: int, **kwargs: Any) -> Callable[[F], F]:
        return _documenting(super().alt_response(status_code, **kwargs))

    def documented_as(self, documented: Callable[..., Any]) -> Callable[[F], F]:
        """Give a plain view ``documented``'s OpenAPI documentation (its docstring and what
        its ``doc``, ``arguments``, ``response`` and ``alt_response`` decorators recorded),
        to be routed with :meth:`route` as a function (``methods=[...]``, ``endpoint=...``)
        in place of ``documented``. The view skips the decorators' wrappers (webargs' and
        flask-smorest's: about 20 µs a request), so it must do what they did: load its body
        with :meth:`json_body` and answer a :class:`flask.Response`."""

        def document(view: F) -> F:
            view._apidoc = documented._apidoc  # type: ignore[attr-defined]
            view.__doc__ = documented.__doc__
            return view

        return document

    def json_body(self, schema: Any) -> Any:
        """The JSON body loaded by ``schema`` as ``arguments(schema)`` loads it (the same
        parser and options: an invalid body is the same 422)."""
        return self.ARGUMENTS_PARSER.parse(schema, location="json")


def _documenting(decorator: Callable[[F], Any]) -> Callable[[F], F]:
    """``decorator``'s documentation on the view, without its pass-through wrapper."""

    def document(view: F) -> F:
        view._apidoc = decorator(view)._apidoc  # type: ignore[attr-defined]
        return view

    return document


#: OpenAPI security of endpoints that need a seat token, and of those where it is optional.
SEAT_TOKEN: Final[list[dict[str, list[str]]]] = [{"seatToken": []}]
OPTIONAL_SEAT_TOKEN: Final[list[dict[str, list[str]]]] = [{"seatToken": []}, {}]
