"""The application factory: ``create_app(config)``; gunicorn runs ``api.app:create_app()``.

Configuration comes from the environment (:mod:`api.config`), then ``config`` overrides it.
Extensions are set up here, in one place: Redis (one pool per process), the adapters and the
pipeline after a save (:func:`api.composition.compose`: the stores, the long-poll waiter, the
workers' task queue on ``QUEUE_URL``, default ``REDIS_URL``), request ids and JSON logs,
``/metrics``, security headers and CORS, rate limits, flask-smorest with problem+json errors,
and the resource blueprints in :data:`api.http.resources.BLUEPRINTS`. Documentation: ``/docs``
(Swagger UI), ``/redoc`` (both served from the package, :mod:`api.http.docs`),
``/openapi.json``; ``/`` answers a landing page.
The web client is served at ``/play`` (:mod:`api.http.webclient`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from importlib.metadata import version
from typing import Any, Final

from flask import Flask

from api import config as api_config
from api.archive.store import Archive
from api.composition import compose
from api.http import (
    archive_drain,
    body,
    credentials,
    docs,
    errors,
    limits,
    metrics,
    observability,
    openapi_docs,
    security,
    webclient,
)
from api.http.flask_app import App
from api.http.resources import BLUEPRINTS
from api.runtime.redis_connect import connect
from api.worker.queue import QueueConfigError, TaskQueue

log = logging.getLogger(__name__)

TITLE: Final = "Sixty-Six"

OPENAPI: Final = {
    "API_TITLE": TITLE,
    "API_VERSION": version("sixtysix"),
    "OPENAPI_VERSION": "3.1.0",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    **docs.OPENAPI_UI,
}

SPEC_KWARGS: Final = {
    "info": {
        "description": (
            "Play Sixty-Six (Sechsundsechzig) and its variants over HTTP. Create a game, keep "
            "the seat token, read your view and post actions. Errors are RFC 9457 problem "
            "documents (application/problem+json) with stable type URIs."),
        "license": {"name": "MIT", "identifier": "MIT"},
    },
    # relative: the server that serves the document (at /openapi.json) serves the API
    "servers": [{"url": "/", "description": "The server this document is served by"}],
    "components": {"securitySchemes": {
        "seatToken": {"type": "http", "scheme": "bearer",
                      "description": "A seat token from POST /v1/games, or a table's seat "
                                     "token from GET /v1/tables/{table_id}"},
        "playerToken": {"type": "http", "scheme": "bearer",
                        "description": "A player token from POST /v1/players (never a seat "
                                       "token)"}}},
}


def _task_queue(config: Mapping[str, Any], timeout: float) -> TaskQueue | None:
    """The queue on ``QUEUE_URL`` (else ``REDIS_URL``); ``None`` when that is a Redis
    Cluster and no ``QUEUE_URL`` was set (a game with computer seats is then refused, 503
    ``no-task-queue``, before anything is saved)."""
    url = config["QUEUE_URL"] or config["REDIS_URL"]
    try:
        return TaskQueue.from_url(url, timeout, config["SIXTYSIX_ADVICE_QUEUE"])
    except QueueConfigError:
        if config["QUEUE_URL"]:
            raise
        log.warning("REDIS_URL is a Redis Cluster and QUEUE_URL is not set: no computer "
                    "seats, hints or analyses until QUEUE_URL names a single Redis")
        return None


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = App("api")
    app.config.update(api_config.from_env(os.environ))
    app.config.update(OPENAPI)
    app.config.update(config or {})
    app.config["MAX_CONTENT_LENGTH"] = app.config["SIXTYSIX_MAX_BODY"]
    app.json.sort_keys = False  # type: ignore[attr-defined]

    if app.config["SIXTYSIX_STREAM_HEARTBEAT"] <= 0:
        raise ValueError("SIXTYSIX_STREAM_HEARTBEAT must be a positive number of seconds")
    timeout = app.config["SIXTYSIX_REDIS_TIMEOUT"]
    if app.config["SIXTYSIX_REDIS_POOL"] < 1:
        raise ValueError("SIXTYSIX_REDIS_POOL must be at least 1")
    client = connect(app.config["REDIS_URL"], app.config["SIXTYSIX_REDIS_POOL"],
                     socket_timeout=timeout, socket_connect_timeout=timeout,
                     health_check_interval=30)
    database = app.config["DATABASE_URL"]
    app.extensions["sixtysix"] = compose(
        client, _task_queue(app.config, timeout), game_ttl=app.config["SIXTYSIX_GAME_TTL"],
        settle_wait=timeout, max_games=app.config["SIXTYSIX_MAX_GAMES_PER_ADDRESS"],
        presence_window=app.config["SIXTYSIX_PRESENCE_WINDOW"],
        archive=Archive.open(database, timeout) if database else None,
        archive_grace=app.config["SIXTYSIX_ARCHIVE_GRACE"])
    services = app.extensions["sixtysix"]
    observability.init(app)  # first: its request id and clock serve the other hooks
    metrics.init(app, client, services.archiver, services.queue)
    archive_drain.init(app, services.archiver, services.queue,
                       app.config["SIXTYSIX_ARCHIVE_WEB_DRAIN"])
    security.init(app)
    limits.init(app, client)
    credentials.init(app)  # a 401 comes before anything about the body
    body.init(app)  # after the limits: a refused client is refused before its body is read

    api = errors.ProblemApi(app, spec_kwargs={**SPEC_KWARGS,
                                              "extra_plugins": [limits.SpecPlugin(),
                                                                openapi_docs.DocsPlugin()]})
    errors.register(app)
    docs.init(app)
    webclient.init(app)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    credentials.index(app)
    app.extensions["sixtysix_api"] = api
    return app


def close_app(app: Flask) -> None:
    """Release what :func:`create_app` opened, in order: the active-games flush (awaited),
    the archive's drain (awaited), the long-poll listener, the Redis client, the task queue's
    client and the archive's connections."""
    app.extensions[metrics.EXTENSION].active.close()
    archive_drain.close(app)
    services = app.extensions["sixtysix"]
    services.notifier.close()
    services.games.redis.close()
    if services.queue is not None:
        services.queue.close()
    if services.archiver is not None:
        services.archiver.archive.close()
