"""The worker tier's scheduler (:mod:`api.worker.scheduler`) on the session's Redis, on a queue
of its own (the session's schedulers do not look at it)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import redis
from rq import Queue

from api.worker.queue import SERIALIZER
from api.worker.scheduler import LOCK_MS, Scheduler

JOBS = 300
SCHEDULERS = 4


def _scheduler(queue: Queue, client: redis.Redis) -> Scheduler:
    scheduler = Scheduler([queue], connection=client, serializer=SERIALIZER)
    scheduler.stopped = threading.Event()
    return scheduler


def test_due_jobs_are_moved_once_by_schedulers_that_all_think_they_hold_the_lock(
        redis_client: redis.Redis) -> None:
    """Schedulers moving the same due jobs at once (a renewal came late, so two think they
    hold the lock): each job reaches the queue once."""
    queue = Queue("test-scheduler-claim", connection=redis_client, serializer=SERIALIZER)
    due = datetime.now(UTC) - timedelta(seconds=5)
    ids = [queue.enqueue_at(due, "api.worker.jobs.clock_expired", f"game-{i}", 1,
                            job_id=f"claim-{i}").id for i in range(JOBS)]
    schedulers = [_scheduler(queue, redis_client) for _ in range(SCHEDULERS)]
    start = threading.Barrier(SCHEDULERS)

    def move(scheduler: Scheduler) -> None:
        scheduler.prepare_registries([queue.name])
        start.wait()
        scheduler.enqueue_scheduled_jobs()

    threads = [threading.Thread(target=move, args=(s,)) for s in schedulers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    queued = [i.decode() for i in redis_client.lrange(queue.key, 0, -1)]
    assert sorted(queued) == sorted(ids)  # every job once
    assert queue.scheduled_job_registry.count == 0


def test_one_scheduler_holds_the_lock_for_a_second_and_another_takes_it_then(
        redis_client: redis.Redis) -> None:
    """The lock lives :data:`LOCK_MS`; a stand-by takes it only once it has lapsed."""
    queue = Queue("test-scheduler-lock", connection=redis_client, serializer=SERIALIZER)
    holder, stand_by = _scheduler(queue, redis_client), _scheduler(queue, redis_client)
    assert holder.acquire_locks() == {queue.name}
    assert stand_by.acquire_locks() == set()
    key = holder.get_locking_key(queue.name)
    assert 0 < redis_client.pttl(key) <= LOCK_MS
    assert holder.acquire_locks() == {queue.name}  # renewed
    redis_client.delete(key)  # as if it lapsed: its holder died
    assert stand_by.acquire_locks() == {queue.name}
    assert redis_client.get(key) == stand_by.name.encode()
    assert holder.acquire_locks() == set()
