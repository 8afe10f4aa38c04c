"""A real ``sixtysix serve`` (gunicorn with deploy/gunicorn.conf.py) for the tests that need one:
on a given Redis (:func:`sixtysix_serve`), or with its embedded one (:func:`launch`)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

from api.runtime.redis_server import HOST
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]
#: Seconds to wait at most to see a change (a bound, not a performance limit: once, on a
#: 2-core machine loaded by other test runs, a restart was not seen within 30 s).
PATIENCE = 90.0

START_ATTEMPTS = 300  # 0.1 s apart: a bound on start-up, not a performance figure


@contextmanager
def sixtysix_serve(redis_url: str, log: Path, **env: str) -> Iterator[int]:
    """``sixtysix serve --port 0 --workers 1`` on ``redis_url`` with ``env`` added (rate
    limits and request logs off), up and answering ``/healthz``: its port (the free one it
    bound, as its ``API on`` line names it). Its stderr goes to ``log``."""
    environment = {**os.environ, "REDIS_URL": redis_url,
                   "SIXTYSIX_RATE_ADDRESS": "off", "SIXTYSIX_RATE_CREATE": "off",
                   "SIXTYSIX_RATE_ACTIONS": "off", "SIXTYSIX_LOG_REQUESTS": "0",
                   "PYTHONPATH": str(Path(__file__).resolve().parents[2]), **env}
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", "0", "--workers", "1"],
            env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    try:
        port = 0
        for _ in range(START_ATTEMPTS):
            assert process.poll() is None, log.read_text()
            if not port:
                named = re.search(rf"API on http://{re.escape(HOST)}:(\d+);", log.read_text())
                port = int(named.group(1)) if named else 0
            try:
                if port and requests.get(f"http://{HOST}:{port}/healthz", timeout=2).ok:
                    break
            except (requests.ConnectionError, requests.Timeout):
                pass
            time.sleep(0.1)
        else:
            raise AssertionError(f"gunicorn did not come up: {log.read_text()}")
        yield port
    finally:
        process.terminate()
        process.wait(60)


def serve_env(**extra: str) -> dict[str, str]:
    """This process' environment without ``REDIS_URL`` (serve embeds its Redis), ``extra``
    added."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    return {**env, "PYTHONPATH": str(ROOT), **extra}


@dataclass
class Served:
    """A running ``sixtysix serve`` with its stderr in a file."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def err(self) -> str:
        return self.log.read_text(errors="replace")

    def listening(self) -> str | None:
        """The API's address as serve's ``API on`` line names it (``None`` before it)."""
        assert self.process.poll() is None, self.err()
        found = re.search(r"^sixtysix: API on (http://\S+);", self.err(), re.MULTILINE)
        return found.group(1) if found else None

    def redis_url(self) -> str:
        found = re.search(r"embedded redis-server at (redis://\S+),", self.err())
        assert found, self.err()
        return found.group(1)


def answers(served: Served) -> bool:
    """Whether ``served`` answers ``/healthz`` (an AssertionError once it has exited)."""
    assert served.process.poll() is None, served.err()
    try:
        return requests.get(f"{served.url}/healthz", timeout=2).ok
    except (requests.ConnectionError, requests.Timeout):
        return False


def launch(workdir: Path, index: int, *args: str, env: dict[str, str] | None = None,
           port: int = 0) -> Served:
    """``sixtysix serve --port PORT --workers 1 --computer-workers 1`` with its data in
    ``workdir/var`` and its stderr in ``workdir/serve-INDEX.log`` (``args`` appended),
    started (:func:`up` waits for it to answer)."""
    log = workdir / f"serve-{index}.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--workers", "1",
             "--computer-workers", "1", "--data-dir", str(workdir / "var"), *args],
            env=env or serve_env(), stdout=subprocess.DEVNULL, stderr=err)
    return Served(process, f"http://127.0.0.1:{port}" if port else "", log)


def up(served: Served) -> Served:
    """``served`` once it answers ``/healthz`` (its URL, for port 0, the one it names)."""
    if not served.url:  # a free port serve bound itself: the one its API line names
        until(lambda: served.listening() is not None, "serve names its address", PATIENCE)
        served.url = served.listening() or ""
    until(lambda: answers(served), f"{served.url} answers /healthz", PATIENCE)
    return served


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM ``process`` if it runs, SIGKILL if it has not exited a minute later."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def worker_pids(served: Served, scheduler: bool = False) -> list[int]:
    """The worker processes (``python -m api.worker.run``) among the server's children, or
    its scheduler process (``... --scheduler``)."""
    pid = served.process.pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    found = []
    for child in children:
        try:
            argv = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        except (FileNotFoundError, ProcessLookupError):  # gone meanwhile (before or while read)
            continue
        if b"api.worker.run" in argv and (b"--scheduler" in argv) == scheduler:
            found.append(int(child))
    return found


def family(pid: int) -> list[int]:
    """Every descendant of ``pid`` (serve's: gunicorn's master and workers, Redis, the
    worker pool's processes)."""
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").iterdir():
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except (FileNotFoundError, ProcessLookupError):  # the task ended meanwhile
                continue
            out += children
            todo += children
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"
