"""Gunicorn settings for the Sixty-Six API: ``gunicorn -c deploy/gunicorn.conf.py``.

Environment: ``SIXTYSIX_BIND`` (default ``127.0.0.1:8066``), ``WEB_CONCURRENCY`` (workers),
``SIXTYSIX_WORKER_CLASS`` (``gevent``, the default, or ``gthread``),
``SIXTYSIX_WORKER_CONNECTIONS`` (open connections per gevent worker),
``SIXTYSIX_THREADS`` (threads per gthread worker), ``SIXTYSIX_READ_TIMEOUT`` (seconds a
gevent worker's connection may stall, its request's head or body; then 408 or closed),
``SIXTYSIX_GRACEFUL_TIMEOUT`` (seconds a stop waits for running requests),
``SIXTYSIX_ACCESS_LOG`` (a path or ``-``;
off by default so that no tokens end up in logs), ``SIXTYSIX_CONTROL_SOCKET`` (the path of
gunicorn's control socket for ``gunicornc``; off by default).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings

from api.runtime.gunicorn_worker import read_timeout
from api.runtime.warmup import note_ready
from engine.numerals import parse_natural


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if (number := parse_natural(raw)) is None:
        raise ValueError(f"{name} must be a whole number; got {raw!r}")
    return number


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # respects CPU pinning in containers
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


wsgi_app = "api.app:create_app()"
bind = os.environ.get("SIXTYSIX_BIND", "127.0.0.1:8066")

# A request is CPU-bound Python, so workers beyond the cores only add context switches and
# spread the keep-alive connections more unevenly: one per core plus one (which keeps a core
# busy while another worker waits on Redis or runs a long computer move). Measured with
# ``python -m tests.bench.bench_http`` on 2 cores, 32 connections: server CPU per action 2.6-3.0 ms
# with 3 workers against 3.3-3.9 ms with 5.
workers = _env_int("WEB_CONCURRENCY", min(_cores() + 1, 9))

# gevent: an open event stream or a waiting long-poll holds a greenlet, not a thread, so a
# worker holds thousands (``python -m tests.bench.bench_streams`` measured it; see docs). gthread
# bounds them by workers x threads (a waiting request holds a thread) and stays available.
# gevent never preempts: a request computing for long (a computer's search in the web tier)
# stalls every other request of its worker meanwhile; searches belong to the worker tier.
_WORKER_CLASSES = {"gevent": "api.runtime.gunicorn_gevent.ProblemGeventWorker",
                   "gthread": "api.runtime.gunicorn_worker.ProblemWorker"}
_kind = os.environ.get("SIXTYSIX_WORKER_CLASS", "").strip() or "gevent"
if _kind not in _WORKER_CLASSES:
    raise SystemExit(f"SIXTYSIX_WORKER_CLASS must be gevent or gthread; got {_kind!r}")
worker_class = _WORKER_CLASSES[_kind]  # both with problem+json error pages
worker_connections = _env_int("SIXTYSIX_WORKER_CONNECTIONS", 4096)  # gevent only
try:  # read by each gevent worker (api.runtime.gunicorn_gevent); checked here, once
    read_timeout()
except ValueError as _exc:
    raise SystemExit(str(_exc)) from None
threads = _env_int("SIXTYSIX_THREADS", 8)  # gthread only

timeout = 60  # long-polls wait up to 30 s
# On a stop the workers end their streams and long-polls at once (api.runtime.gunicorn_worker);
# this bounds the wait for the other running requests (a computer's move waited for).
graceful_timeout = _env_int("SIXTYSIX_GRACEFUL_TIMEOUT", 35)
keepalive = 5
# Worker heartbeat files in memory: works on a read-only root filesystem and never stalls on disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# gunicorn 25.1+ opens a control socket for ``gunicornc``, by default one path per user
# ($XDG_RUNTIME_DIR/gunicorn.ctl, else ~/.gunicorn/gunicorn.ctl): every server of the user
# shared it, the last one started took it over, and nothing here uses it. Off unless a path
# of this server's own is given.
_control = os.environ.get("SIXTYSIX_CONTROL_SOCKET", "").strip()
control_socket_disable = not _control
if _control:
    control_socket = _control

accesslog: str | None = os.environ.get("SIXTYSIX_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("SIXTYSIX_LOG_LEVEL", "info")

# /metrics sums all workers (prometheus-client multiprocess mode): a fresh directory per run,
# set before any worker imports prometheus_client, removed on exit if made here.
_METRICS_DIR_MADE = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _METRICS_DIR_MADE:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(
        prefix="sixtysix-metrics-", dir=worker_tmp_dir)


def on_starting(server: object) -> None:
    """In the master, before it forks a worker: import the app's modules once, to be shared by
    every worker (each took a second of CPU importing them, all at once at a start, and the
    server was ready only when the first had). Under gevent the master is monkey-patched
    first, so that nothing of the app (redis-py) is imported unpatched; the app itself is made
    in each worker (``wsgi_app``: its Redis pool, its threads), after the worker's own patch."""
    if _kind == "gevent":
        from gevent import monkey  # type: ignore[import-untyped]  # no stubs

        # not os, signal, subprocess: with them gevent reaped the children itself and the
        # master noticed a dead worker only at its next signal (the workers patch them too)
        monkey.patch_all(os=False, signal=False, subprocess=False)
        # the workers' own patch_all() (gunicorn's) then warns that it patches more
        warnings.filterwarnings("ignore", "Patching more than once",
                                monkey.MonkeyPatchWarning)
    import api.app  # noqa: F401


def post_worker_init(worker: object) -> None:
    """The worker has loaded the app: ``sixtysix serve`` stops answering 503 ``starting``."""
    note_ready()


def on_exit(server: object) -> None:
    if _METRICS_DIR_MADE:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
