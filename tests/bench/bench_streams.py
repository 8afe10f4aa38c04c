"""Event-stream benchmark: ``python -m tests.bench.bench_streams [--worker-class gevent|gthread]
[--streams 500 2000] [--fanout 200] [--actions 20] [--workers N] [--threads T]``.

Starts Redis and gunicorn as ``deploy/gunicorn.conf.py`` runs them (as ``sixtysix serve``
does; :func:`tests.bench.bench_http.served`) with the chosen worker class, raises this process's
open-file limit to its hard limit (the server inherits it), and then, for each count N of
``--streams``:

* opens N idle streams (``GET /v1/games/{id}/stream``, each seat of N/2 two-human games, with
  its seat token) and keeps reading them, counting heartbeat comments
  (``SIXTYSIX_STREAM_HEARTBEAT`` is set to ``--heartbeat`` seconds);
* prints the resident memory of gunicorn's processes with them open;
* meanwhile probes ``GET /healthz`` (a new connection each, ``--probes`` of them, 20 ms apart)
  and prints p50, p99 and the worst, and how many heartbeats arrived per stream;
* with the N streams still open, opens ``--fanout`` spectator streams of one more game and
  plays ``--actions`` actions in it: for each, the delay from sending the action to each
  fan-out stream receiving its first new event (p50, p95, max over all), and the delay from
  the action's answer (the save is done by then) to the 95th percentile stream.

Last, ``--long-polls`` long-polls (``GET /v1/games/{id}?after_version=1&wait=30``) wait at
once while /healthz is probed (up to 100 probes).

A stream that cannot be opened within 10 s, a probe over 10 s, and a fan-out stream that
misses an event are counted and printed as failures. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import resource
import selectors
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from api.runtime.redis_server import HOST
from tests.bench.bench_http import _tree, served

OPEN_TIMEOUT: Final = 10.0
PROBE_TIMEOUT: Final = 10.0


def _raise_file_limit() -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def _call(port: int, method: str, path: str, body: Any = None,
          token: str | None = None) -> tuple[int, Any, float]:
    """One request on a new connection: status, JSON body, and when the answer was read."""
    conn = http.client.HTTPConnection(HOST, port, timeout=PROBE_TIMEOUT)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None, time.monotonic()
    finally:
        conn.close()


def _game(port: int) -> tuple[str, list[str]]:
    status, body, _ = _call(port, "POST", "/v1/games", {
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
    if status != 201:
        raise RuntimeError(f"create answered {status}: {body}")
    return body["game_id"], [s["token"] for s in body["seats"]]


@dataclass(slots=True)
class Stream:
    sock: socket.socket
    buffer: bytes = b""
    opened: bool = False
    heartbeats: int = 0
    ids: dict[int, float] = field(default_factory=dict)  # event id -> when it arrived


class Reader:
    """Reads every stream in one thread with a selector; records what arrives, and when."""

    def __init__(self) -> None:
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.streams: list[Stream] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def open(self, port: int, path: str, token: str | None) -> Stream:
        sock = socket.create_connection((HOST, port))
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n{auth}"
                     "Accept: text/event-stream\r\n\r\n".encode())
        sock.setblocking(False)
        stream = Stream(sock)
        with self.lock:
            self.streams.append(stream)
            self.selector.register(sock, selectors.EVENT_READ, stream)
        return stream

    def _run(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                ready = self.selector.select(timeout=0) if self.streams else []
            if not ready:
                time.sleep(0.001)
                continue
            now = time.monotonic()
            for key, _ in ready:
                stream: Stream = key.data
                try:
                    data = stream.sock.recv(65536)
                except BlockingIOError:
                    continue
                if not data:
                    with self.lock:
                        self.selector.unregister(stream.sock)
                    continue
                self._parse(stream, data, now)

    @staticmethod
    def _parse(stream: Stream, data: bytes, now: float) -> None:
        stream.buffer += data
        *blocks, stream.buffer = stream.buffer.split(b"\n\n")
        for block in blocks:
            if b"event: view" in block:
                stream.opened = True
            if block.endswith(b": heartbeat"):
                stream.heartbeats += 1
            for line in block.split(b"\n"):
                if line.startswith(b"id: "):
                    stream.ids.setdefault(int(line[4:]), now)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for stream in self.streams:
            stream.sock.close()


def _rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its descendants, in MB (Linux /proc)."""
    total = 0
    for child in _tree(pid):
        try:
            status = Path(f"/proc/{child}/status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines()
                       if line.startswith("VmRSS:")), 0)
    return total / 1024


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _open_all(reader: Reader, port: int, paths: list[tuple[str, str | None]]) -> list[Stream]:
    """Open the streams in batches of 100, each batch's first views awaited."""
    out: list[Stream] = []
    for start in range(0, len(paths), 100):
        batch = [reader.open(port, path, token) for path, token in paths[start:start + 100]]
        deadline = time.monotonic() + OPEN_TIMEOUT
        while not all(s.opened for s in batch) and time.monotonic() < deadline:
            time.sleep(0.01)
        out += batch
    return out


