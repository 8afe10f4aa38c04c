"""The task queue of the worker tier: RQ on a Redis server, behind :class:`TaskQueue`.

Why RQ: its non-forking ``SimpleWorker`` starts a job sooner than Dramatiq and runs delayed
jobs (``enqueue_at``/``enqueue_in``; RQ's scheduler moves them to their queue when due, run
as a process of the worker pool with a stand-by in every worker process:
:mod:`api.worker.scheduler`) sooner after their due time (figures:
docs/performance.md#the-task-queue); it also keeps results in Redis (a stream per job) for the
hint and analysis requests that wait for them. A delayed job may start up to a second *early*
(RQ keeps due times in whole seconds), so a clock job checks its deadline itself. Jobs and
results are serialised as JSON (:data:`SERIALIZER`), not pickled. ``sixtysix worker`` runs
``SimpleWorker``\\ s (one process per core), see :mod:`api.worker.run`.

Shards: ``QUEUE_URL`` lists one or more Redis servers (or Sentinel-managed primaries; RQ
cannot use a Redis Cluster), each a :class:`Shard` with all the queues, registries and keys
below; :class:`TaskQueue` puts each game's jobs, lease, awaiting and deadline entries on the
shard its id hashes to (:func:`api.worker.routing.shard_index`), so every guarantee below
holds per shard, and a worker process serves one shard (:mod:`api.worker.run`). One URL is
one shard. Queues (on each shard):

* ``sixtysix-moves`` — computer moves (:func:`api.worker.jobs.play_computers`), one job per
  game and version (job id :func:`move_job_id`), stamped with the time it was asked (its
  deadline runs from then: :mod:`api.worker.deadline`); unbounded: every game waiting for a
  computer has at most one job per version and a duplicate is dropped by the version check.
  When the workers cannot answer it in time even at their least work they note it
  (:meth:`TaskQueue.note_busy`) and new games against the computer are refused.
* the clock's delayed jobs (:func:`api.worker.jobs.clock_expired`, job id
  :func:`api.live.clock.clock_job_id`) are put on ``sixtysix-moves`` by RQ's scheduler when due.
* ``sixtysix-advice`` — hints and analyses; at most ``advice_limit`` jobs wait in it: one more
  is refused with :class:`QueueFull` (the API answers 503 with ``Retry-After``).

A worker holds a *lease* (``sixtysix:moving:{<game id>}``, :data:`LEASE_SECONDS`) on the game
it is moving for; a request that finds a computer to move, no lease and no queued job
re-enqueues the move (:meth:`TaskQueue.move_in_hand`), so a worker killed mid-move delays the
game by at most the lease.

A worker killed after it took a job from its queue (RQ's ``BLPOP``) and before it marked the
job started leaves the job ``queued`` in no queue and no registry, where no worker would ever
find it. The sweep of :mod:`api.worker.run` (which looks only at games asked to move a lease's
time ago or more) finds such a job lost and puts its id back at the front of its queue, in one
script, so of several sweeps at once only one does (``recover`` of
:meth:`TaskQueue.move_in_hand`, :meth:`TaskQueue.clock_in_hand`); a request touching the game
takes a queued job as waiting (it may be a live worker's that is about to start it). A job put
back runs once more at most, and a move job is dropped by the version check if its move was
made meanwhile: no move is made twice.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Final, cast

import redis
from rq import Queue, Retry, Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.results import Result
from rq.serializers import JSONSerializer

from api.keys import AWAITING, COMPUTERS_BUSY, DEADLINES, lease_key
from api.live.clock import SWEPT, clock_job_id, clock_job_ids
from api.runtime.redis_connect import connect
from api.worker.routing import shard_index
from api.worker.tier import ShardsWatch, TierWatch

MOVES: Final = "sixtysix-moves"
ADVICE: Final = "sixtysix-advice"
#: Seconds a worker's lease on a game lasts: longer than any computer move takes.
LEASE_SECONDS: Final = 20
#: Seconds a move job may run before RQ stops it (then it is retried, at most twice).
MOVE_TIMEOUT: Final = 60
#: Seconds a finished job's result (or failure) is kept.
RESULT_TTL: Final = 120
#: Statuses of a job that will still run.
WAITING: Final = frozenset({JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED})
MOVE_JOB: Final = "api.worker.jobs.play_computers"
#: Jobs and results are JSON, not RQ's default pickle: what is in the queue's Redis can
#: name only a job function and plain data, never code to run.
SERIALIZER: Final = JSONSerializer
#: Statuses of a clock job that will still run or is running.
CLOCK_IN_HAND: Final = WAITING | {JobStatus.STARTED}

log = logging.getLogger(__name__)

# KEYS: the job's hash, its queue, the queue's intermediate list (RQ's, of a worker that took
# the job with LMOVE); ARGV: job id, '1' to recover a lost job, the statuses (besides queued)
# that count as in hand. Answers 0 if the job is gone or in another status, 1 if it is in
# hand, 2 if (recovering) it was queued in neither list, taken by a worker that died before it
# started it, and is put back at the front of its queue now.
_IN_HAND: Final = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 0 end
if status ~= '""" + JobStatus.QUEUED.value + """' then
  for i = 3, #ARGV do
    if status == ARGV[i] then return 1 end
  end
  return 0
end
if ARGV[2] ~= '1' or redis.call('LPOS', KEYS[2], ARGV[1])
    or redis.call('LPOS', KEYS[3], ARGV[1]) then
  return 1
end
redis.call('LPUSH', KEYS[2], ARGV[1])
return 2
"""


