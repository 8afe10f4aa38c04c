"""``sixtysix serve``: gunicorn (``deploy/gunicorn.conf.py``), the worker processes of the
computers (:class:`api.worker.run.WorkerPool`, default one per core, on ``QUEUE_URL`` or the
same Redis) and, without ``REDIS_URL``, an embedded ``redis-server``; all supervised.

Before anything starts, the listening socket is bound here and handed to gunicorn by file
descriptor (``fd://``), so no other process can take the port in between: a port in use is
one line naming ``--port`` and exit status 1; ``--port 0`` binds a free port, which the
``API on`` line names. The embedded Redis keeps its append-only file in the data directory and is
capped at ``maxmemory`` with ``noeviction`` (a full store refuses writes; games are never
evicted). When it dies it is restarted on the same port and data directory (it reloads its
append-only file; ``/readyz`` answers 503 meanwhile); after :data:`MAX_DEATHS` deaths within
:data:`DEATH_WINDOW` seconds the whole server is stopped with exit status 1. A dead worker
process is restarted after a pause that grows with its deaths (:class:`api.worker.run.WorkerPool`):
the worker tier never stops the web tier, which answers meanwhile (games between humans go on,
computer seats wait). Every child (gunicorn, Redis, the workers) dies with this process, even
when it is killed by SIGKILL. A stop (SIGINT, SIGTERM) ends the open event streams at once
(clients resume with ``Last-Event-ID``) and ends with the line ``stopped``.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Final

from api.runtime.redis_server import EmbeddedRedis, RedisServerError
from api.runtime.supervise import DeathWindow, SettingError, die_with_parent
from api.runtime.warmup import READY_FD, Warmup
from engine.numerals import parse_natural

if TYPE_CHECKING:
    from api.worker.run import WorkerPool

GUNICORN_CONF = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8066
#: The embedded Redis' memory cap (Redis notation) unless SIXTYSIX_REDIS_MAXMEMORY says other.
DEFAULT_REDIS_MAXMEMORY = "256mb"
#: This many deaths of the embedded Redis within DEATH_WINDOW seconds stop the server.
MAX_DEATHS = 3
DEATH_WINDOW = 60.0
#: Seconds between two looks at gunicorn and Redis.
POLL_INTERVAL = 0.2
#: Connections waiting to be accepted (gunicorn's default backlog).
BACKLOG = 2048

Say = Callable[[str], None]


class ServeError(Exception):
    """``sixtysix serve`` cannot start: the message is the one line to show."""


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """What ``sixtysix serve`` was asked for; ``None`` takes the environment's or default."""

    host: str | None
    port: int | None
    workers: int | None
    #: the embedded Redis' data (``None``: ``SIXTYSIX_DATA_DIR``, else :data:`DEFAULT_DATA_DIR`)
    data_dir: Path | None
    redis_maxmemory: str
    #: worker processes of the computers (``None``: one per core; 0: none, they run elsewhere)
    computer_workers: int | None = None
    #: the app's log lines, ``text`` or ``json`` (``None``: ``SIXTYSIX_LOG_FORMAT``, else
    #: :data:`DEFAULT_LOG_FORMAT`)
    log_format: str | None = None


#: The app's log lines on serve's console unless ``--log-format`` or ``SIXTYSIX_LOG_FORMAT``
#: say other: readable, one per request (``json`` is the app's own default, for log
#: collectors; :mod:`api.http.observability`).
DEFAULT_LOG_FORMAT: Final = "text"
#: Where the embedded Redis keeps its data when neither ``--data`` nor ``SIXTYSIX_DATA_DIR``
#: says: relative, so under the working directory of the start (the start line says it in full).
DEFAULT_DATA_DIR: Final = Path("var")
#: The archive's SQLite file in the data directory, without ``DATABASE_URL``.
ARCHIVE_FILE: Final = "archive.sqlite3"


