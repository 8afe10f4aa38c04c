"""Fixtures of the API tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from api.local import LocalServer
from api.redis_server import EmbeddedRedis


@pytest.fixture(scope="module")
def live_url(redis_server: EmbeddedRedis) -> Iterator[str]:
    """Base URL of the app served over a real socket (werkzeug, in a thread) on the session's
    Redis; take ``redis_client`` as well for a clean database.
    """
    with LocalServer(redis_server.url) as server:
        yield server.url
