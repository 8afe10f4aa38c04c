"""Running workers: RQ ``SimpleWorker``\\ s bound to the game store, as processes or threads.

``sixtysix worker`` (and ``sixtysix serve``) start :class:`WorkerPool`: ``processes`` worker
processes (``python -m api.worker.run``; default one per core) and one scheduler process
(``python -m api.worker.run --scheduler``: RQ's scheduler, which moves delayed jobs to their
queue when due; of it, the stand-by scheduler every worker process runs in a thread and those
of other pools, one holds RQ's lock and the others stand by: :mod:`api.worker.scheduler`),
each restarted when it dies, after a pause that doubles with every death from
:data:`RESTART_FIRST` up to ``SIXTYSIX_RESTART_MAX`` seconds (default :data:`RESTART_CAP`) and
falls back once a process has run :data:`RESTART_STABLE` seconds: a crash loop is paced, never
given up on, and never stops the web tier. Every process of the pool dies with its parent,
even a parent killed by SIGKILL (:func:`api.runtime.supervise.die_with_parent`). The
scheduler is a process of the pool, not a child of a worker (RQ's ``--with-scheduler``), so
a worker killed by SIGKILL leaves no orphan behind.
A process reads ``REDIS_URL`` (the games) and ``QUEUE_URL`` (the queue; default
``REDIS_URL``; several URLs: its shards, :class:`api.worker.queue.TaskQueue`, of which a
worker or scheduler process serves one, ``--shard N``, and the pool runs at least one worker
and one scheduler per shard); a worker takes moves before hints and analyses and every
:data:`SWEEP_INTERVAL` seconds sweeps the games whose computers were asked to move long ago
(a lease's time) for a move no worker holds or will run, and enqueues it again, and the
games whose clock's deadline passed :data:`CLOCK_LATE` seconds ago with no clock job that
will run (the job lost with its Redis keys, or failed), whose job it enqueues at once
(:func:`sweep_clocks`); at most :data:`SWEEP_LIMIT` games of each per sweep.

:class:`WorkerThreads` runs workers as threads of this process, without scheduler (the
in-process server of ``sixtysix play`` and the test fixtures). Every worker process (or
process of worker threads) and every scheduler beats (:mod:`api.worker.tier`), so the web
tier knows when either is missing.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from types import FrameType
from typing import Final, Self

import redis
from rq import SimpleWorker
from rq.job import Job
from rq.queue import Queue
from rq.timeouts import TimerDeathPenalty

from api.archive.store import Archive
from api.composition import compose
from api.config import DEFAULTS, from_env
from api.games.service import request_computers
from api.games.store import GameNotFound
from api.games.think import ThinkSettings
from api.live import clock
from api.runtime.redis_connect import connect, redact
from api.runtime.started import Started
from api.runtime.supervise import Backoff, SettingError, die_with_parent
from api.worker import jobs
from api.worker.deadline import Pace
from api.worker.priority import lower_priority
from api.worker.queue import LEASE_SECONDS, SERIALIZER, TaskQueue, queue_urls
from api.worker.scheduler import Scheduler, StandByScheduler
from api.worker.tier import SCHEDULER, WORKERS, Heartbeat

log = logging.getLogger(__name__)

#: Seconds between two sweeps of one worker process.
SWEEP_INTERVAL: Final = 5.0
#: Most games one sweep looks at, of those awaiting computers and of those past a deadline.
SWEEP_LIMIT: Final = 100
#: Seconds past its deadline after which a clock whose job neither waits nor runs is lost
#: (RQ's scheduler moves a due job within about a second).
CLOCK_LATE: Final = 3.0
#: Seconds before the first restart of a dead process of the pool (doubled after each death).
RESTART_FIRST: Final = 0.5
#: Longest pause before a restart, in seconds, unless SIXTYSIX_RESTART_MAX says other.
RESTART_CAP: Final = 30.0
#: Seconds a process must run for its next death to be paused RESTART_FIRST again.
RESTART_STABLE: Final = 60.0
#: Seconds a worker or scheduler whose loop ended on an error waits before working again.
RESTART_PAUSE: Final = 1.0
#: Seconds between two looks at the pool's processes.
POLL_INTERVAL: Final = 0.2
#: Seconds an idle worker blocks on the queue before it looks round (stop, maintenance).
IDLE_BLOCK: Final = 1


def restart_cap(env: Mapping[str, str]) -> float:
    """The longest pause before a restart: ``SIXTYSIX_RESTART_MAX`` seconds, else
    :data:`RESTART_CAP`; :class:`SettingError` if it is not a number of seconds."""
    raw = env.get("SIXTYSIX_RESTART_MAX", "").strip()
    if not raw:
        return RESTART_CAP
    try:
        cap = float(raw)
    except ValueError:
        cap = -1.0
    if not 0 < cap <= 3600:
        raise SettingError(f"SIXTYSIX_RESTART_MAX must be seconds (above 0, at most 3600); "
                         f"got {raw!r}")
    return cap


def queue_url(env: Mapping[str, str]) -> str:
    """``QUEUE_URL``, else ``REDIS_URL``, else the default Redis."""
    return (env.get("QUEUE_URL") or env.get("REDIS_URL") or DEFAULTS["REDIS_URL"]).strip()


def build_context(redis_url: str, queue: str,
                  timeout: float = DEFAULTS["SIXTYSIX_REDIS_TIMEOUT"],
                  game_ttl: int = DEFAULTS["SIXTYSIX_GAME_TTL"], database_url: str = "",
                  archive_grace: int = DEFAULTS["SIXTYSIX_ARCHIVE_GRACE"],
                  think: ThinkSettings | None = None, shard: int = 0) -> jobs.WorkerContext:
    """The worker's adapters on ``redis_url``, the task queue on ``queue`` and the archive at
    ``database_url`` (none: ``""``), built once by the composition root
    (:func:`api.composition.compose`); a game it saves lives ``game_ttl`` seconds, as one the
    web tier saves, and ``archive_grace`` seconds once archived; its computers think as
    ``think`` sets (default: the defaults of :mod:`api.games.think`); it serves the queue's
    shard ``shard``."""
    client = connect(redis_url, socket_timeout=timeout, socket_connect_timeout=timeout,
                     health_check_interval=30)
    tasks = TaskQueue.from_url(queue, timeout)
    archive = Archive.open(database_url, timeout) if database_url else None
    built = compose(client, tasks, game_ttl=game_ttl, settle_wait=timeout, archive=archive,
                    archive_grace=archive_grace)
    return jobs.WorkerContext(built.games, tasks, built.after_save, built.archiver,
                              Pace(think or ThinkSettings()), shard)


def _on_stop_signals(stopped: threading.Event,
                     request_stop: Callable[[int, FrameType | None], None]) -> None:
    """SIGINT and SIGTERM set ``stopped`` and call RQ's ``request_stop``."""
    def stop(signum: int, frame: FrameType | None) -> None:
        stopped.set()
        request_stop(signum, frame)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