# KEYS: the deadlines set; ARGV: game id, the deadline read, the new one ('' to forget the
# game). Changes nothing if the game's deadline was scheduled anew since it was read.
_RESEEN: Final = """
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not seen or tonumber(seen) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1])
else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""

# KEYS: the awaiting set; ARGV: game id, time. Forgets the game if asked no later than then.
_SETTLED: Final = """
local asked = redis.call('ZSCORE', KEYS[1], ARGV[1])
if asked and tonumber(asked) <= tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end
"""


class QueueConfigError(ValueError):
    """``QUEUE_URL`` names a Redis Cluster (RQ needs one server or a Sentinel primary per
    shard), or no URL at all."""


class QueueFull(Exception):
    """The advice queue already holds its most jobs; nothing was enqueued."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"{limit} hints or analyses are already waiting for a worker")


class ResultTimeout(Exception):
    """A job gave no result within the wait; it may still run (its result is dropped)."""


class JobFailed(Exception):
    """A job raised (its message is the worker's exception line, never a traceback)."""


def move_job_id(game_id: str, version: int) -> str:
    """The id of the move job of ``game_id`` at ``version`` (RQ ids allow ``[A-Za-z0-9_-]``)."""
    return f"move-{hashlib.sha256(game_id.encode()).hexdigest()[:24]}-{version}"