def data_path(given: Path | None, env: Mapping[str, str]) -> Path:
    """The absolute data directory: ``given`` (``--data``), else ``SIXTYSIX_DATA_DIR``, else
    :data:`DEFAULT_DATA_DIR`; a relative one is taken from the working directory."""
    chosen = given if given is not None else Path(env.get("SIXTYSIX_DATA_DIR") or DEFAULT_DATA_DIR)
    return chosen.expanduser().resolve()


def archive_url(data: Path) -> str:
    """The SQLite archive (``DATABASE_URL``) in the data directory ``data`` (made if missing)."""
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data / ARCHIVE_FILE}"


def migrate(url: str, say: Say) -> bool:
    """Bring the archive at ``url`` to its schema's head once, before the processes that open
    it start at once (each would migrate a new SQLite file, and all but one fail); whether it
    was reached. A SQLite file that cannot be migrated is a :class:`ServeError`; a database
    server that cannot be reached is said, and the processes start all the same (they migrate
    it once it answers; finished games wait in Redis meanwhile; the data of the Redis-only
    layout then waits for ``sixtysix admin migrate``)."""
    from sqlalchemy.exc import SQLAlchemyError  # SQLAlchemy and Alembic: only when serving

    from api.archive.engine import open_engine
    from api.archive.migrations import upgrade

    try:
        engine = open_engine(url)
        try:
            upgrade(engine)
        finally:
            engine.dispose()
    except SQLAlchemyError as exc:
        reason = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
        if not url.startswith("sqlite"):
            say(f"the archive's database (DATABASE_URL) cannot be reached: {reason}; serving "
                "without it until it answers (then run sixtysix admin migrate once)")
            return False
        raise ServeError(f"the archive's database (DATABASE_URL) cannot be migrated: "
                         f"{reason}") from None
    return True


def move_data(env: dict[str, str], say: Say) -> None:
    """Move what the Redis-only layout kept into the database, once
    (:mod:`api.admin.migrate`; idempotent); :class:`ServeError` if it cannot run."""
    from redis import RedisError  # the app's modules: only when serving
    from sqlalchemy.exc import SQLAlchemyError

    from api.admin.migrate import migrate_env
    from api.errors import DomainError

    try:
        migrate_env(env, say)
    except (RedisError, SQLAlchemyError, DomainError) as exc:
        raise ServeError(f"the data could not be moved into the database: "
                         f"{type(exc).__name__}: {str(exc).splitlines()[0]}") from None


def data_line(path: Path) -> str:
    """How the start line names the data: its full path, and whether it held any before (a
    start elsewhere than the last one shows as new)."""
    fresh = not path.is_dir() or not any(path.iterdir())
    return f"data in {path}{' (new: empty)' if fresh else ''}"


def say_stderr(line: str) -> None:
    print(f"sixtysix: {line}", file=sys.stderr, flush=True)


def split_bind(bind: str) -> tuple[str, int] | None:
    """``host:port`` (``[::1]:8066`` for IPv6) as a pair; ``None`` for a ``unix:`` socket."""
    if bind.startswith("unix:"):
        return None
    host, sep, port_text = bind.rpartition(":")
    port = parse_natural(port_text, 5)
    if not sep or port is None:
        raise ServeError(f"SIXTYSIX_BIND {bind!r} is not host:port")
    return host.strip("[]") or "0.0.0.0", port


def listen(host: str, port: int) -> socket.socket:
    """The listening socket of ``host:port`` (``port`` 0: a free port the system picks),
    bound here and handed to gunicorn (``fd://``), so that no other process can take the
    port between a check and gunicorn's bind; :class:`ServeError` with one line if it cannot
    be bound (a port in use names ``--port``)."""
    if not 0 <= port <= 65535:
        raise ServeError(f"port {port} is not a port (0 to 65535; 0: a free one); "
                         "choose another with --port")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ServeError(f"cannot resolve host {host!r}: {exc.strerror}; "
                         "choose another with --host") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} on {host} is in use; "
                             "choose another with --port") from None
        raise ServeError(f"cannot listen on port {port} of {host}: {exc.strerror}; "
                         "choose another with --port or --host") from None
    sock.set_inheritable(True)
    return sock