def open_idle(reader: Reader, port: int, count: int
              ) -> tuple[list[Stream], list[tuple[str, list[str]]], float]:
    """``count`` idle seat streams of new two-human games (two each): the streams, the games
    (id, seat tokens) and the seconds opening them took."""
    games = [_game(port) for _ in range((count + 1) // 2)]
    paths = [(f"/v1/games/{g}/stream", t) for g, tokens in games for t in tokens][:count]
    started = time.monotonic()
    streams = _open_all(reader, port, paths)
    return streams, games, time.monotonic() - started


def _probe(port: int, count: int) -> tuple[list[float], int]:
    latencies, failed = [], 0
    for _ in range(count):
        start = time.monotonic()
        try:
            status, _, done = _call(port, "GET", "/healthz")
            if status == 200:
                latencies.append((done - start) * 1000)
            else:
                failed += 1
        except OSError:
            failed += 1
        time.sleep(0.02)
    return latencies, failed


def _fanout(reader: Reader, port: int, spectators: int, actions: int) -> dict[str, Any]:
    game_id, tokens = _game(port)
    streams = _open_all(reader, port, [(f"/v1/games/{game_id}/stream", None)] * spectators)
    delays, from_answer, missed = [], [], 0
    for _ in range(actions):
        views = [_call(port, "GET", f"/v1/games/{game_id}", token=t)[1] for t in tokens]
        seat = next(i for i, v in enumerate(views) if v["legal_actions"])
        legal = [a for a in views[seat]["legal_actions"] if a["type"] != "declare"]
        sent = time.monotonic()
        status, view, answered = _call(port, "POST", f"/v1/games/{game_id}/actions",
                                       legal[0] if legal else views[seat]["legal_actions"][0],
                                       tokens[seat])
        if status != 200:
            raise RuntimeError(f"action answered {status}: {view}")
        first_new = view["events"][0]["seq"]
        deadline = time.monotonic() + 5
        while (time.monotonic() < deadline
               and not all(first_new in s.ids for s in streams)):
            time.sleep(0.002)
        arrived = [s.ids[first_new] for s in streams if first_new in s.ids]
        missed += len(streams) - len(arrived)
        delays += [(t - sent) * 1000 for t in arrived]
        from_answer.append((_pct(arrived, 0.95) - answered) * 1000)
        time.sleep(0.05)
    return {"streams": sum(s.opened for s in streams), "p50_ms": _pct(delays, 0.5),
            "p95_ms": _pct(delays, 0.95), "max_ms": max(delays, default=float("nan")),
            "p95_after_answer_ms": _pct(from_answer, 0.5), "missed": missed}


def _long_polls(port: int, count: int, probes: int) -> None:
    """``count`` long-polls (``?after_version=V&wait=30``) waiting at once, and /healthz."""
    reader = Reader()
    try:
        games = [_game(port) for _ in range(max(1, count // 2))]
        for game_id, tokens in games:
            for token in tokens[:count - len(reader.streams)]:
                reader.open(port, f"/v1/games/{game_id}?after_version=1&wait=30", token)
        time.sleep(1)
        latencies, failed = _probe(port, probes)
        print(f"\n{len(reader.streams)} waiting long-polls: /healthz x{len(latencies)} p50 "
              f"{_pct(latencies, 0.5):.1f} ms, p99 {_pct(latencies, 0.99):.1f} ms, max "
              f"{max(latencies, default=float('nan')):.1f} ms, failed {failed}")
    finally:
        reader.close()


def run(worker_class: str, counts: list[int], fanout: int, actions: int, probes: int,
        heartbeat: float, workers: int | None, threads: int | None, long_polls: int) -> None:
    limit = _raise_file_limit()
    print(f"worker class {worker_class}, workers {workers or 'default'}, threads "
          f"{threads or 'default'}, open-file limit {limit}, heartbeat {heartbeat:g} s")
    env = {"SIXTYSIX_WORKER_CLASS": worker_class, "SIXTYSIX_STREAM_HEARTBEAT": str(heartbeat),
           "SIXTYSIX_MAX_GAMES_PER_ADDRESS": "1000000", "SIXTYSIX_LOG_REQUESTS": "0"}
    with served(workers, threads, env) as (port, server, _):
        for count in counts:
            reader = Reader()
            try:
                streams, _, took = open_idle(reader, port, count)
                opened = sum(s.opened for s in streams)
                print(f"\n{count} idle streams: {opened} open after {took:.1f} s; gunicorn's "
                      f"memory {_rss_mb(server):.0f} MB")
                beats_before = sum(s.heartbeats for s in streams)
                probe_start = time.monotonic()
                latencies, failed = _probe(port, probes)
                spent = time.monotonic() - probe_start
                beats = (sum(s.heartbeats for s in streams) - beats_before) / max(opened, 1)
                print(f"  /healthz x{len(latencies)}: p50 {_pct(latencies, 0.5):.1f} ms, "
                      f"p99 {_pct(latencies, 0.99):.1f} ms, max "
                      f"{max(latencies, default=float('nan')):.1f} ms, failed {failed}; "
                      f"heartbeats per stream in those {spent:.0f} s: {beats:.1f} "
                      f"(expected {spent / heartbeat:.1f})")
                if fanout:
                    out = _fanout(reader, port, fanout, actions)
                    print(f"  fan-out to {out['streams']} streams of one game, {actions} "
                          f"actions: from sending the action p50 {out['p50_ms']:.1f} ms, "
                          f"p95 {out['p95_ms']:.1f} ms, max {out['max_ms']:.1f} ms; 95% of "
                          f"streams had it {out['p95_after_answer_ms']:.1f} ms after the "
                          f"answer (median over actions); missed {out['missed']}")
            finally:
                reader.close()
            time.sleep(1)
        if long_polls:
            _long_polls(port, long_polls, min(probes, 100))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker-class", choices=("gevent", "gthread"), default="gevent")
    parser.add_argument("--streams", type=int, nargs="*", default=[500, 2000])
    parser.add_argument("--fanout", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20)
    parser.add_argument("--probes", type=int, default=300)
    parser.add_argument("--heartbeat", type=float, default=5.0)
    parser.add_argument("--long-polls", type=int, default=500,
                        help="long-polls waiting at once in the last phase (0: none)")
    parser.add_argument("--workers", type=int)
    parser.add_argument("--threads", type=int)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the server it started
    run(args.worker_class, args.streams, args.fanout, args.actions, args.probes,
        args.heartbeat, args.workers, args.threads, args.long_polls)


if __name__ == "__main__":
    main()
