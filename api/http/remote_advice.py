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

from api.http.replies import NO_TASK_QUEUE
from api.http.errors import FieldError, Problem, ProblemType
from api.http.support import services
from api.worker.queue import QueueFull, ResultTimeout

ADVICE_JOB: Final = "api.worker.jobs.advice"
QUEUE_FULL: Final = ProblemType("advice-queue-full", 503,
                                "Too many hints and analyses are waiting for the computer")
ADVICE_TIMEOUT: Final = ProblemType("advice-timeout", 503,
                                    "The computer did not answer in time")
WORKERS_UNAVAILABLE: Final = ProblemType("workers-unavailable", 503,
                                         "No worker process of the computers runs")


def advise_on_worker(position: dict[str, Any], level: str | None, budget_ms: float | None,
                     samples: int | None, reveal_declare: bool) -> dict[str, Any]:
    """:func:`api.games.advice.advise` of ``position``, computed by a worker (see the module)."""
    queue = services().queue
    if queue is None:
        raise Problem(NO_TASK_QUEUE, "this server has no task queue for the computer")
    config = current_app.config
    wait = float(config["SIXTYSIX_ADVICE_WAIT"])
    retry = {"Retry-After": str(config["SIXTYSIX_RETRY_AFTER"])}
    if queue.tier.workers_down():
        raise Problem(WORKERS_UNAVAILABLE, "the worker tier runs no process for the computer "
                      "now; retry later (nothing was done)", headers=retry)
    try:
        job_id = queue.submit_advice(ADVICE_JOB, position, level, budget_ms, samples,
                                     reveal_declare, timeout=int(wait) + 1)
    except QueueFull as exc:
        raise Problem(QUEUE_FULL, f"{exc}; retry later (nothing was done)", headers=retry,
                      queue_limit=exc.limit) from None
    try:
        answer: dict[str, Any] = queue.result(job_id, wait)
    except ResultTimeout:
        raise Problem(ADVICE_TIMEOUT, f"no answer within {wait:g} s; retry later (nothing "
                      "was saved)", headers=retry) from None
    if "field" in answer:
        raise FieldError(answer["field"], answer["message"])
    result: dict[str, Any] = answer["result"]
    return result
