"""Notice fan-out benchmark: ``python -m tests.bench.bench_fanout [--processes 1 4 16 64 256]
[--saves 2000] [--watched 8]``.

Starts a throwaway Redis (the ``redis-server`` the tests use) and, for each count K of web
processes, subscribes K real connections as K web processes' notice listeners would, in two
ways:

* ``pattern`` (before): each ``PSUBSCRIBE``\\ s ``sixtysix:notify:*`` and
  ``sixtysix:table-notify:*``, as every web process did;
* ``interest`` (after, :mod:`api.live.notify`): each subscribes to the channels of its own
  ``--watched`` games (``SSUBSCRIBE`` on Redis 7 and later, ``SUBSCRIBE`` before), and to its
  own listener channel.

It then saves ``--saves`` times with the game store's own save script
(:data:`api.games.store.SAVE_SCRIPT`: state, recent events, two event lines, write record,
TTLs, the notice; ``pattern`` with the classic ``PUBLISH`` it used: :data:`BEFORE_SCRIPT`),
round-robin over the K × ``--watched`` games (each watched by one process), pipelined 100 at a
time, while one thread reads every subscriber's socket and counts the notices delivered.
Printed per K and way: Redis's CPU per save in µs (``used_cpu_sys`` + ``used_cpu_user`` of
``INFO cpu``: the script and the writes to the subscribers' sockets), the script's own µs per
call (``INFO commandstats``, ``evalsha``), and the notices delivered per save (each one costs
the process receiving it 20–30 µs of Python). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import selectors
import socket
import threading
import time
from collections.abc import Sequence
from typing import Final

import redis

from api.games.store import SAVE_SCRIPT, WRITE_TTL
from api.keys import (
    NOTIFY_PATTERN,
    TABLE_NOTIFY_PATTERN,
    events_key,
    game_key,
    listener_channel,
    notify_channel,
    write_key,
)
from api.live.notify import NOTIFY_LUA, sharded
from api.runtime.redis_server import EmbeddedRedis

#: Every notice delivered ends so (``pmessage``, ``smessage``, ``message`` as RESP bulk text).
_MESSAGE: Final = b"message\r\n"
#: Every subscription's confirmation ends so (``psubscribe``, ``ssubscribe``, ``subscribe``).
_SUBSCRIBED: Final = b"subscribe\r\n"
STATE: Final = "x" * 300  # bytes of a stored state, about a real game's
LINES: Final = ('{"seq":1,"type":"card_played","seat":0,"card":"AH"}',
                '{"seq":2,"type":"card_played","seat":1,"card":"TH"}')
TTL: Final = 3600
BATCH: Final = 100
#: The save script as it was before: a classic ``PUBLISH`` whatever the server, which the
#: pattern subscribers hear (they do not hear ``SPUBLISH``).
BEFORE_SCRIPT: Final = SAVE_SCRIPT.replace(
    NOTIFY_LUA, "local function notify(c, m) redis.call('PUBLISH', c, m) end\n")


def _command(*parts: str) -> bytes:
    """One command in RESP."""
    out = [f"*{len(parts)}\r\n".encode()]
    for part in parts:
        data = part.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


class Listeners:
    """K subscriber connections and one thread counting what they receive."""

    def __init__(self, port: int, commands: Sequence[Sequence[bytes]]) -> None:
        self.selector = selectors.DefaultSelector()
        self.sockets: list[socket.socket] = []
        self.delivered = 0
        self.confirmed = 0
        self._tails: dict[int, bytes] = {}
        self._stop = threading.Event()
        expected = 0
        for own in commands:
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"".join(own))
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.sockets.append(sock)
            expected += sum(command.count(b"\r\n$") for command in own) - len(own)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while self.confirmed < expected:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.confirmed} of {expected} subscriptions confirmed")
            time.sleep(0.01)

    def _read(self) -> None:
        while not self._stop.is_set():
            for key, _ in self.selector.select(timeout=0.1):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = sock.recv(1 << 16)
                except BlockingIOError:
                    continue
                tail = self._tails.get(sock.fileno(), b"")  # counted already
                seen = tail + data
                self.delivered += seen.count(_MESSAGE) - tail.count(_MESSAGE)
                self.confirmed += seen.count(_SUBSCRIBED) - tail.count(_SUBSCRIBED)
                self._tails[sock.fileno()] = seen[-(len(_SUBSCRIBED) - 1):]

    def wait_for(self, deliveries: int) -> None:
        """Until ``deliveries`` notices arrived, or none came for a second."""
        last, since = -1, time.monotonic()
        while self.delivered < deliveries and time.monotonic() - since < 1.0:
            if self.delivered != last:
                last, since = self.delivered, time.monotonic()
            time.sleep(0.01)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        for sock in self.sockets:
            self.selector.unregister(sock)
            sock.close()


def _subscriptions(way: str, processes: int, watched: int, shard: bool) -> list[list[bytes]]:
    if way == "pattern":
        return [[_command("PSUBSCRIBE", NOTIFY_PATTERN, TABLE_NOTIFY_PATTERN)]] * processes
    subscribe = "SSUBSCRIBE" if shard else "SUBSCRIBE"
    return [[_command("SUBSCRIBE", listener_channel(f"bench-{p}")),
             *(_command(subscribe, notify_channel(f"fan-{p}-{g}")) for g in range(watched))]
            for p in range(processes)]


def _cpu(client: redis.Redis) -> tuple[float, int, int]:
    """Redis's CPU seconds so far, and the calls and µs of ``evalsha``."""
    cpu = client.info("cpu")
    stats = client.info("commandstats").get("cmdstat_evalsha", {"calls": 0, "usec": 0})
    return (float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"]), int(stats["calls"]),
            int(stats["usec"]))


