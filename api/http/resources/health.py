"""``GET /healthz`` (the process answers) and ``GET /readyz`` (Redis answers a PING; the
parts of the worker tier that are missing are named, the answer stays 200: the web tier
serves without them)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.http.resources.blueprint import Blueprint
from api.http.schemas import HealthSchema
from api.http.support import services

blp = Blueprint("health", __name__, description="Liveness and readiness probes")


@blp.route("/healthz")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    def get(self) -> dict[str, str]:
        """The process is up (no Redis call)."""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, response="StoreUnavailable")
    def get(self) -> dict[str, Any]:
        """Redis answers a PING; else 503 with Retry-After. ``status`` is ``degraded`` and
        ``missing`` names the parts of the worker tier that run no process (``workers``:
        the computers wait, hints and analyses are refused; ``scheduler``: no scheduler process
        beats, so delayed jobs such as clocks are moved only by the workers' stand-by
        schedulers, at the workers' idle priority, and may be late on a busy machine): the web
        tier keeps serving, so the answer stays 200."""
        svc = services()
        svc.games.redis.ping()
        absent = [] if svc.queue is None else svc.queue.tier.missing()
        return {"status": "degraded", "missing": absent} if absent else {"status": "ok",
                                                                        "missing": []}
