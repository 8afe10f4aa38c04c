"""One event stream through a real nginx with ``deploy/nginx.conf``:
``python -m tests.bench.check_nginx_stream`` (needs ``nginx`` on PATH: ``apt-get install nginx``).

Starts Redis and gunicorn as ``deploy/gunicorn.conf.py`` runs them
(:func:`tests.bench.bench_http.served`, heartbeat 1 s), and nginx with ``deploy/nginx.conf``, its
upstream pointed at that gunicorn and listening on a free loopback port. Through nginx it
opens a seat's stream with a stream ticket (as a browser's EventSource would), times the
first view, three heartbeats and the event of an action by the other seat, and prints them:
an nginx that buffered the stream would deliver none of them until its buffer filled. Then it
shows that nginx's access log line of the stream holds no ticket. Exit status 1 if any of
that fails.
"""

from __future__ import annotations

import http.client
import itertools
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from api.runtime.redis_server import HOST
from tests.bench.bench_http import _free_port, served

NGINX_CONF: Final = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
HEARTBEAT: Final = 1.0


def _conf(app_port: int, port: int, tmp: Path) -> str:
    conf = NGINX_CONF.read_text()
    for old, new in (("server app:8066", f"server {HOST}:{app_port}"),
                     ("listen 80;", f"listen {HOST}:{port};"),
                     ("pid /tmp/nginx.pid;", f"pid {tmp}/nginx.pid;"),
                     ("access_log /dev/stdout sixtysix;", f"access_log {tmp}/access.log sixtysix;"),
                     ("error_log /dev/stderr warn;", f"error_log {tmp}/error.log warn;")):
        if old not in conf:
            raise RuntimeError(f"deploy/nginx.conf has no {old!r} any more")
        conf = conf.replace(old, new)
    return conf


def _call(port: int, method: str, path: str, token: str | None = None,
          body: Any = None) -> Any:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = conn.getresponse()
        data = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        return json.loads(data)
    finally:
        conn.close()


def _blocks(response: http.client.HTTPResponse) -> Iterator[tuple[float, str]]:
    """Each SSE block as it arrives (de-chunked), with the time it arrived."""
    buffer = b""
    while True:
        while b"\n\n" not in buffer:
            data = response.read1(65536)
            if not data:
                return
            buffer += data
        block, buffer = buffer.split(b"\n\n", 1)
        yield time.monotonic(), block.decode()


def check() -> bool:
    if shutil.which("nginx") is None:
        print("nginx is not on PATH: apt-get install nginx")
        return False
    env = {"SIXTYSIX_STREAM_HEARTBEAT": str(HEARTBEAT)}
    with served(None, None, env) as (app_port, _, _), \
            tempfile.TemporaryDirectory(prefix="sixtysix-nginx-") as tmp_name:
        tmp = Path(tmp_name)
        port = _free_port()
        (tmp / "nginx.conf").write_text(_conf(app_port, port, tmp))
        nginx = subprocess.Popen(["nginx", "-c", str(tmp / "nginx.conf"), "-p", str(tmp),
                                  "-e", str(tmp / "error.log"), "-g", "daemon off;"])
        try:
            return _through(port, tmp)
        finally:
            nginx.terminate()
            nginx.wait(10)


def _through(port: int, tmp: Path) -> bool:
    deadline = time.monotonic() + 10
    while True:
        try:
            _call(port, "GET", "/healthz")
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    game = _call(port, "POST", "/v1/games", body={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
    game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    ticket = _call(port, "POST", f"/v1/games/{game_id}/stream-ticket", tokens[1])["ticket"]
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    start = time.monotonic()
    conn.request("GET", f"/v1/games/{game_id}/stream?ticket={ticket}",
                 headers={"Accept": "text/event-stream"})
    response = conn.getresponse()
    print(response.status, {k: v for k, v in response.getheaders() if k.lower() in (
        "content-type", "x-accel-buffering", "transfer-encoding", "cache-control")})
    blocks = _blocks(response)
    at, first = next(blocks)
    print(f"first view after {1000 * (at - start):.1f} ms: {first.splitlines()[1][:60]}...")
    beats = []
    while len(beats) < 3:
        at, block = next(blocks)
        if block == ": heartbeat":
            beats.append(at)
    gaps = [f"{b - a:.2f}" for a, b in itertools.pairwise(beats)]
    print(f"3 heartbeats, {gaps} s apart (heartbeat {HEARTBEAT:g} s)")
    views = [_call(port, "GET", f"/v1/games/{game_id}", t) for t in tokens]
    seat = next(i for i, v in enumerate(views) if v["legal_actions"])
    sent = time.monotonic()
    _call(port, "POST", f"/v1/games/{game_id}/actions", tokens[seat],
          views[seat]["legal_actions"][0])
    for at, block in blocks:
        if block.startswith("event: game_event"):
            print(f"the action's first event after {1000 * (at - sent):.1f} ms: "
                  f"{block.splitlines()[-1][:70]}")
            break
    conn.close()
    deadline = time.monotonic() + 10  # nginx writes the stream's line when it closes
    while '"method":"GET","uri":"/v1/games/' + game_id + '/stream"' not in (
            log := (tmp / "access.log").read_text()) and time.monotonic() < deadline:
        time.sleep(0.1)
    line = next((x for x in log.splitlines() if f"/{game_id}/stream\"" in x), "(none)")
    print(f"nginx log line of the stream: {line}")
    ok = ticket not in log and all(t not in log for t in tokens) and len(beats) == 3
    print("OK" if ok else "FAILED")
    return ok


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop what it started
    sys.exit(0 if check() else 1)
