"""The errors the domain raises: a request the rules or the state refuse, nothing applied.

Each has a stable ``slug`` (the problem type :mod:`api.http.errors` answers it as,
``https://sixtysix.dev/problems/<slug>``), a ``title`` (what went wrong, for any caller), a
``detail`` (this occurrence, and what to do) and ``extra``: facts the answer carries as
members of its own (``table_id``, ``reason``...). The kind of error decides the HTTP status
in that one place: :class:`FieldError` 422, :class:`Forbidden` 403, :class:`NotFound` 404,
:class:`Conflict` and
:class:`Busy` 409, :class:`Unavailable` 503 (with ``Retry-After`` when it has a
``retry_after``). A package raises a subclass naming its slug and title.
"""

from __future__ import annotations

from typing import Any, ClassVar


class DomainError(Exception):
    """A refused request (see the module docstring); nothing was applied."""

    slug: ClassVar[str]
    title: ClassVar[str]

    def __init__(self, detail: str, **extra: Any) -> None:
        self.detail = detail
        self.extra = extra
        super().__init__(detail)


class FieldError(DomainError):
    """A request field with a value the rules do not accept; ``allowed``: the values that are."""

    slug = "validation-error"
    title = "Invalid request field"

    def __init__(self, field: str, message: str, allowed: list[object] | None = None) -> None:
        extra: dict[str, Any] = {"errors": {field: [message]}}
        if allowed is not None:
            extra["allowed"] = allowed
        super().__init__(f"{field}: {message}", **extra)
        self.field = field
        self.message = message


class Forbidden(DomainError):
    """The caller is known, and this is not his to do."""


class NotFound(DomainError):
    """No such thing, or none the caller may know of."""


class Conflict(DomainError):
    """Not possible in the thing's present state."""


class Busy(DomainError):
    """The thing kept changing meanwhile; nothing was done, the same request may succeed."""


class Unavailable(DomainError):
    """A part the request needs is missing or down; ``retry_after``: seconds after which the
    same request may succeed (``None``: not by waiting)."""

    def __init__(self, detail: str, *, retry_after: int | None = None, **extra: Any) -> None:
        super().__init__(detail, **extra)
        self.retry_after = retry_after
