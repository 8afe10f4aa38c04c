"""``GET /healthz`` (the process answers) and ``GET /readyz`` (Redis answers a PING; the
parts of the worker tier that are missing and the archive's state are named, the answer stays
200: the web tier serves without them)."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView

from api.archive.store import ArchiveUnavailable
from api.archive.sweep import Archiver
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
        tier keeps serving, so the answer stays 200. With an archive, ``archive`` says
        whether its database answers and how many finished games wait for it (``backlog``
        above ``SIXTYSIX_ARCHIVE_PENDING_WARN``); one not ``ok`` makes the status
        ``degraded``, never a 503: live play goes on without it."""
        svc = services()
        svc.games.redis.ping()
        absent = [] if svc.queue is None else svc.queue.tier.missing()
        found: dict[str, Any] = {"status": "degraded" if absent else "ok", "missing": absent}
        if svc.archiver is not None:
            found["archive"] = archive = _archive(svc.archiver)
            if archive["status"] != "ok":
                found["status"] = "degraded"
        return found


def _archive(archiver: Archiver) -> dict[str, Any]:
    """The archive's part of the readiness answer."""
    backlog = archiver.backlog()
    try:
        archiver.archive.ping()
        status = ("backlog" if backlog.pending > current_app.config[
            "SIXTYSIX_ARCHIVE_PENDING_WARN"] else "ok")
    except ArchiveUnavailable:
        status = "unavailable"
    return {"status": status, "pending": backlog.pending,
            "oldest_pending_seconds": round(backlog.oldest, 3)}