class GameWorker(SimpleWorker):
    """An RQ worker that binds its :class:`~api.worker.jobs.WorkerContext` for each job;
    SIGINT and SIGTERM set its ``stop`` event (and ask RQ to stop after the job)."""

    context: jobs.WorkerContext
    stop: threading.Event

    def _install_signal_handlers(self) -> None:
        _on_stop_signals(self.stop, self.request_stop)

    def execute_job(self, job: Job, queue: Queue) -> None:
        jobs.bind(self.context)
        super().execute_job(job, queue)

    def dequeue_job_and_maintain_ttl(self, timeout: int | None, max_idle_time: int | None = None
                                     ) -> tuple[Job, Queue] | None:
        """RQ's dequeue, looking at the stop event every :data:`IDLE_BLOCK` seconds
        (``None`` once it is set: the work loop then ends; it may have been set by a signal
        that came before RQ's handlers were installed)."""
        while not self.stop.is_set():
            found: tuple[Job, Queue] | None = super().dequeue_job_and_maintain_ttl(
                timeout, IDLE_BLOCK)
            if found is not None:
                return found
        return None


class ThreadWorker(GameWorker):
    """A :class:`GameWorker` that runs in a thread: no signal handlers, timer timeouts."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:
        """Signals belong to the main thread; :meth:`WorkerThreads.stop` stops it."""


def make_worker(ctx: jobs.WorkerContext, stop: threading.Event,
                cls: type[GameWorker] = GameWorker) -> GameWorker:
    # RQ blocks worker_ttl - 15 s on an empty queue
    worker = cls([ctx.own.moves, ctx.own.advice], connection=ctx.own.redis,
                 serializer=SERIALIZER, worker_ttl=IDLE_BLOCK + 15)
    worker.context = ctx
    worker.stop = stop
    return worker


def work_until(ctx: jobs.WorkerContext, stop: threading.Event,
               cls: type[GameWorker] = GameWorker) -> None:
    """Run workers until ``stop`` is set. RQ's loop ends on an error it does not retry (a
    Redis timeout, a full or read-only Redis), and a worker cannot start while Redis is away:
    then a new worker starts after :data:`RESTART_PAUSE` seconds, in this process, rather
    than the process dying and counting against the pool."""
    while not stop.is_set():
        try:
            make_worker(ctx, stop, cls).work(logging_level="WARNING")
        except redis.RedisError as exc:
            log.warning("worker could not start (%s)", type(exc).__name__)
        if not stop.is_set():
            log.warning("the worker loop ended; working again in %.0f s", RESTART_PAUSE)
            stop.wait(RESTART_PAUSE)


def sweep(ctx: jobs.WorkerContext) -> int:
    """Enqueue again the moves of games asked long ago that no worker holds or will run;
    forget the games that wait for a human. The number enqueued (a job a killed worker took
    but never started is put back in its queue: logged, not counted)."""
    enqueued = 0
    started = time.time()
    for game_id in ctx.own.awaiting(older_than=LEASE_SECONDS, limit=SWEEP_LIMIT):
        try:
            game = ctx.store.load(game_id)
        except GameNotFound:
            ctx.queue.settled(game_id, started)
            continue
        if ctx.queue.move_in_hand(game_id, game.version, recover=True):
            continue
        if request_computers(ctx.queue, game):
            log.warning("game %s waited for a computer with no job: enqueued again", game_id)
            enqueued += 1
        else:
            ctx.queue.settled(game_id, started)
    return enqueued


def sweep_clocks(ctx: jobs.WorkerContext, late: float = CLOCK_LATE,
                 limit: int = SWEEP_LIMIT) -> int:
    """Find the clocks whose job was lost: of the games whose noted deadline passed more
    than ``late`` seconds ago (at most ``limit``, earliest first), enqueue the clock job at
    once for those still at that deadline with no clock job that will run; note the deadline
    a game has moved on to, and forget the games without one. The number enqueued."""
    enqueued = 0
    for game_id, noted in ctx.own.overdue(late, limit):
        try:
            game = ctx.store.load(game_id)
        except GameNotFound:
            ctx.queue.deadline_seen(game_id, noted, None)
            continue
        timing = game.meta.get("clock")
        deadline = None if timing is None else timing["deadline"]
        if deadline is None or deadline + late > time.time():  # none now, or not yet late
            ctx.queue.deadline_seen(game_id, noted, deadline)
            continue
        if ctx.queue.clock_in_hand(game_id, game.version):
            continue
        log.warning("game %s: its clock ran out with no job to apply it: enqueued", game_id)
        clock.schedule(ctx.queue, game_id, game.version, game.meta, now=True, tag=clock.SWEPT)
        enqueued += 1
    return enqueued


def archive_finished(ctx: jobs.WorkerContext) -> int:
    """Archive the finished games noted for it, and now and then note those never noted
    (:meth:`api.archive.sweep.Archiver.sweep`); the number written (0 without an archive)."""
    return 0 if ctx.archiver is None else ctx.archiver.sweep()


def store_standings(ctx: jobs.WorkerContext) -> int:
    """Write the ratings', leaderboard's, tour's and tables' outboxes to the archive's
    database (:meth:`api.archive.sweep.Archiver.store_standings`); the entries written (0
    without one)."""
    return 0 if ctx.archiver is None else ctx.archiver.store_standings()


def sweep_once(ctx: jobs.WorkerContext) -> None:
    """One sweep of a worker process: every task of it once (``tests/bench/bench_storage.py``
    runs them on its own clock)."""
    for task in (sweep, sweep_clocks, archive_finished, store_standings):
        try:
            task(ctx)
        except Exception:  # a Redis outage or a bug: log it, sweep again later
            log.exception("%s failed", task.__name__)


def _sweeper(ctx: jobs.WorkerContext, stop: threading.Event) -> None:
    while not stop.wait(SWEEP_INTERVAL):
        sweep_once(ctx)


def main(argv: list[str] | None = None) -> None:
    """One worker process (``python -m api.worker.run``), or with ``--scheduler`` the
    scheduler, of the queue's shard ``--shard N`` (default 0): work until SIGTERM or SIGINT.
    It reads the web tier's configuration (:func:`api.config.from_env`: ``REDIS_URL``,
    ``SIXTYSIX_REDIS_TIMEOUT``, ``SIXTYSIX_GAME_TTL``)."""
    args = sys.argv[1:] if argv is None else argv
    logging.basicConfig(level=os.environ.get("SIXTYSIX_LOG_LEVEL", "info").upper(),
                        format="%(asctime)s worker[%(process)d] %(levelname)s %(message)s")
    settings = from_env(os.environ)
    timeout = float(settings["SIXTYSIX_REDIS_TIMEOUT"])
    scheduler = "--scheduler" in args
    shard = int(args[args.index("--shard") + 1]) if "--shard" in args else 0
    stop = threading.Event()  # set by SIGINT or SIGTERM from here on, RQ's handlers or not
    _on_stop_signals(stop, lambda signum, frame: None)
    if not scheduler:  # the scheduler keeps the normal priority: clocks are due
        _lower_priority()
    ctx = build_context(settings["REDIS_URL"], queue_url(os.environ), timeout,
                        settings["SIXTYSIX_GAME_TTL"], settings["DATABASE_URL"],
                        settings["SIXTYSIX_ARCHIVE_GRACE"], ThinkSettings.from_settings(settings),
                        shard)
    if scheduler:
        with Heartbeat(ctx.own.redis, SCHEDULER):
            _schedule(ctx, stop)
        return
    threading.Thread(target=_sweeper, args=(ctx, stop), name="sixtysix-sweep",
                     daemon=True).start()
    threading.Thread(target=_schedule, args=(ctx, stop, StandByScheduler),
                     name="sixtysix-scheduler", daemon=True).start()
    try:
        with Heartbeat(ctx.own.redis, WORKERS):
            work_until(ctx, stop)
    finally:
        stop.set()


def _lower_priority() -> None:
    """The web tier's requests and Redis run first (:mod:`api.worker.priority`); set before
    any thread starts (Linux keeps a policy per thread; new threads inherit it)."""
    found = lower_priority(os.environ)
    if found.fallback:
        log.warning("worker at %s, nice %d: %s", found.policy, found.nice, found.fallback)
    else:
        log.info("worker at %s, nice %d", found.policy, found.nice)


def _schedule(ctx: jobs.WorkerContext, stopped: threading.Event,
              cls: type[Scheduler] = Scheduler) -> None:
    """Run a scheduler (``cls``: in a worker process, a stand-by) until ``stopped`` is set
    (SIGTERM or SIGINT); a Redis error pauses it, it never ends it."""
    while not stopped.is_set():
        scheduler = cls([ctx.own.moves, ctx.own.advice], connection=ctx.own.redis,
                              logging_level="WARNING", serializer=SERIALIZER)
        scheduler.stopped = stopped
        try:
            scheduler.work()  # type: ignore[no-untyped-call]
            return  # stopped by a signal
        except redis.RedisError as exc:
            log.warning("scheduler lost Redis (%s); again in %.0f s", type(exc).__name__,
                        RESTART_PAUSE)
            stopped.wait(RESTART_PAUSE)


class WorkerPool(Started):
    """``processes`` worker processes and (with ``scheduler``) a scheduler process, all with
    ``env``; :meth:`check` restarts the dead ones, each after its :class:`Backoff` pause.
    :attr:`children` lists the workers first."""

    def __init__(self, processes: int, env: Mapping[str, str], say: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic, scheduler: bool = True) -> None:
        self.env = dict(env)
        self.say = say
        self.clock = clock
        shards = len(queue_urls(queue_url(self.env)))
        processes = max(processes, shards)  # every shard has a worker
        run = [sys.executable, "-m", "api.worker.run"]
        self.commands = [[*run, "--shard", str(i % shards)] for i in range(processes)] + (
            [[*run, "--scheduler", "--shard", str(i)] for i in range(shards)] if scheduler
            else [])
        self.names = ["worker"] * processes + ["scheduler"] * (shards if scheduler else 0)
        cap = restart_cap(self.env)
        self.backoffs = [Backoff(RESTART_FIRST, cap, RESTART_STABLE) for _ in self.commands]
        self.children: list[subprocess.Popen[bytes] | None] = []
        self.started = [0.0] * len(self.commands)
        #: when each dead process is to start again (``None``: it runs)
        self.due: list[float | None] = [None] * len(self.commands)

    def start(self) -> Self:
        self.children = [self._spawn(i) for i in range(len(self.commands))]
        return self

    def _spawn(self, i: int) -> subprocess.Popen[bytes]:
        self.started[i], self.due[i] = self.clock(), None
        # deaf to SIGINT until main() listens: a Ctrl-C reaches the terminal's whole group,
        # and one that came while the process still imported was a KeyboardInterrupt's
        # traceback; the pool stops it with SIGTERM all the same
        return subprocess.Popen(self.commands[i], env=self.env,
                                preexec_fn=die_with_parent(deaf_to_interrupt=True))

    def check(self) -> None:
        """Note the processes that died and start again those whose pause is over."""
        now = self.clock()
        for i, child in enumerate(self.children):
            if child is None:
                due = self.due[i]
                if due is not None and now >= due:
                    self.children[i] = self._spawn(i)
                continue
            status = child.poll()
            if status is None:
                continue
            pause = self.backoffs[i].died(now - self.started[i])
            self.say(f"{self.names[i]} process {child.pid} exited with status {status}; "
                     f"restarting it in {pause:g} s")
            self.children[i], self.due[i] = None, now + pause

    def running(self) -> list[subprocess.Popen[bytes]]:
        """The processes that run (not those dead or waiting out their pause)."""
        return [c for c in self.children if c is not None and c.poll() is None]

    def signal(self, signum: int) -> None:
        for child in self.running():
            child.send_signal(signum)

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM every worker (each finishes its job), SIGKILL those still alive after
        ``timeout`` seconds."""
        children = self.running()
        self.children = []
        for child in children:
            child.terminate()
        deadline = time.monotonic() + timeout
        for child in children:
            try:
                child.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def run_pool(processes: int, env: Mapping[str, str], say: Callable[[str], None]) -> int:
    """``sixtysix worker``: run a supervised pool until SIGINT or SIGTERM (passed on to the
    workers, which finish their jobs); 0."""
    stopping = threading.Event()

    def forward(signum: int, frame: FrameType | None) -> None:
        stopping.set()
        pool.signal(signum)

    pool = WorkerPool(processes, env, say).start()
    urls = queue_urls(queue_url(env))
    workers = max(processes, len(urls))
    say(f"{workers} worker process{'es' if workers > 1 else ''} on the queue at "
        f"{' '.join(redact(u) for u in urls)}; press Ctrl-C to stop")
    previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not stopping.wait(POLL_INTERVAL):
            pool.check()
        return 0
    finally:
        pool.stop()
        for signum, handler in previous.items():
            signal.signal(signum, handler)


