"""flask-smorest's Blueprint with typed decorators (the library ships no type hints).

``doc`` and ``alt_response`` only document: flask-smorest wraps the view once more for each
(a call through ``current_app.ensure_sync`` per request and decorator); here they set the
view's ``_apidoc`` the same way and return the view itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import flask_smorest

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
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


def _documenting(decorator: Callable[[F], Any]) -> Callable[[F], F]:
    """``decorator``'s documentation on the view, without its pass-through wrapper."""

    def document(view: F) -> F:
        view._apidoc = decorator(view)._apidoc  # type: ignore[attr-defined]
        return view

    return document


#: OpenAPI security of endpoints that need a seat token, and of those where it is optional.
SEAT_TOKEN: Final[list[dict[str, list[str]]]] = [{"seatToken": []}]
OPTIONAL_SEAT_TOKEN: Final[list[dict[str, list[str]]]] = [{"seatToken": []}, {}]
#: The 503 answers of a write.
UNCONFIRMED: Final = (
    "store-unavailable (nothing was applied; retry after Retry-After) or outcome-unknown (the "
    "store did not confirm the save: it may have been applied; reload the view or repeat the "
    "request with the same Idempotency-Key)")
