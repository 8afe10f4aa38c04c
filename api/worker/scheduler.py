"""RQ's scheduler as the worker tier runs it: a lock that lives a second, stand-bys in every
worker process, and each due job moved to its queue once, whoever moves it.

RQ's scheduler moves a delayed job (a clock's deadline) from the queue's scheduled registry
to the queue when due; of the schedulers running, the one holding the queue's lock
(``rq:scheduler-lock:<queue>``, its name as value) does. RQ keeps that lock 61 s and renews it
every round, so a holder killed by SIGKILL left its lock, and every deadline, waiting for up
to a minute (a deadline fired 58.6 s late). Here:

* the lock lives :data:`LOCK_MS` milliseconds and is renewed (or, by a stand-by, taken) every
  round of :data:`ROUND` seconds, so a dead holder's lock is gone within a second and a
  stand-by holds it by the next round;
* besides the pool's scheduler process (normal priority), every worker process runs a
  stand-by in a thread (:class:`StandByScheduler`): the death of any one process leaves a
  scheduler running;
* a due job is moved in one transaction with the registry watched (``WATCH``/``MULTI``): of
  two schedulers that both think they hold the lock (one whose renewal came late) only one
  moves a job, and a holder killed mid-move leaves the job in the registry, never half-moved.
  A clock job moved twice would be harmless anyway (its version check), but it is moved once.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Final

import redis
from redis.client import Pipeline
from rq.queue import Queue
from rq.registry import ScheduledJobRegistry
from rq.scheduler import RQScheduler
from rq.utils import current_timestamp, now, utcformat

log = logging.getLogger(__name__)

#: Seconds between two rounds of a scheduler (renew or take the lock, move the due jobs).
ROUND: Final = 0.2
#: Milliseconds the scheduler lock lives unless renewed: longest wait after a holder's death.
LOCK_MS: Final = 1000
#: Seconds a scheduler's metadata hash (``rq:scheduler:<name>``) outlives its last beat.
HASH_TTL: Final = 60

# KEYS: the lock; ARGV: the scheduler's name, the lock's life in ms. Takes a free lock (1),
# renews one's own (2), leaves another's (0).
_TAKE_OR_RENEW: Final = """
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 2
end
return 0
"""


class Scheduler(RQScheduler):
    """RQ's scheduler with the short lock taken or renewed on every round and due jobs moved
    once. Its stop flag is ``stopped``, an event that outlives this scheduler: RQ's own flag
    was lost when Redis failed at the stop and a new scheduler was made, which then ran on for
    ever; and a signal that came before RQ's handlers were installed counts too."""

    stopped: threading.Event

    def __init__(self, queues: list[Queue], connection: redis.Redis, **kwargs: Any) -> None:
        super().__init__(queues, connection, interval=ROUND, **kwargs)

    @property
    def should_reacquire_locks(self) -> bool:
        """Never apart: :meth:`heartbeat` takes or renews the locks on every round."""
        return False

    @property
    def _stop_requested(self) -> bool:
        return self.stopped.is_set()

    @_stop_requested.setter
    def _stop_requested(self, value: bool) -> None:  # RQ's request_stop sets it
        if value:
            self.stopped.set()

    def save(self, pipeline: Pipeline | None = None) -> None:
        """RQ's metadata hash, kept :data:`HASH_TTL` seconds (RQ's ``interval + 60`` is not a
        whole number of seconds here)."""
        target = self.connection.pipeline() if pipeline is None else pipeline
        target.hset(self.key, mapping=self.to_dict())
        target.expire(self.key, HASH_TTL)
        if pipeline is None:
            target.execute()

    def acquire_locks(self, auto_start: bool = False) -> set[str]:
        """Take or renew the lock of each queue (:data:`LOCK_MS`); the queues held now."""
        take = self.connection.register_script(_TAKE_OR_RENEW)
        names = sorted(self._queue_names)
        with self.connection.pipeline() as pipe:
            for name in names:
                take(keys=[self.get_locking_key(name)], args=[self.name, LOCK_MS], client=pipe)
            outcomes = pipe.execute()
        held = {name for name, outcome in zip(names, outcomes, strict=True) if outcome}
        if held != self._acquired_locks:
            log.info("scheduler %s now holds the locks of %s", self.name,
                     ", ".join(sorted(held)) or "no queue")
            self._acquired_locks = held
            self._scheduled_job_registries = []
        return held

    def heartbeat(self) -> None:
        """Beat (RQ's metadata hash) and take or renew the locks."""
        self.last_heartbeat = now()
        with self.connection.pipeline() as pipe:
            pipe.hset(self.key, "last_heartbeat", utcformat(self.last_heartbeat))
            pipe.expire(self.key, HASH_TTL)
            pipe.execute()
        self.acquire_locks()

    def enqueue_scheduled_jobs(self) -> None:
        """Move the due jobs of the queues held to their queues (:meth:`move_due`)."""
        self._status = self.Status.WORKING
        if not self._scheduled_job_registries and self._acquired_locks:
            self.prepare_registries()
        for registry in self._scheduled_job_registries:
            self.move_due(registry)
        self._status = self.Status.STARTED

    def move_due(self, registry: ScheduledJobRegistry) -> int:
        """Move the jobs of ``registry`` that are due to its queue, each with its removal from
        the registry in one transaction that fails if the registry changed since it was read
        (then read again): a job is moved once. The number moved. (RQ's rate limits are not
        applied: no job of the tier has one.)"""
        queue = Queue(registry.name, connection=self.connection, serializer=self.serializer)
        with self.connection.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(registry.key)
                    job_ids = registry.get_jobs_to_schedule(current_timestamp())
                    if not job_ids:
                        return 0
                    jobs = queue.job_class.fetch_many(job_ids, connection=self.connection,
                                                      serializer=self.serializer)
                    pipe.multi()
                    for job_id, job in zip(job_ids, jobs, strict=True):
                        if job is not None:
                            queue._enqueue_job(job, pipeline=pipe,
                                               at_front=job.should_enqueue_at_front())
                        registry.remove(job_id, pipeline=pipe)
                    pipe.execute()
                    return len(job_ids)
                except redis.WatchError:
                    continue


class StandByScheduler(Scheduler):
    """A :class:`Scheduler` run in a thread of a worker process: signals belong to the main
    thread, which sets ``stopped``."""

    def _install_signal_handlers(self) -> None:
        """None: the worker's own handlers set ``stopped``."""