class Shard:
    """The queue on one Redis server (a shard of :class:`TaskQueue`): enqueue moves and
    delayed jobs, run advice jobs."""

    def __init__(self, client: redis.Redis, advice_limit: int = 8) -> None:
        self.redis = client
        self.advice_limit = advice_limit
        self._settle = client.register_script(_SETTLED)
        self._reseen = client.register_script(_RESEEN)
        self._in_hand = client.register_script(_IN_HAND)
        self.moves = Queue(MOVES, connection=client, serializer=SERIALIZER)
        self.advice = Queue(ADVICE, connection=client, serializer=SERIALIZER)
        #: which parts of the worker tier are missing (:mod:`api.worker.tier`)
        self.tier = TierWatch(client)

    # ------------------------------------------------------------------ moves

    def enqueue_move(self, game_id: str, version: int) -> None:
        """Ask a worker to play the computers of ``game_id`` from ``version`` on (the job
        carries the time asked, ``time.time()``: its deadline runs from then)."""
        asked = time.time()
        self.redis.zadd(AWAITING, {game_id: asked})
        self.moves.enqueue(MOVE_JOB, game_id, version, asked,
                           job_id=move_job_id(game_id, version),
                           job_timeout=MOVE_TIMEOUT, result_ttl=RESULT_TTL,
                           failure_ttl=RESULT_TTL, retry=Retry(max=2))

    def move_in_hand(self, game_id: str, version: int, *, recover: bool = False) -> bool:
        """Whether a worker holds the game's lease or a move job for ``version`` will run;
        with ``recover``, a lost job is put back in its queue first (:meth:`job_in_hand`)."""
        if self.redis.exists(lease_key(game_id)):
            return True
        return self.job_in_hand(move_job_id(game_id, version), WAITING, recover=recover)

    def job_in_hand(self, job_id: str, statuses: frozenset[JobStatus], *,
                    recover: bool = False) -> bool:
        """Whether job ``job_id`` of the moves queue is in one of ``statuses`` or queued.

        With ``recover``, a job is queued only while its id is in the queue's list (or in
        RQ's intermediate list, taken by a worker that is starting it); one queued in neither
        was taken by a worker killed before it marked the job started, and is put back at the
        front of its queue here (one script: of several sweeps at once, one puts it back)."""
        found = self._in_hand(
            keys=[Job.key_for(job_id), self.moves.key, self.moves.intermediate_queue_key],
            args=[job_id, "1" if recover else "0", *sorted(s.value for s in statuses)])
        if found == 2:
            log.warning("job %s was taken from its queue by a worker that never started it "
                        "(killed?): put back in the queue", job_id)
        return bool(found)

    def awaiting(self, older_than: float, limit: int = 100) -> list[str]:
        """Games asked to move more than ``older_than`` seconds ago and not settled since."""
        ids = self.redis.zrangebyscore(AWAITING, "-inf", time.time() - older_than, 0, limit)
        return [i.decode() for i in cast("list[bytes]", ids)]

    def settled(self, game_id: str, asked_before: float) -> None:
        """The game waits for a human (or is gone) as found after ``asked_before`` (a
        ``time.time()``): the sweep may forget it, unless its computers were asked to move
        again since (a newer job, which keeps it)."""
        self._settle(keys=[AWAITING], args=[game_id, asked_before])

    def take_lease(self, game_id: str, version: int) -> None:
        self.redis.set(lease_key(game_id), version, ex=LEASE_SECONDS)

    def drop_lease(self, game_id: str) -> None:
        self.redis.delete(lease_key(game_id))

    def move_load(self) -> tuple[int, int]:
        """Jobs waiting in the moves queue, and the workers that take them (at least 1)."""
        return self.moves.count, max(1, Worker.count(connection=self.redis, queue=self.moves))

    def note_busy(self, seconds: int) -> None:
        """The workers cannot answer the waiting replies in time: say so for ``seconds``."""
        self.redis.set(COMPUTERS_BUSY, 1, ex=seconds)

    def busy_for(self) -> int:
        """Seconds the workers stay noted busy (:meth:`note_busy`); 0 when they are not."""
        left: int = self.redis.ttl(COMPUTERS_BUSY)
        return max(left, 0)

    # ------------------------------------------------------------------ delayed jobs

    def enqueue_at(self, when: datetime, func: str | Callable[..., Any], *args: Any,
                   job_id: str | None = None) -> str:
        """Run ``func(*args)`` (a dotted path or a module-level function) at ``when`` (aware
        datetime; RQ's scheduler may start it up to 1 s early); the job id. A job that fails
        (a worker killed in it, Redis trouble) is retried at most twice, as a move job is:
        the clock's jobs (:func:`api.worker.jobs.clock_expired`) are such."""
        job = self.moves.enqueue_at(when.astimezone(UTC), func, *args, job_id=job_id,
                                    job_timeout=MOVE_TIMEOUT, result_ttl=RESULT_TTL,
                                    failure_ttl=RESULT_TTL, retry=Retry(max=2))
        return str(job.id)

    def enqueue_in(self, delay: float, func: str | Callable[..., Any], *args: Any,
                   job_id: str | None = None) -> str:
        """Run ``func(*args)`` ``delay`` seconds from now; the job id."""
        return self.enqueue_at(datetime.now(UTC) + timedelta(seconds=delay), func, *args,
                               job_id=job_id)

    def track_deadline(self, game_id: str, deadline: float) -> None:
        """Note ``game_id``'s current deadline for the sweep (:data:`DEADLINES`)."""
        self.redis.zadd(DEADLINES, {game_id: deadline})

    def overdue(self, late: float, limit: int = 100) -> list[tuple[str, float]]:
        """Games (with the deadline noted) whose deadline passed more than ``late`` seconds
        ago, earliest first, at most ``limit``."""
        found = self.redis.zrangebyscore(DEADLINES, "-inf", time.time() - late, 0, limit,
                                         withscores=True)
        return [(i.decode(), float(d)) for i, d in cast("list[tuple[bytes, float]]", found)]

    def deadline_seen(self, game_id: str, noted: float, current: float | None) -> None:
        """The sweep read ``game_id`` with deadline ``noted`` in :data:`DEADLINES` and found
        ``current`` in the game (``None``: none, or no game): note that, unless the deadline
        was scheduled anew meanwhile."""
        self._reseen(keys=[DEADLINES],
                     args=[game_id, repr(noted), "" if current is None else repr(current)])

    def clock_in_hand(self, game_id: str, version: int) -> bool:
        """Whether a clock job of ``game_id`` at ``version`` will run or is running, or the
        sweep's own ran within :data:`RESULT_TTL` seconds (so a clock its job cannot apply
        is enqueued again at most that often); a lost one is put back in its queue first
        (:meth:`job_in_hand` with ``recover``: this is the sweep's question)."""
        swept = f"{clock_job_id(game_id, version)}-{SWEPT}"
        return bool(self.redis.exists(Job.key_for(swept))) or any(
            self.job_in_hand(job_id, CLOCK_IN_HAND, recover=True)
            for job_id in clock_job_ids(game_id, version) if job_id != swept)

    # ------------------------------------------------------------------ advice

    def submit_advice(self, func: str, *args: Any, timeout: int,
                      job_id: str | None = None) -> str:
        """Enqueue a hint or analysis job that may run ``timeout`` seconds; the job id.

        :class:`QueueFull` when :attr:`advice_limit` jobs are waiting already (the count is
        read before enqueueing, so requests arriving at the same instant may pass it by as
        many as arrive together).
        """
        if self.advice.count >= self.advice_limit:
            raise QueueFull(self.advice_limit)
        job = self.advice.enqueue(func, *args, job_id=job_id, job_timeout=timeout,
                                  result_ttl=RESULT_TTL,
                                  failure_ttl=RESULT_TTL, ttl=timeout + 5)
        return str(job.id)

    def result(self, job_id: str, wait: float) -> Any:
        """The return value of job ``job_id``, waiting up to ``wait`` seconds for it.

        :class:`ResultTimeout` if none came (the job is then cancelled if it has not
        started), :class:`JobFailed` if it raised.
        """
        job = Job(job_id, connection=self.redis, serializer=SERIALIZER)
        deadline = time.monotonic() + wait
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            # blocks at most 1 s at a time: within the client's socket timeout
            found = Result.fetch_latest(job, serializer=SERIALIZER,
                                        timeout=1 if remaining >= 1 else 0)
            if found is not None:
                if found.type == Result.Type.SUCCESSFUL:
                    return found.return_value
                lines = str(found.exc_string or "").strip().splitlines()
                raise JobFailed(lines[-1] if lines else "the job failed")
            if remaining < 1:
                time.sleep(min(remaining, 0.05))
        self._cancel(job_id)
        raise ResultTimeout(f"no result within {wait:g} s")

    def _cancel(self, job_id: str) -> None:
        try:
            job = Job.fetch(job_id, connection=self.redis, serializer=SERIALIZER)
            if job.get_status(refresh=False) == JobStatus.QUEUED:
                job.cancel()
        except NoSuchJobError:
            pass

    def close(self) -> None:
        self.redis.close()


