"""The API served in a background thread of this process (``sixtysix play`` offline, tests).

>>> with LocalServer() as server:          # its own embedded redis-server in a temp dir
...     SixtySixClient(server.url).health()

Werkzeug's threaded server on a free loopback port; not for production (use ``sixtysix serve``).
The computers' moves, hints and analyses are run by ``workers`` worker threads of this
process (:class:`api.worker.run.WorkerThreads`) on the same Redis (``QUEUE_URL`` in
``config`` puts the queue elsewhere; ``workers=0``: none, the caller runs its own; an app
without a task queue, on a Redis Cluster without ``QUEUE_URL``, gets none).
"""

from __future__ import annotations

import threading
from contextlib import ExitStack
from typing import Any, Self

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from api.composition import Services
from api.runtime.redis_server import HOST, EmbeddedRedis
from api.runtime.started import Started
from api.worker.run import WorkerThreads


class _QuietHandler(WSGIRequestHandler):
    """No request log lines: they would break into the terminal game."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


class LocalServer(Started):
    """``create_app`` on ``http://127.0.0.1:<free port>``; with no ``redis_url`` an
    :class:`EmbeddedRedis` without persistence is started and stopped with the server.
    """

    def __init__(self, redis_url: str | None = None, config: dict[str, Any] | None = None,
                 workers: int = 1) -> None:
        self.redis_url = redis_url
        self.config = dict(config or {})
        self.workers = workers
        self._stack = ExitStack()
        self._server: BaseWSGIServer | None = None

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("the server is not started")
        return f"http://{HOST}:{self._server.server_port}"

    def start(self) -> Self:
        from api.app import create_app  # the app pulls in Flask: only when serving

        with ExitStack() as stack:
            redis_url = self.redis_url
            if redis_url is None:
                redis_url = stack.enter_context(EmbeddedRedis(appendonly=False)).url
            # one local user: no rate limits, no request log lines (they would break into
            # the terminal game); ``config`` may turn them on
            app = create_app({"RATELIMIT_ENABLED": False, "SIXTYSIX_LOG_REQUESTS": 0,
                              **self.config, "REDIS_URL": redis_url})
            services: Services = app.extensions["sixtysix"]
            stack.callback(services.games.redis.close)
            stack.callback(services.notifier.close)
            if services.queue is not None:
                stack.callback(services.queue.close)
            if self.workers and services.queue is not None:
                stack.enter_context(WorkerThreads(redis_url, self.config.get("QUEUE_URL"),
                                                  self.workers,
                                                  app.config["SIXTYSIX_GAME_TTL"]))
            server = make_server(HOST, 0, app, threaded=True, request_handler=_QuietHandler)
            stack.callback(server.server_close)
            thread = threading.Thread(target=server.serve_forever, name="sixtysix-local",
                                      daemon=True)
            thread.start()
            stack.callback(thread.join)
            stack.callback(server.shutdown)
            self._server = server
            self._stack = stack.pop_all()
        return self

    def stop(self) -> None:
        self._stack.close()
        self._server = None
