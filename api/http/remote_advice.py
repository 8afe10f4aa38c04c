"""Hints and analyses run on the worker tier, with a bounded queue of their own.

The web request checks the position (cheap), enqueues :func:`api.worker.jobs.advice` on the
``sixtysix-advice`` queue and waits for its result at most ``SIXTYSIX_ADVICE_WAIT`` seconds.
When ``SIXTYSIX_ADVICE_QUEUE`` jobs are already waiting it is refused at once: 503
``advice-queue-full`` with ``Retry-After`` (nothing was enqueued or saved); no result in time
is a 503 ``advice-timeout`` with ``Retry-After`` (the job is cancelled if it has not started;
a hint marks nothing). When no worker process runs (:mod:`api.worker.tier`) it is refused at
once, before anything is enqueued: 503 ``workers-unavailable`` with ``Retry-After``. Workers
take computer moves before hints and analyses.
"""

from __future__ import annotations

from typing import Any, Final

from flask import current_app

from api.errors import FieldError, Unavailable
from api.games.turns import NoTaskQueue
from api.http.support import services
from api.worker.queue import QueueFull, ResultTimeout

ADVICE_JOB: Final = "api.worker.jobs.advice"


class AdviceQueueFull(Unavailable):
    slug = "advice-queue-full"
    title = "Too many hints and analyses are waiting for the computer"


class AdviceTimeout(Unavailable):
    slug = "advice-timeout"
    title = "The computer did not answer in time"


class WorkersUnavailable(Unavailable):
    slug = "workers-unavailable"
    title = "No worker process of the computers runs"


def advise_on_worker(position: dict[str, Any], level: str | None, budget_ms: float | None,
                     samples: int | None, reveal_declare: bool) -> dict[str, Any]:
    """:func:`api.games.advice.advise` of ``position``, computed by a worker (see the module)."""
    queue = services().queue
    if queue is None:
        raise NoTaskQueue("this server has no task queue for the computer")
    config = current_app.config
    wait = float(config["SIXTYSIX_ADVICE_WAIT"])
    retry = config["SIXTYSIX_RETRY_AFTER"]
    if queue.tier.workers_down():
        raise WorkersUnavailable("the worker tier runs no process for the computer now; retry "
                                 "later (nothing was done)", retry_after=retry)
    try:
        job_id = queue.submit_advice(ADVICE_JOB, position, level, budget_ms, samples,
                                     reveal_declare, timeout=int(wait) + 1)
    except QueueFull as exc:
        raise AdviceQueueFull(f"{exc}; retry later (nothing was done)", retry_after=retry,
                              queue_limit=exc.limit) from None
    try:
        answer: dict[str, Any] = queue.result(job_id, wait)
    except ResultTimeout:
        raise AdviceTimeout(f"no answer within {wait:g} s; retry later (nothing was saved)",
                            retry_after=retry) from None
    if "field" in answer:
        raise FieldError(answer["field"], answer["message"])
    result: dict[str, Any] = answer["result"]
    return result