def queue_urls(value: str) -> list[str]:
    """The shards' URLs of a ``QUEUE_URL`` value: one or more URLs separated by white space
    (a comma belongs to a Sentinel URL); :class:`QueueConfigError` for none or a cluster."""
    urls = value.split()
    if not urls:
        raise QueueConfigError("QUEUE_URL (default REDIS_URL) names no Redis")
    for url in urls:
        if url.partition("://")[0].lower().endswith("+cluster"):
            raise QueueConfigError("QUEUE_URL (default REDIS_URL) names a Redis Cluster; the "
                                   "task queue needs one server or a Sentinel primary per "
                                   "shard: set QUEUE_URL")
    return urls


class TaskQueue:
    """The queue as the service sees it: :class:`Shard`\\ s on one Redis each, a game's jobs,
    lease, awaiting and deadline entries all on its shard (:func:`shard_index`); hints and
    analyses go to any shard whose workers run, in turn."""

    def __init__(self, clients: redis.Redis | list[redis.Redis], advice_limit: int = 8) -> None:
        found = clients if isinstance(clients, list) else [clients]
        self.shards = [Shard(client, advice_limit) for client in found]
        self.advice_limit = advice_limit
        #: which parts of the worker tier are missing, per shard (:mod:`api.worker.tier`)
        self.tier = ShardsWatch([shard.tier for shard in self.shards])
        self._turn = itertools.count()

    @classmethod
    def from_url(cls, url: str, timeout: float, advice_limit: int = 8) -> TaskQueue:
        """The queue on the shards of ``url`` (:func:`queue_urls`; each any URL of
        :mod:`api.runtime.redis_connect` but a cluster)."""
        clients = [cast(redis.Redis, connect(u, socket_timeout=timeout,  # a server, a primary
                                             socket_connect_timeout=timeout,
                                             health_check_interval=30))
                   for u in queue_urls(url)]
        return cls(clients, advice_limit)

    def shard(self, game_id: str) -> Shard:
        """The shard of ``game_id``."""
        return self.shards[shard_index(game_id, len(self.shards))]

    # ------------------------------------------------------------------ a game's, on its shard

    def enqueue_move(self, game_id: str, version: int) -> None:
        self.shard(game_id).enqueue_move(game_id, version)

    def move_in_hand(self, game_id: str, version: int, *, recover: bool = False) -> bool:
        return self.shard(game_id).move_in_hand(game_id, version, recover=recover)

    def settled(self, game_id: str, asked_before: float) -> None:
        self.shard(game_id).settled(game_id, asked_before)

    def take_lease(self, game_id: str, version: int) -> None:
        self.shard(game_id).take_lease(game_id, version)

    def drop_lease(self, game_id: str) -> None:
        self.shard(game_id).drop_lease(game_id)

    def move_load(self, game_id: str) -> tuple[int, int]:
        """:meth:`Shard.move_load` of the game's shard."""
        return self.shard(game_id).move_load()

    def note_busy(self, game_id: str, seconds: int) -> None:
        """The workers of the game's shard cannot answer its replies in time."""
        self.shard(game_id).note_busy(seconds)

    def busy_for(self) -> int:
        """Seconds the busiest shard stays noted busy (a new game may land on any shard, so
        new games against the computers are refused while one is); a shard that cannot be
        asked counts as not busy: the others take new games, and one landing on it waits."""
        left = 0
        for shard in self.shards:
            try:
                left = max(left, shard.busy_for())
            except redis.RedisError:
                if len(self.shards) == 1:
                    raise
        return left

    def enqueue_at(self, when: datetime, func: str | Callable[..., Any], *args: Any,
                   job_id: str | None = None) -> str:
        """:meth:`Shard.enqueue_at` on the shard of the game ``args[0]`` (the clock's jobs
        name their game first)."""
        return self.shard(str(args[0])).enqueue_at(when, func, *args, job_id=job_id)

    def track_deadline(self, game_id: str, deadline: float) -> None:
        self.shard(game_id).track_deadline(game_id, deadline)

    def deadline_seen(self, game_id: str, noted: float, current: float | None) -> None:
        self.shard(game_id).deadline_seen(game_id, noted, current)

    def clock_in_hand(self, game_id: str, version: int) -> bool:
        return self.shard(game_id).clock_in_hand(game_id, version)

    # ------------------------------------------------------------------ advice, on any shard

    def submit_advice(self, func: str, *args: Any, timeout: int) -> str:
        """:meth:`Shard.submit_advice` on the next shard in turn whose workers run and that
        has room (the job id names the shard); :class:`QueueFull` when none has, the last
        Redis error when none can be asked."""
        first = next(self._turn)
        error: redis.RedisError | None = None
        for step in range(len(self.shards)):
            index = (first + step) % len(self.shards)
            if len(self.shards) > 1 and self.tier.shard_down(index):
                continue
            try:
                return self.shards[index].submit_advice(
                    func, *args, timeout=timeout, job_id=f"advice-{index}-{uuid.uuid4().hex}")
            except QueueFull:
                continue
            except redis.RedisError as exc:
                error = exc
        if error is not None:
            raise error
        raise QueueFull(self.advice_limit)

    def result(self, job_id: str, wait: float) -> Any:
        """:meth:`Shard.result` of ``job_id`` on the shard its id names."""
        index = int(job_id.split("-")[1]) if job_id.startswith("advice-") else 0
        return self.shards[index].result(job_id, wait)

    def close(self) -> None:
        for shard in self.shards:
            shard.close()
