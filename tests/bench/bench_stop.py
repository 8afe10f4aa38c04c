"""Stalled bodies and stop time of a real ``sixtysix serve``: ``python -m tests.bench.bench_stop
[--stalled 200] [--within 20] [--streams 1]``.

Starts ``sixtysix serve --port 0 --workers 1 --computer-workers 1`` with its embedded Redis in
a temporary data directory (rate limits off: a limit would answer before the body is read),
then:

* opens ``--stalled`` connections that each send a ``POST /v1/games`` head announcing a
  100-byte body, send 10 bytes of it and stall; prints how many of them the server closed
  within ``--within`` seconds (the read timeout, ``SIXTYSIX_READ_TIMEOUT``, closes them);
* opens ``--streams`` event streams of a two-human game and closes their client side at once
  (as a browser leaving ``/play`` does), sends SIGTERM to ``serve`` and prints the seconds it
  took to exit, and whether its embedded ``redis-server`` is gone.

Last it starts ``serve`` once more, kills it with SIGKILL and prints how many of its
``redis-server``, gunicorn and worker processes are still alive when they are all gone, or 30 s
later. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from tests.api.serving import alive, family

ROOT = Path(__file__).resolve().parents[2]


def start(data: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", "0", "--workers", "1",
             "--computer-workers", "1", "--data-dir", str(data)],
            env={**env, "PYTHONPATH": str(ROOT), "SIXTYSIX_RATE_ADDRESS": "off",
                 "SIXTYSIX_RATE_CREATE": "off", "SIXTYSIX_RATE_ACTIONS": "off",
                 "SIXTYSIX_LOG_REQUESTS": "0"},
            stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        found = re.search(r"API on (http://\S+);", log.read_text(errors="replace"))
        if found:
            try:
                if requests.get(f"{found.group(1)}/healthz", timeout=2).ok:
                    return process, found.group(1)
            except requests.RequestException:
                pass
        time.sleep(0.1)
    raise SystemExit(f"serve did not come up: {log.read_text()}")


def stalled(url: str, count: int, within: float) -> int:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    head = (f"POST /v1/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n").encode() + b'{"seats": '
    selector = selectors.DefaultSelector()
    for _ in range(count):
        sock = socket.create_connection((host, int(port)))
        sock.sendall(head)
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    closed = 0
    deadline = time.monotonic() + within
    while closed < count and (left := deadline - time.monotonic()) > 0:
        for key, _ in selector.select(left):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except ConnectionError:
                data = b""
            if not data:
                selector.unregister(sock)
                sock.close()
                closed += 1
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    return closed


def closed_streams(url: str, count: int) -> None:
    game = requests.post(f"{url}/v1/games", timeout=10, json={
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    for _ in range(count):
        stream = requests.get(f"{url}/v1/games/{game['game_id']}/stream", stream=True,
                              timeout=10)
        next(stream.iter_content(chunk_size=None))  # the first view came
        stream.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stalled", type=int, default=200)
    parser.add_argument("--within", type=float, default=20.0)
    parser.add_argument("--streams", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sixtysix-bench-stop-") as tmp:
        process, url = start(Path(tmp) / "var", Path(tmp) / "serve.log")
        children = family(process.pid)
        closed = stalled(url, args.stalled, args.within)
        print(f"stalled bodies: {closed} of {args.stalled} closed within {args.within:g} s")
        closed_streams(url, args.streams)
        began = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(120)
        print(f"stop with {args.streams} closed stream(s) open: "
              f"{time.monotonic() - began:.1f} s, exit status {process.returncode}; "
              f"children left: {sum(alive(p) for p in children)} of {len(children)}")

        process, url = start(Path(tmp) / "var", Path(tmp) / "serve-2.log")
        time.sleep(2)  # the worker pool's processes are up
        children = family(process.pid)
        process.kill()
        process.wait()
        began = time.monotonic()
        while any(alive(p) for p in children) and time.monotonic() - began < 30:
            time.sleep(0.1)
        left = [p for p in children if alive(p)]
        print(f"after SIGKILL of serve: {len(left)} of {len(children)} children alive "
              f"{time.monotonic() - began:.1f} s later"
              + "".join(f"\n  {Path(f'/proc/{p}/cmdline').read_bytes()[:80]!r}" for p in left))
        for pid in left:
            os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
