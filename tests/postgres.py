"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql`` binaries (``initdb``,
``pg_ctl``; ``.ci/run`` installs them), a cluster in a temporary folder, on a free loopback
port, trusted local logins. As root the cluster runs as the ``postgres`` user (PostgreSQL
refuses root)."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Final, Self

#: Where Debian keeps the server's binaries (they are not on PATH).
DEBIAN_BIN: Final = Path("/usr/lib/postgresql")


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's newest, else the one on PATH;
    ``None``."""
    versions = sorted(DEBIAN_BIN.glob("*/bin/initdb"),
                      key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    if versions:
        return versions[-1].parent
    found = shutil.which("initdb")
    return None if found is None else Path(found).parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Postgres:
    """One cluster in a new temporary folder (removed by :meth:`remove`): :meth:`start`,
    :meth:`stop` (and start again: the data stays), :attr:`url` for SQLAlchemy (psycopg 3)."""

    def __init__(self) -> None:
        bin_dir = binaries()
        if bin_dir is None:
            raise RuntimeError("no initdb: install Debian's postgresql package")
        self.bin = bin_dir
        folder = self.folder = Path(tempfile.mkdtemp(prefix="sixtysix-postgres-"))
        self.data = folder / "data"
        self.port = _free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self._as: list[str] = []
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", "postgres", "--"]
            user = pwd.getpwnam("postgres")
            os.chown(folder, user.pw_uid, user.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--no-sync", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run([*self._as, str(self.bin / tool), *args], capture_output=True,
                              text=True, timeout=120, check=False)
        if done.returncode:
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stderr.strip()}")

    def start(self) -> Self:
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} "
                   "-c fsync=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-w", "-t", "60", "-l",
                  str(self.data / "server.log"), "start")
        return self

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        finally:
            self.remove()

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