def measure(client: redis.Redis, port: int, way: str, processes: int, watched: int,
            saves: int) -> tuple[float, float, float]:
    """CPU µs per save, the script's µs per call, notices delivered per save."""
    games = [f"fan-{p}-{g}" for g in range(watched) for p in range(processes)]
    for game_id in games:
        client.hset(game_key(game_id), mapping={"v": 1, "n": 2, "state": STATE})
    save = client.register_script(BEFORE_SCRIPT if way == "pattern" else SAVE_SCRIPT)
    listeners = Listeners(port, _subscriptions(way, processes, watched, sharded(client)))
    versions = dict.fromkeys(games, 1)
    try:
        client.config_resetstat()
        cpu0, calls0, usec0 = _cpu(client)
        for start in range(0, saves, BATCH):
            pipe = client.pipeline(transaction=False)
            for i in range(start, min(start + BATCH, saves)):
                game_id = games[i % len(games)]
                version = versions[game_id]
                save(keys=[game_key(game_id), events_key(game_id), write_key(game_id, str(i))],
                     args=[version, version + 1, TTL, STATE, "", "[]", 2 * (version + 1),
                           notify_channel(game_id), "", 0, WRITE_TTL, 2 * version, "", "",
                           "", "", *LINES], client=pipe)
                versions[game_id] = version + 1
            if any(status != 1 for status, _ in pipe.execute()):
                raise RuntimeError("a save did not apply: the figures would be wrong")
        cpu1, calls1, usec1 = _cpu(client)
        listeners.wait_for(saves * (processes if way == "pattern" else 1))
        delivered = listeners.delivered
    finally:
        listeners.close()
    client.flushdb()
    return ((cpu1 - cpu0) * 1e6 / saves, (usec1 - usec0) / max(calls1 - calls0, 1),
            delivered / saves)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 4, 16, 64, 256])
    parser.add_argument("--saves", type=int, default=2000)
    parser.add_argument("--watched", type=int, default=8, help="games each process watches")
    args = parser.parse_args(argv)
    server = EmbeddedRedis(appendonly=False)
    server.start()
    client = redis.Redis(host="127.0.0.1", port=server.port)
    try:
        version = client.info("server")["redis_version"]
        print(f"Redis {version}, {'sharded' if sharded(client) else 'classic'} pub/sub; "
              f"{args.saves} saves each, {args.watched} games watched per process")
        print(f"{'processes':>9} {'way':>9} {'cpu µs/save':>12} {'script µs':>10} "
              f"{'deliveries/save':>16}")
        for processes in args.processes:
            for way in ("pattern", "interest"):
                cpu, script, deliveries = measure(client, server.port, way, processes,
                                                  args.watched, args.saves)
                print(f"{processes:>9} {way:>9} {cpu:>12.1f} {script:>10.1f} "
                      f"{deliveries:>16.2f}", flush=True)
    finally:
        client.close()
        server.stop()


if __name__ == "__main__":
    main()