class WorkerThreads(Started):
    """``count`` workers as daemon threads of this process on ``redis_url`` (the games) and
    ``queue`` (the task queue; default ``redis_url``), saving games for ``game_ttl`` seconds,
    thinking as ``think`` sets (default: the environment's settings, :mod:`api.games.think`);
    worker ``i`` serves shard ``i`` modulo the shards, and every shard has one at least."""

    def __init__(self, redis_url: str, queue: str | None = None, count: int = 1,
                 game_ttl: int = DEFAULTS["SIXTYSIX_GAME_TTL"],
                 think: ThinkSettings | None = None) -> None:
        self.redis_url = redis_url
        self.queue = queue or redis_url
        self.count = count
        self.game_ttl = game_ttl
        self.think = think or ThinkSettings.from_settings(from_env(os.environ))
        self._stop = threading.Event()
        self._contexts: list[jobs.WorkerContext] = []
        self._threads: list[threading.Thread] = []
        self._beats: list[Heartbeat] = []

    def start(self) -> Self:
        self._stop.clear()
        shards = len(queue_urls(self.queue))
        for i in range(max(self.count, shards)):
            # connects lazily: never fails
            ctx = build_context(self.redis_url, self.queue, game_ttl=self.game_ttl,
                                think=self.think, shard=i % shards)
            thread = threading.Thread(target=work_until, args=(ctx, self._stop, ThreadWorker),
                                      daemon=True, name=f"sixtysix-worker-{i}")
            thread.start()
            self._contexts.append(ctx)
            self._threads.append(thread)
        self._beats = [Heartbeat(ctx.own.redis, WORKERS).start()
                       for ctx in self._contexts[:shards]]
        return self

    def stop(self) -> None:
        """Stop the workers after their current job (within about a second when idle)."""
        self._stop.set()
        for beat in self._beats:
            beat.stop()
        self._beats = []
        for thread in self._threads:
            thread.join(timeout=30)
        for ctx in self._contexts:
            ctx.queue.close()
            ctx.store.redis.close()
        self._contexts, self._threads = [], []


if __name__ == "__main__":
    main()