def where(host: str, port: int) -> str:
    """The line saying where the API, its docs and the web client are, and how to stop it."""
    wildcard = host in ("0.0.0.0", "::")
    shown = ("127.0.0.1" if host == "0.0.0.0" else "::1") if wildcard else host
    base = f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"
    extra = " (listening on all interfaces)" if wildcard else ""
    return (f"API on {base}{extra}; docs on {base}/docs and {base}/redoc; "
            f"play in the browser on {base}/play; press Ctrl-C to stop")


class RedisSupervisor:
    """Restarts a dead embedded Redis; gives up after :data:`MAX_DEATHS` in the window."""

    def __init__(self, redis: EmbeddedRedis, say: Say, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.redis = redis
        self.say = say
        self.deaths = DeathWindow(DEATH_WINDOW, clock)

    def check(self) -> bool:
        """Restart Redis if it has died; ``False`` when it died too often (or cannot start)."""
        if self.redis.running:
            return True
        status = self.redis.returncode
        if (deaths := self.deaths.died()) >= MAX_DEATHS:
            self.say(f"embedded redis-server died {deaths} times within "
                     f"{DEATH_WINDOW:g} s (last exit status {status}); stopping the server")
            return False
        self.say(f"embedded redis-server exited with status {status}; restarting it on "
                 f"port {self.redis.port} from its append-only file")
        try:
            self.redis.restart()
        except RedisServerError as exc:
            self.say(f"embedded redis-server did not restart: {exc}; stopping the server")
            return False
        self.say(f"embedded redis-server is back at {self.redis.url}")
        return True


def serve(options: ServeOptions, say: Say = say_stderr) -> int:
    """Run gunicorn until it exits or this process gets SIGINT/SIGTERM; its exit status, or 1
    when the address is unusable or the embedded Redis cannot be kept running.

    Until a gunicorn worker has loaded the app, :class:`api.runtime.warmup.Warmup` answers
    the port with 503 ``starting``; the worker processes of the computers start once one has
    (their imports took the CPU the web workers' start needed).
    """
    began = time.monotonic()
    env = dict(os.environ)
    if options.host or options.port is not None:
        port = DEFAULT_PORT if options.port is None else options.port
        env["SIXTYSIX_BIND"] = f"{options.host or DEFAULT_HOST}:{port}"
    if options.workers:
        env["WEB_CONCURRENCY"] = str(options.workers)
    env["SIXTYSIX_LOG_FORMAT"] = (options.log_format or env.get("SIXTYSIX_LOG_FORMAT", "").strip()
                                  or DEFAULT_LOG_FORMAT)
    pass_fds: tuple[int, ...] = ()
    try:
        address = split_bind(env.get("SIXTYSIX_BIND", f"{DEFAULT_HOST}:{DEFAULT_PORT}"))
        with ExitStack() as stack:
            warmup = None
            if address is not None:  # bound first: nothing starts on a port in use
                sock = stack.enter_context(listen(*address))
                address = (address[0], sock.getsockname()[1])  # port 0: the one picked
                env["SIXTYSIX_BIND"] = f"fd://{sock.fileno()}"
                ready, told = os.pipe()
                stack.callback(os.close, ready)
                os.set_blocking(told, False)  # a worker never waits on it
                env[READY_FD] = str(told)
                pass_fds = (sock.fileno(), told)
                warmup = stack.enter_context(Warmup(sock, ready, say, began))
            supervisor = None
            if not env.get("REDIS_URL"):
                data = data_path(options.data_dir, env)
                stored = data_line(data)
                redis = EmbeddedRedis(data, appendonly=True, maxmemory=options.redis_maxmemory)
                stack.enter_context(redis)
                env["REDIS_URL"] = redis.url
                say(f"embedded redis-server at {redis.url}, {stored}, "
                    f"maxmemory {options.redis_maxmemory} (noeviction)")
                supervisor = RedisSupervisor(redis, say)
            if not env.get("DATABASE_URL"):
                env["DATABASE_URL"] = archive_url(data_path(options.data_dir, env))
                say(f"archive of finished games: {env['DATABASE_URL']}")
            if migrate(env["DATABASE_URL"], say):
                move_data(env, say)
            if not env.get("PROMETHEUS_MULTIPROC_DIR"):  # shared by gunicorn and workers
                metrics_dir = tempfile.mkdtemp(prefix="sixtysix-metrics-")
                stack.callback(shutil.rmtree, metrics_dir, ignore_errors=True)
                env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
            count = default_workers() if options.computer_workers is None else (
                options.computer_workers)

            def start_pool() -> WorkerPool:
                from api.worker.run import WorkerPool  # rq and the app: not before gunicorn

                pool = stack.enter_context(WorkerPool(count, env, say))
                say(f"{count} worker process{'es' if count > 1 else ''} for the computers")
                return pool

            say(where(*address) if address else f"API on {env['SIXTYSIX_BIND']}; "
                "press Ctrl-C to stop")
            status = run_gunicorn(env, supervisor, pass_fds,
                                  LateStart(start_pool, warmup) if count else None)
        say(f"stopped (exit status {status})")
        return status
    except (ServeError, RedisServerError, SettingError) as exc:
        say(str(exc))
        return 1
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass
class LateStart:
    """The worker pool, started by :meth:`poll` once ``warmup`` has seen gunicorn ready
    (at once without one: gunicorn binds a ``unix:`` socket itself)."""

    start: Callable[[], WorkerPool]
    warmup: Warmup | None
    pool: WorkerPool | None = None

    def poll(self) -> WorkerPool | None:
        """The pool, started now if it is time; ``None`` before."""
        if self.pool is None and (self.warmup is None or self.warmup.done.is_set()):
            self.pool = self.start()
        return self.pool


def default_workers() -> int:
    """Worker processes by default: ``SIXTYSIX_WORKERS``, else one per core."""
    raw = os.environ.get("SIXTYSIX_WORKERS", "").strip()
    if raw:
        if (workers := parse_natural(raw)) is None:
            raise ServeError(f"SIXTYSIX_WORKERS must be a whole number; got {raw!r}")
        return workers
    return os.cpu_count() or 1


def run_gunicorn(env: dict[str, str], supervisor: RedisSupervisor | None,
                 pass_fds: tuple[int, ...] = (), workers: LateStart | None = None) -> int:
    """Run gunicorn as a child (``pass_fds``: its listening socket, named in
    ``SIXTYSIX_BIND`` as ``fd://N``, and the write end of the readiness pipe, closed here once
    gunicorn has it), passing SIGINT and SIGTERM on to it (and to the worker processes), and
    wait for it while the supervisor keeps Redis up and the pool its workers (started when
    ``workers`` says); stop gunicorn (status 1) when the supervisor gives up on Redis.
    """
    cmd = [sys.executable, "-m", "gunicorn", "--config", str(GUNICORN_CONF)]
    child = subprocess.Popen(cmd, env=env, pass_fds=pass_fds, preexec_fn=die_with_parent())
    if READY_FD in env:
        os.close(int(env[READY_FD]))  # gunicorn's workers hold it now
    stopping = False

    def forward(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        child.send_signal(signum)
        if workers is not None and workers.pool is not None:
            workers.pool.signal(signum)

    previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        while True:
            try:
                return child.wait(POLL_INTERVAL)
            except subprocess.TimeoutExpired:
                pass
            if stopping:
                continue
            if supervisor is not None and not supervisor.check():
                child.terminate()
                child.wait()
                return 1
            pool = workers.poll() if workers is not None else None
            if pool is not None:
                pool.check()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
