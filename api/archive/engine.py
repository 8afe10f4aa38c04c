"""The archive's database engine from its URL (``DATABASE_URL``), set up per dialect."""

from __future__ import annotations

import json
from typing import Any, Final

from sqlalchemy import Engine, create_engine, event

#: Bytes of a new SQLite archive's pages.
SQLITE_PAGE: Final = 16384


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    """SQLite: wait for a writer of another process rather than fail at once (ms); pages of
    16 KiB for a new file (an existing one keeps its own), so a page holds several games
    (their bodies are 2 to 3 KB: a 4 KiB page held one)."""
    dbapi_connection.execute("PRAGMA busy_timeout = 5000")
    dbapi_connection.execute(f"PRAGMA page_size = {SQLITE_PAGE}")


def compact(value: Any) -> str:
    """A JSON column's text without the blanks after separators (a few bytes a key)."""
    return json.dumps(value, separators=(",", ":"))


def open_engine(url: str, timeout: float = 5.0) -> Engine:
    """The engine of ``url`` (SQLAlchemy's URL: ``sqlite:///<path>``,
    ``postgresql+psycopg://...``); ``timeout``: seconds a PostgreSQL connect waits. Connections
    are checked before use, so one a restarted server dropped is replaced. JSON columns are
    written compact (:func:`compact`)."""
    args = {"connect_timeout": max(1, round(timeout))} if url.startswith("postgresql") else {}
    engine = create_engine(url, pool_pre_ping=True, connect_args=args,
                           json_serializer=compact)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine
