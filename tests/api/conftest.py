"""Fixtures of the API tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from api.config import DEFAULTS
from api.http.limits import LIMIT_SETTINGS
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from api.worker.run import WorkerPool

#: The rate limits as shipped, whatever the environment of the test run says.
SHIPPED_LIMITS = {"RATELIMIT_ENABLED": True, **{name: DEFAULTS[name] for name in LIMIT_SETTINGS}}


@pytest.fixture(scope="module")
def live_url(redis_server: EmbeddedRedis, workers: WorkerPool) -> Iterator[str]:
    """Base URL of the app served over a real socket (werkzeug, in a thread) on the session's
    Redis, with the session's worker processes; take ``redis_client`` as well for a clean
    database.
    """
    with LocalServer(redis_server.url, workers=0) as server:
        yield server.url


@pytest.fixture(scope="module")
def limited_url(redis_server: EmbeddedRedis, workers: WorkerPool) -> Iterator[str]:
    """As :func:`live_url`, with the default rate limits on (:data:`SHIPPED_LIMITS`); take
    ``redis_client`` as well, which also clears the limiter's counts.
    """
    with LocalServer(redis_server.url, SHIPPED_LIMITS, workers=0) as server:
        yield server.url
