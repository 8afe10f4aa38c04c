"""``GET /healthz`` (the process answers) and ``GET /readyz`` (Redis answers a PING)."""

from __future__ import annotations

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
    def get(self) -> dict[str, str]:
        """Redis answers a PING; else 503 with Retry-After."""
        services().store.redis.ping()
        return {"status": "ok"}
