"""HTTP load benchmark: ``python -m tests.bench.bench_http [--connections 32] [--duration 10]
[--pace 0.5]`` (or ``--computer-load``, ``--streaming``: see below).

Starts a real redis-server (append-only file on, as ``deploy/`` runs it) and the API under
gunicorn with ``deploy/gunicorn.conf.py`` on a free loopback port, then drives it from a
separate load-generator process holding ``--connections`` keep-alive HTTP/1.1 connections
(asyncio, raw sockets: the cheapest client Python has). Four phases of ``--duration`` seconds
each, every connection busy all the time (closed loop):

* ``ceiling`` — ``GET /healthz``: what the server stack answers with no work (the ceiling);
* ``view`` — ``GET /v1/games/{id}`` with a seat's token (load, authenticate, build the view);
* ``act`` — whole hands of human-vs-human games: ``POST /v1/games/{id}/actions`` for whichever
  seat is to act, until the hand is settled, then a new game (``create``, reported apart).
  The games are created with an explicit ``deck``; the generator replays each deal with the
  engine beforehand, so it knows every seat's legal actions without reading any view.

* ``bare`` — the act path's physical limit (:mod:`tests.bench.bench_bare_app`): a Flask + redis-py
  app served by a second gunicorn with the same settings, environment and Redis, whose
  ``POST /bare/<n>`` does only the storage work of one action on a copy of a real game's
  record (one ``HGETALL``, the store's save script, an answer of the real action's size),
  each connection on a record of its own. ``act/bare`` compares the two throughputs and the
  servers' CPU milliseconds per request; with other processes on the machine (load average
  printed) the throughputs follow the scheduler more than the code, the CPU milliseconds far
  less. ``--phases`` runs a subset (e.g. ``act,bare``).

Then a fifth phase, ``paced`` (off with ``--pace 0``): the same connections play whole games
like the ``act`` phase, but as players who think between moves. Each connection sends its
requests at the times of its own Poisson process; together they offer ``--pace`` times the
request rate the ``act`` phase served (its capacity). Arrivals do not wait for answers (open
loop): a request due while its connection is still busy goes out as soon as it is free, and
every latency is measured from the time the request was due, not the time it was sent, so
queueing in the server shows in the figures instead of silently lowering the offered load
(coordinated omission).

Why both: the closed-loop phases measure capacity (requests per second with the server always
busy) and the act/ceiling ratio, but their latency says little about the server — with no think
time a closed loop keeps every connection queued, so mean latency = connections / throughput
(Little's law): 32 connections at 500 req/s are 64 ms whatever the server does. The paced
phase answers the question a player asks: how long does a move take when the service runs at a
given fraction of its capacity.

What the act/ceiling ratio can reach: a server adds about the same fixed cost per request to
both (parsing, dispatch, logging), so the ratio is (h + F) / (a + F) for application costs h
(a bare endpoint) and a (an action). ``--in-process HANDS`` measures h and a: the app alone
through Flask's test client (no HTTP server, real Redis). Here it gave a ratio of 0.24-0.34
before any server cost (h 0.44-0.64 ms; a 1.3-2.5 ms: two Redis round trips, the state's JSON
both ways, the view; this machine's speed varies by a factor of two). A faster server (smaller
F) moves the ratio towards that, a slower one towards 1. Compare the CPU milliseconds per
request, not the ratio, when judging a change.

Printed per request kind: requests per second, p50 and p99 latency in milliseconds, errors;
then act/ceiling and view/ceiling throughput ratios, the paced latencies next to the closed
loop's, and where the CPU went, in cores: the server's processes (and their CPU milliseconds per
request), redis-server, the load generator, and every other process of the machine (a shared
machine skews the figures: look there first). Targets on a 2-core machine: act ≥ 0.6 of the
ceiling, act p99 ≤ 50 ms at 32 connections.

Instead of those phases, two more (each with a server of its own):

* ``--computer-load`` (:func:`computer_load`): ``GET /healthz`` and a human seat's
  ``GET /v1/games/{id}`` probed on new connections, p50/p95/p99, first with no load (the
  baseline of the same run), then while 16 clients play whole hands against ``strong``
  computers (the worker processes ``sixtysix serve`` starts), while 16 clients ask
  ``POST /v1/analysis`` again and again, with 500 open long-polls, and with 40 slowloris
  sockets (half-sent requests). ``--before-tree DIR`` first does the same against another
  source tree of the project, e.g. the revision before the worker tier
  (``git archive 1b15f6d | tar -x -C DIR``: computers in the web request, gthread workers).
  Target: p99 <= 50 ms under every load. A third probe, ``control``, asks a trivial server
  of its own process (:func:`control_server`): what the probe client and the machine add by
  themselves, so a shared machine's delay is not taken for the server's; the load
  generator runs niced (:data:`LOADGEN_NICE`), as clients on other machines would not take
  this one's CPU; ``runq`` is how long gunicorn and Redis waited for a CPU.
* ``--streaming`` (:func:`streaming`): 2,000 idle event streams with heartbeats while the
  same probes run, then the delay of each event to 200 streams of one busy game. Targets:
  heartbeats flowing; 95% of the streams have an event within 50 ms of its save.

Rate limits, when the app has them, and the cap on games per address are switched off through
the environment (:data:`UNLIMITED_ENV`): the benchmark measures the work of a request, not a
limiter's 429 or the cap's 403.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, redirect_stderr
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final

import redis

from api.app import create_app
from api.http.limits import LIMIT_SETTINGS
from api.runtime.redis_server import HOST, EmbeddedRedis
from api.runtime.serve import default_workers
from api.worker.run import WorkerPool
from engine import PLAYING, Rules, Settings, apply, legal_actions, new_game
from engine.actions import DECLARE_ACTION
from engine.cards import card_code
from engine.scoring import DECLARE_TARGET

GUNICORN_CONF: Final = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"
#: Environment that turns every rate limit of the app off for the run (with one left on,
#: flask-limiter is installed and costs every request), and the cap on games per address (200
#: by default: the act phase, one client address, creates that many in seconds).
UNLIMITED_ENV: Final = {**{name: "off" for name in LIMIT_SETTINGS},
                        "SIXTYSIX_MAX_GAMES_PER_ADDRESS": "0"}
BARE: Final = "bare"
PHASES: Final = ("ceiling", "view", "act", BARE)
PACED: Final = "paced"
#: The request kind whose row carries a phase's CPU figures.
MAIN_KIND: Final = {"ceiling": "ceiling", "view": "view", "act": "act", BARE: BARE, PACED: "act"}
CLOCK_TICKS: Final = os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- load generator


class HttpConnection:
    """One keep-alive HTTP/1.1 connection; responses need ``Content-Length`` (gunicorn's)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: str = "",
                      body: bytes = b"") -> tuple[int, dict[bytes, bytes], bytes]:
        """Send one request; the status, the headers (lower-case names) and the body."""
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{headers}"
                f"Content-Length: {len(body)}\r\n\r\n")
        self._writer.write(head.encode() + body)
        status_line = await self._reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split(b" ", 2)[1])
        fields: dict[bytes, bytes] = {}
        while (line := await self._reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            fields[name.strip().lower()] = value.strip()
        data = await self._reader.readexactly(int(fields.get(b"content-length", b"0")))
        if fields.get(b"connection", b"").lower() == b"close":
            self.close()
        return status, fields, data

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


@dataclass(slots=True)
class Tally:
    """Latencies (seconds) and failures of one request kind."""

    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


@dataclass(slots=True)
class Hand:
    """A game on the server and the planned actions of its first hand: (token, body)."""

    game_id: str
    tokens: list[str]
    plan: list[tuple[int, bytes]]
    done: int = 0


def plan_hand(rng: random.Random) -> tuple[list[str], list[tuple[int, bytes]]]:
    """A shuffled sixty-six deck and random legal actions (seat, JSON body) to its settlement.

    The players act like people, not like a fuzzer: a seat declares "66" as soon as it may
    and never falsely (a random false declaration would end most hands after a few tricks).
    """
    rules = Rules.make("sixty-six", {})
    deck = [card_code(c) for c in rules.variant.deck]
    rng.shuffle(deck)
    state, _ = new_game(rules, Settings(), first_dealer=0, decks=[deck])
    plan: list[tuple[int, bytes]] = []
    while state.status == PLAYING:
        seat = state.to_act()
        assert seat is not None
        legal = legal_actions(state, seat)
        if DECLARE_ACTION in legal and state.credited_points(
                state.side_of(seat)) >= DECLARE_TARGET:
            action = DECLARE_ACTION
        else:
            action = rng.choice([a for a in legal if a != DECLARE_ACTION])
        apply(state, seat, action)
        plan.append((seat, json.dumps(action.as_dict()).encode()))
    return deck, plan


def create_body(deck: list[str]) -> bytes:
    """``POST /v1/games`` body of a human-vs-human game dealt from ``deck``."""
    return json.dumps({"seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}],
                       "deck": deck, "first_dealer": 0}).encode()


class Player:
    """One connection's requests: a closed loop, or paced (see :func:`_run_paced`)."""

    def __init__(self, host: str, port: int, seed: int, tallies: dict[str, Tally],
                 slot: int = 0) -> None:
        self.http = HttpConnection(host, port)
        self.slot = slot  # which bare record is this connection's (see bare_records)
        self.rng = random.Random(seed)
        self.tallies = tallies
        self.hand: Hand | None = None

    async def timed(self, kind: str, method: str, path: str, headers: str = "",
                    body: bytes = b"", due: float | None = None,
                    ) -> tuple[int, dict[bytes, bytes], bytes] | None:
        """Send a request; its latency counts from ``due`` (when it was due) if given."""
        start = time.perf_counter() if due is None else due
        try:
            answer = await self.http.request(method, path, headers, body)
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.http.close()
            self.tallies[kind].error(type(exc).__name__)
            return None
        self.tallies[kind].latencies.append(time.perf_counter() - start)
        return answer

    async def new_hand(self, due: float | None = None) -> None:
        deck, plan = plan_hand(self.rng)
        answer = await self.timed("create", "POST", "/v1/games",
                                  "Content-Type: application/json\r\n", create_body(deck), due)
        if answer is None or answer[0] != 201:
            if answer is not None:
                self.tallies["create"].error(str(answer[0]))
            self.hand = None
            return
        created = json.loads(answer[2])
        self.hand = Hand(created["game_id"], [s["token"] for s in created["seats"]], plan)

    async def ceiling(self) -> None:
        answer = await self.timed("ceiling", "GET", "/healthz")
        if answer is not None and answer[0] != 200:
            self.tallies["ceiling"].error(str(answer[0]))

    async def view(self) -> None:
        if self.hand is None:
            await self.new_hand()
            return
        token = self.hand.tokens[self.rng.randrange(2)]
        answer = await self.timed("view", "GET", f"/v1/games/{self.hand.game_id}",
                                  f"Authorization: Bearer {token}\r\n")
        if answer is not None and answer[0] != 200:
            self.tallies["view"].error(str(answer[0]))

    async def act(self, due: float | None = None) -> None:
        hand = self.hand
        if hand is None or hand.done == len(hand.plan):
            await self.new_hand(due)
            return
        seat, body = hand.plan[hand.done]
        answer = await self.timed(
            "act", "POST", f"/v1/games/{hand.game_id}/actions",
            f"Authorization: Bearer {hand.tokens[seat]}\r\nContent-Type: application/json\r\n"
            f'If-Match: "{hand.done + 1}"\r\n', body, due)
        if answer is None:
            self.hand = None
        elif answer[0] != 200 or answer[1].get(b"etag") != f'"{hand.done + 2}"'.encode():
            self.tallies["act"].error(str(answer[0]))
            self.hand = None
        else:
            hand.done += 1


    async def bare(self) -> None:
        """The bare stack's action (:mod:`tests.bench.bench_bare_app`) on this connection's record,
        with the headers and body of an action."""
        answer = await self.timed(
            BARE, "POST", f"/bare/{self.slot}",
            f"Authorization: Bearer {'t' * 43}\r\nContent-Type: application/json\r\n"
            'If-Match: "1"\r\n', b'{"type":"play","card":"QH"}')
        if answer is not None and answer[0] != 200:
            self.tallies[BARE].error(str(answer[0]))


async def _run_phase(players: list[Player], step: Callable[[Player], Any],
                     duration: float) -> None:
    deadline = time.perf_counter() + duration

    async def loop(player: Player) -> None:
        while time.perf_counter() < deadline:
            await step(player)

    await asyncio.gather(*(loop(p) for p in players))


async def _run_paced(players: list[Player], rate: float, duration: float) -> None:
    """Players acting at Poisson arrival times, ``rate`` requests per second in all."""
    deadline = time.perf_counter() + duration
    per_player = rate / len(players)

    async def loop(player: Player) -> None:
        due = time.perf_counter() + player.rng.expovariate(per_player)
        while due < deadline:
            if (wait := due - time.perf_counter()) > 0:
                await asyncio.sleep(wait)
            await player.act(due)
            due += player.rng.expovariate(per_player)

    await asyncio.gather(*(loop(p) for p in players))


def generate(port: int, connections: int, duration: float, seed: int, out: Connection,
             bare_port: int | None = None) -> None:
    """The load-generator process: run the phases it is sent (name, offered rate or None) until
    it gets None; answer each with its tallies and CPU time. The ``bare`` phase goes to the
    bare stack on ``bare_port``."""

    async def main() -> None:
        while (order := out.recv()) is not None:  # the server side is ready to measure
            phase, rate = order
            tallies = {kind: Tally() for kind in ("ceiling", "view", "act", BARE, "create")}
            target = bare_port if phase == BARE and bare_port is not None else port
            players = [Player(HOST, target, seed * 1000 + i, tallies, i)
                       for i in range(connections)]
            if phase == "view":  # one game per connection to look at, made before the clock
                await asyncio.gather(*(p.new_hand() for p in players))
                tallies["create"] = Tally()
            cpu = _own_cpu()
            start = time.perf_counter()
            if phase == PACED:
                await _run_paced(players, rate, duration)
            else:
                step = {"ceiling": Player.ceiling, "view": Player.view, "act": Player.act,
                        BARE: Player.bare}[phase]
                await _run_phase(players, step, duration)
            wall = time.perf_counter() - start
            for p in players:
                p.http.close()
            out.send((phase, wall, _own_cpu() - cpu,
                      {k: (t.latencies, t.errors) for k, t in tallies.items()}))

    asyncio.run(main())


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# --------------------------------------------------------------------------- the server side


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc)."""
    out = [pid]
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            children = Path(f"/proc/{pid}/task/{tid}/children").read_text().split()
        except OSError:
            continue
        for child in children:
            out += _tree(int(child))
    return out


def _machine_busy() -> float:
    """CPU seconds all processes of the machine have used (``/proc/stat``: not idle, iowait)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(values) - values[3] - values[4]) / CLOCK_TICKS


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` so far (those still alive)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


@dataclass(frozen=True, slots=True)
class Stack:
    """A served API: its port, gunicorn's pid, redis-server's pid and URL, gunicorn's
    environment (a bare stack beside it gets the same) and a directory for logs."""

    port: int
    gunicorn_pid: int
    redis_pid: int
    redis_url: str
    env: dict[str, str]
    tmp: Path


@contextmanager
def served(workers: int | None, threads: int | None, extra_env: dict[str, str] | None = None,
           tree: Path | None = None) -> Iterator[tuple[int, int, int]]:
    """Redis (AOF on), gunicorn as ``deploy/gunicorn.conf.py`` runs it and a worker process
    per core for the computers: (port, gunicorn pid, redis pid); ``extra_env`` is added to
    gunicorn's environment. ``tree``: serve another source tree of the project instead (its
    own ``deploy/gunicorn.conf.py``, on ``PYTHONPATH``), with worker processes only if it has
    a worker tier (``api/worker/``): an older revision, to measure before and after."""
    with served_stack(workers, threads, extra_env, tree) as stack:
        yield stack.port, stack.gunicorn_pid, stack.redis_pid


@contextmanager
def served_stack(workers: int | None, threads: int | None,
                 extra_env: dict[str, str] | None = None,
                 tree: Path | None = None) -> Iterator[Stack]:
    """:func:`served`, as a :class:`Stack`."""
    with tempfile.TemporaryDirectory(prefix="sixtysix-bench-") as tmp, \
            EmbeddedRedis(Path(tmp), appendonly=True) as redis_server:
        port = _free_port()
        env = {**os.environ, **UNLIMITED_ENV, "REDIS_URL": redis_server.url,
               "SIXTYSIX_BIND": f"{HOST}:{port}", "SIXTYSIX_LOG_LEVEL": "warning",
               **(extra_env or {})}
        if workers:
            env["WEB_CONCURRENCY"] = str(workers)
        if threads:
            env["SIXTYSIX_THREADS"] = str(threads)
        conf = GUNICORN_CONF
        if tree is not None:
            env["PYTHONPATH"] = str(tree.resolve())
            conf = tree / "deploy" / "gunicorn.conf.py"
        server = _gunicorn(env, Path(tmp) / "gunicorn.log", conf=conf, cwd=tree)
        pool = WorkerPool(0 if tree is not None and not (tree / "api" / "worker").is_dir()
                          else default_workers(), env,
                          lambda line: print(line, file=sys.stderr),
                          scheduler=False).start()  # the computers' moves, as serve runs them
        try:
            _wait_healthy(f"http://{HOST}:{port}/healthz", server, Path(tmp) / "gunicorn.log")
            _wait_idle(server.pid)
            yield Stack(port, server.pid, _redis_pid(redis_server.url), redis_server.url, env,
                        Path(tmp))
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:  # requests still waiting past its grace
                server.kill()
                server.wait()
            pool.stop()


def _gunicorn(env: dict[str, str], log: Path, *app: str, conf: Path = GUNICORN_CONF,
              cwd: Path | None = None) -> subprocess.Popen[bytes]:
    """gunicorn with ``conf`` (its app, or ``app``), in ``cwd``, output to ``log``."""
    with log.open("wb") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", str(conf), *app], env=env,
            stdout=output, stderr=subprocess.STDOUT, cwd=cwd)


@contextmanager
def bare_served(stack: Stack, connections: int, seed: int) -> Iterator[tuple[int, int]]:
    """The bare stack (:mod:`tests.bench.bench_bare_app`) beside ``stack``: the same gunicorn
    settings, environment and Redis, its records made by :func:`bare_records`;
    (port, gunicorn pid)."""
    bare_records(stack, connections, seed)
    port = _free_port()
    log = stack.tmp / "bare.log"
    server = _gunicorn({**stack.env, "SIXTYSIX_BIND": f"{HOST}:{port}"}, log,
                       "tests.bench.bench_bare_app:create_app()")
    try:
        _wait_healthy(f"http://{HOST}:{port}/healthz", server, log)
        _wait_idle(server.pid)
        yield port, server.pid
    finally:
        server.terminate()
        server.wait(30)


def _call(port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", body, method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read()


def bare_records(stack: Stack, connections: int, seed: int) -> int:
    """A real game's record, as the bare stack's: one hand is played through the API and the
    action whose answer has the median size is the template (its game hash as it was after
    that action, its answer, its events); each of ``connections`` records
    ``sixtysix:game:{bare-<n>}`` is a copy of that hash. Returns the answer's size in bytes."""
    from api.keys import game_key
    from tests.bench.bench_bare_app import store_records

    deck, plan = plan_hand(random.Random(seed))
    _, created = _call(stack.port, "/v1/games", create_body(deck), {})
    game = json.loads(created)
    client = redis.Redis.from_url(stack.redis_url)
    try:
        saved: list[tuple[bytes, dict[bytes, bytes]]] = []
        for i, (seat, body) in enumerate(plan):
            _, answer = _call(stack.port, f"/v1/games/{game['game_id']}/actions", body, {
                "Authorization": f"Bearer {game['seats'][seat]['token']}",
                "If-Match": f'"{i + 1}"'})
            saved.append((answer, client.hgetall(game_key(game["game_id"]))))
        answer, record = sorted(saved, key=lambda item: len(item[0]))[len(saved) // 2]
        store_records(client, record, answer, connections)
    finally:
        client.close()
    return len(answer)


def _redis_pid(url: str) -> int:
    client = redis.Redis.from_url(url)
    try:
        return int(client.info("server")["process_id"])
    finally:
        client.close()


def _wait_healthy(url: str, server: subprocess.Popen[bytes], log: Path,
                  timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {server.returncode}: "
                               f"{log.read_text(errors='replace')[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer within {timeout} s")
        time.sleep(0.1)


def _wait_idle(pid: int, timeout: float = 60.0, strict: bool = True) -> bool:
    """Wait until the process tree of ``pid`` uses under a tenth of a core: every worker has
    booted (answering /healthz needs only the first). Still busy after ``timeout`` seconds:
    ``RuntimeError`` if ``strict``, else ``False``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = _tree(pid)
        before = _cpu_seconds(pids)
        time.sleep(0.5)
        if _cpu_seconds(pids) - before < 0.05:
            return True
    if strict:
        raise RuntimeError(f"gunicorn still busy after {timeout} s")
    return False


# --------------------------------------------------------------------------- report


@dataclass(frozen=True, slots=True)
class Figures:
    kind: str
    count: int
    rps: float
    p50_ms: float
    p99_ms: float
    errors: dict[str, int]
    #: Server CPU milliseconds per request of the phase (all its kinds); 0 if not measured.
    server_ms: float = 0.0


def figures(kind: str, latencies: list[float], errors: dict[str, int], wall: float,
            server_ms: float = 0.0) -> Figures:
    ordered = sorted(latencies)

    def pct(q: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    return Figures(kind, len(ordered), len(ordered) / wall, pct(0.50), pct(0.99), errors,
                   server_ms)


def say_bare(act: Figures, bare: Figures, say: Callable[[str], None],
             create: Figures | None = None) -> None:
    """The act path against the bare stack of its storage work (:mod:`tests.bench.bench_bare_app`):
    the ratio of throughputs (actions only, and with the act phase's creations, which are
    requests of about an action's cost), the server CPU milliseconds per request of each
    phase, and the load average."""
    with_creates = "" if create is None else (
        f", {(act.rps + create.rps) / bare.rps:.2f} counting creations")
    say(f"act/bare throughput: {act.rps / bare.rps:.2f}{with_creates} (act {act.rps:.1f} "
        f"actions/s, bare "
        f"{bare.rps:.1f} req/s); server CPU per request: act {act.server_ms:.2f} ms, bare "
        f"{bare.server_ms:.2f} ms; load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


def run(connections: int, duration: float, workers: int | None, threads: int | None,
        seed: int, say: Callable[[str], None], pace: float = 0.5,
        only: tuple[str, ...] = PHASES) -> dict[str, Figures]:
    """Serve, load, and return the figures of each request kind (also said as a table); those
    of the paced phase are under ``paced act`` and ``paced create``. ``only`` chooses among
    :data:`PHASES` (the paced phase follows the act phase)."""
    results: dict[str, Figures] = {}
    chosen = tuple(p for p in PHASES if p in only)
    phases = (*chosen, PACED) if pace > 0 and "act" in chosen else chosen
    with ExitStack() as running:
        stack = running.enter_context(served_stack(workers, threads))
        port, gunicorn_pid, redis_pid = stack.port, stack.gunicorn_pid, stack.redis_pid
        bare_port, bare_pid = running.enter_context(
            bare_served(stack, connections, seed)) if BARE in phases else (None, gunicorn_pid)
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        generator = ctx.Process(target=generate,
                                args=(port, connections, duration, seed, theirs, bare_port))
        generator.start()
        say(f"gunicorn ({GUNICORN_CONF.name}) on {HOST}:{port}, {connections} connections, "
            f"{duration:g} s per phase, {os.cpu_count()} cores")
        say(f"{'phase':8} {'kind':8} {'requests':>9} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}"
            f"  {'cpu: server':>11} {'ms/req':>6} {'redis':>6} {'loadgen':>7} {'others':>6}"
            "  errors")
        try:
            for phase in phases:
                rate = None
                if phase == PACED:  # the act phase's requests per second, creations included
                    rate = pace * (results["act"].rps + results["create"].rps)
                    say(f"{PACED}: {pace:g} × act capacity = {rate:.1f} req/s offered, "
                        "latency from the time each request was due")
                server_pids = _tree(bare_pid if phase == BARE else gunicorn_pid)
                before = (_cpu_seconds(server_pids), _cpu_seconds([redis_pid]),
                          _machine_busy())
                ours.send((phase, rate))
                _, wall, gen_cpu, tallies = ours.recv()
                server_cpu = (_cpu_seconds(server_pids) - before[0]) / wall
                redis_cpu = (_cpu_seconds([redis_pid]) - before[1]) / wall
                gen_cpu /= wall
                others = (_machine_busy() - before[2]) / wall - server_cpu - redis_cpu - gen_cpu
                served_rps = sum(len(lat) for lat, _ in tallies.values()) / wall
                for kind, (latencies, errors) in tallies.items():
                    if not latencies and not errors:
                        continue
                    f = figures(kind, latencies, errors, wall,
                                1000 * server_cpu / served_rps if served_rps else 0.0)
                    results[kind if phase != PACED else f"{PACED} {kind}"] = f
                    cpu = (f"{server_cpu:11.2f} {f.server_ms:6.2f} "
                           f"{redis_cpu:6.2f} {gen_cpu:7.2f} {others:6.2f}"
                           if kind == MAIN_KIND[phase] else " " * 41)
                    say(f"{phase:8} {kind:8} {f.count:9d} {f.rps:9.1f} {f.p50_ms:8.2f} "
                        f"{f.p99_ms:8.2f}  {cpu}  {f.errors or ''}")
        finally:
            ours.send(None)
            generator.join(duration * len(phases) + 60)
            if generator.is_alive():
                generator.kill()
    for kind in ("act", "view"):
        if kind in results and "ceiling" in results:
            say(f"{kind}/ceiling throughput: {results[kind].rps / results['ceiling'].rps:.2f}")
    if "act" in results and BARE in results:
        say_bare(results["act"], results[BARE], say, results.get("create"))
    if f"{PACED} act" in results:
        paced, closed = results[f"{PACED} act"], results["act"]
        say(f"act latency, paced at {pace:g} of capacity: p50 {paced.p50_ms:.2f} ms, "
            f"p99 {paced.p99_ms:.2f} ms (closed loop: p50 {closed.p50_ms:.2f} ms, "
            f"p99 {closed.p99_ms:.2f} ms)")
    return results


def in_process(hands: int, seed: int, say: Callable[[str], None]) -> dict[str, float]:
    """CPU milliseconds per request of the app alone: Flask's test client, a real redis-server,
    ``hands`` whole hands of actions, then as many views and bare requests (``/healthz``).
    Request logs are written, to /dev/null."""
    rng = random.Random(seed)
    cost: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="sixtysix-bench-") as tmp, \
            EmbeddedRedis(Path(tmp)) as redis_server, open(os.devnull, "w") as sink, \
            redirect_stderr(sink):
        client = create_app({"REDIS_URL": redis_server.url,
                             "RATELIMIT_ENABLED": False}).test_client()
        games: list[Hand] = []
        for _ in range(hands):
            deck, plan = plan_hand(rng)
            created = client.post("/v1/games", data=create_body(deck),
                                  content_type="application/json").get_json()
            games.append(Hand(created["game_id"], [s["token"] for s in created["seats"]], plan))

        def timed(kind: str, requests: Iterator[tuple[str, str, dict[str, str], bytes]]) -> None:
            start, n = time.thread_time(), 0
            for method, path, headers, body in requests:
                answer = client.open(path, method=method, headers=headers, data=body)
                if answer.status_code != 200:
                    raise RuntimeError(f"{kind}: {answer.status_code} {answer.get_data()!r}")
                n += 1
            cost[kind] = 1000 * (time.thread_time() - start) / n

        def actions() -> Iterator[tuple[str, str, dict[str, str], bytes]]:
            for hand in games:
                for i, (seat, body) in enumerate(hand.plan):
                    yield "POST", f"/v1/games/{hand.game_id}/actions", {
                        "Authorization": f"Bearer {hand.tokens[seat]}",
                        "Content-Type": "application/json", "If-Match": f'"{i + 1}"'}, body

        count = sum(len(hand.plan) for hand in games)
        timed("act", actions())
        timed("view", (("GET", f"/v1/games/{games[i % hands].game_id}",
                        {"Authorization": f"Bearer {games[i % hands].tokens[i % 2]}"}, b"")
                       for i in range(count)))
        timed("ceiling", (("GET", "/healthz", {}, b"") for _ in range(count)))
    say(f"in-process (no HTTP server), CPU ms per request over {count} of each: "
        f"ceiling {cost['ceiling']:.3f}, view {cost['view']:.3f}, act {cost['act']:.3f}; "
        f"act/ceiling {cost['ceiling'] / cost['act']:.2f}")
    return cost


# --------------------------------------------------------------------------- computer load

#: The loads of the computer-load phase, in order; ``idle`` is the baseline of the same run.
LOADS: Final = ("idle", "computers", "analysis", "long-polls", "slowloris")
PROBE_TIMEOUT: Final = 10.0
#: Seconds a load may take to settle (gunicorn under a tenth of a core) before probing; a web
#: tier that computes (the old model) never does.
SETTLE_TIMEOUT: Final = 10.0
JSON_HEADER: Final = "Content-Type: application/json\r\n"
#: The probe of :func:`control_server`.
CONTROL: Final = "control"
#: Added to the load generator's nice value: its clients stand for players on other
#: machines, so it yields the CPU to the server (and the probes) it shares this one with,
#: though not to worker processes niced further (SIXTYSIX_WORKER_NICE, 10).
LOADGEN_NICE: Final = 5


@dataclass(slots=True)
class LoadStats:
    """What a load did: latencies (seconds) of its own requests and counted outcomes."""

    latencies: list[float] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n


async def _json_call(http: HttpConnection, method: str, path: str, headers: str = "",
                     body: Any = None) -> tuple[int, dict[bytes, bytes], Any]:
    data = b"" if body is None else json.dumps(body).encode()
    status, fields, raw = await http.request(method, path, headers + JSON_HEADER, data)
    return status, fields, json.loads(raw) if raw else None


async def _two_humans(http: HttpConnection) -> tuple[str, list[str], dict[str, Any]]:
    """A new two-human game: its id, the seats' tokens and the view of the seat to act."""
    status, _, created = await _json_call(http, "POST", "/v1/games", body={
        "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
    if status != 201:
        raise RuntimeError(f"create answered {status}: {created}")
    tokens = [seat["token"] for seat in created["seats"]]
    for token in tokens:
        _, _, view = await _json_call(http, "GET", f"/v1/games/{created['game_id']}",
                                      f"Authorization: Bearer {token}\r\n")
        if view["legal_actions"]:
            return created["game_id"], tokens, view
    raise RuntimeError("no seat of a new game may act")


async def _play_computers(port: int, seed: int, level: str, stats: LoadStats,
                          stop: asyncio.Event) -> None:
    """One client playing whole hands against a ``level`` computer: random legal actions (a
    declaration only when nothing else is legal), a new game when the hand is over. Each
    action waits for the computer's reply (the default ``POST .../actions``)."""
    http, rng = HttpConnection(HOST, port), random.Random(seed)
    while not stop.is_set():
        try:
            status, _, created = await _json_call(http, "POST", "/v1/games", body={
                "seats": [{"kind": "human", "name": "A"},
                          {"kind": "computer", "level": level}]})
            if status != 201:
                stats.count(f"create {status}")
                await asyncio.sleep(0.5)
                continue
            game_id = created["game_id"]
            auth = f"Authorization: Bearer {created['seats'][0]['token']}\r\n"
            _, _, view = await _json_call(http, "GET", f"/v1/games/{game_id}", auth)
            while not stop.is_set() and view["status"] == PLAYING:
                if not view["legal_actions"]:  # the computer is still thinking
                    _, _, polled = await _json_call(
                        http, "GET", f"/v1/games/{game_id}?after_version={view['version']}"
                        "&wait=10", auth)
                    stats.count("computer moves", polled["version"] - view["version"])
                    view = polled
                    continue
                legal = [a for a in view["legal_actions"] if a["type"] != "declare"]
                start = time.perf_counter()
                status, _, answer = await _json_call(
                    http, "POST", f"/v1/games/{game_id}/actions", auth,
                    rng.choice(legal or view["legal_actions"]))
                if status != 200:
                    stats.count(f"action {status}")
                    break
                stats.latencies.append(time.perf_counter() - start)
                stats.count("actions")
                stats.count("computer moves", answer["version"] - view["version"] - 1)
                view = answer
            if view["status"] != PLAYING:
                stats.count("hands")
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            stats.count(type(exc).__name__)
            http.close()
            await asyncio.sleep(0.5)
    http.close()


async def _analyse(port: int, position: dict[str, Any], stats: LoadStats,
                   stop: asyncio.Event) -> None:
    """One unauthenticated client asking ``POST /v1/analysis`` of ``position`` again and
    again; a 503 is counted by its problem type and its ``Retry-After`` honoured."""
    http = HttpConnection(HOST, port)
    while not stop.is_set():
        start = time.perf_counter()
        try:
            status, fields, answer = await _json_call(http, "POST", "/v1/analysis",
                                                      body=position)
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            stats.count(type(exc).__name__)
            http.close()
            await asyncio.sleep(0.5)
            continue
        if status == 200:
            stats.latencies.append(time.perf_counter() - start)
            stats.count("analysed")
            continue
        stats.count(f"{status} {str(answer.get('type', '')).rsplit('/', 1)[-1]}")
        http.close()  # the server would close it, idle, while we wait
        await asyncio.sleep(float(fields.get(b"retry-after", b"1")))
    http.close()


async def _long_poll(port: int, game_id: str, token: str, stats: LoadStats,
                     stop: asyncio.Event) -> None:
    """One long-poll (``?after_version=1&wait=30``) waiting on a game where nothing moves;
    asked again when answered."""
    http = HttpConnection(HOST, port)
    while not stop.is_set():
        try:
            status, fields, _ = await http.request(
                "GET", f"/v1/games/{game_id}?after_version=1&wait=30",
                f"Authorization: Bearer {token}\r\n")
            stats.count(f"answered {status}")
            if status != 200:  # as a client should: not again at once
                http.close()
                await asyncio.sleep(float(fields.get(b"retry-after", b"1")))
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            stats.count(type(exc).__name__)
            http.close()
            await asyncio.sleep(0.5)
    http.close()


async def _slowloris(port: int, index: int, stats: LoadStats, stop: asyncio.Event) -> None:
    """A half-sent request: the request line and one header, then another header line every
    second, never the blank line; reconnects when the server closes it."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError as exc:
            stats.count(type(exc).__name__)
            await asyncio.sleep(0.5)
            continue
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n".encode())
        closed = asyncio.ensure_future(reader.read(1))
        line = 0
        while not stop.is_set() and not closed.done():
            await asyncio.wait([closed], timeout=1.0)
            line += 1
            try:
                writer.write(f"X-Slow-{index}-{line}: {'x' * 8}\r\n".encode())
                await writer.drain()
            except OSError:
                break
        if not stop.is_set():
            stats.count("closed by the server")
        closed.cancel()
        writer.close()


async def _start_load(port: int, load: str, size: int, seed: int, level: str,
                      stats: LoadStats, stop: asyncio.Event) -> list[asyncio.Task[None]]:
    """Set ``load`` up (``size`` clients, streams or sockets) and start its tasks."""
    if load == "computers":
        coros = [_play_computers(port, seed * 1000 + i, level, stats, stop) for i in range(size)]
    elif load == "analysis":
        http = HttpConnection(HOST, port)
        _, _, position = await _two_humans(http)
        http.close()
        coros = [_analyse(port, position, stats, stop) for _ in range(size)]
    elif load == "long-polls":
        http = HttpConnection(HOST, port)
        games = [await _two_humans(http) for _ in range((size + 1) // 2)]
        http.close()
        seats = [(game_id, token) for game_id, tokens, _ in games for token in tokens]
        coros = [_long_poll(port, g, t, stats, stop) for g, t in seats[:size]]
    elif load == "slowloris":
        coros = [_slowloris(port, i, stats, stop) for i in range(size)]
    else:
        coros = []
    tasks = [asyncio.ensure_future(c) for c in coros]
    await asyncio.sleep(1.0 if tasks else 0)  # every client has sent its first request
    return tasks


def load_generator(port: int, seed: int, level: str, out: Connection) -> None:
    """The process of the loads: for each (load, size) it is sent, set it up, answer "ready",
    run it until told "stop", then answer its :class:`LoadStats`; ends on None. Runs
    :data:`LOADGEN_NICE` niced."""
    os.nice(LOADGEN_NICE)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        while (order := await loop.run_in_executor(None, out.recv)) is not None:
            load, size = order
            stats, stop = LoadStats(), asyncio.Event()
            tasks = await _start_load(port, load, size, seed, level, stats, stop)
            out.send("ready")
            await loop.run_in_executor(None, out.recv)  # "stop"
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            out.send(stats)

    asyncio.run(main())


def control_server(out: Connection) -> None:
    """The control probe's server, a process of its own at the normal priority: answers any
    request on a new connection with a fixed 200 and closes it, doing nothing else. What a
    probe of it takes is what the probe client and this machine's scheduler add by
    themselves (the floor under every other probe); it sends its port to ``out``."""
    body = b'{"status": "ok"}'
    answer = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    with socket.socket() as listener:
        listener.bind((HOST, 0))
        listener.listen(128)
        out.send(listener.getsockname()[1])
        while True:
            conn, _ = listener.accept()
            with conn:
                head = b""
                while b"\r\n\r\n" not in head and (chunk := conn.recv(4096)):
                    head += chunk
                conn.sendall(answer)


def _run_queue_wait(pids: list[int]) -> float:
    """Seconds the threads of ``pids`` have waited, runnable, for a CPU (Linux schedstat:
    the scheduling delay the kernel adds to their requests), those still alive."""
    total = 0
    for pid in pids:
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in threads:
            try:
                total += int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[1])
            except (OSError, IndexError):
                continue
    return total / 1e9


def _probe_once(port: int, path: str, token: str | None) -> float | None:
    """One request on a new connection: its latency in seconds, None if it failed."""
    import http.client

    start = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=PROBE_TIMEOUT)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
        response = conn.getresponse()
        response.read()
        return time.perf_counter() - start if response.status == 200 else None
    except OSError:
        return None
    finally:
        conn.close()


def probe(port: int, view_path: str, token: str, duration: float, interval: float = 0.025,
          control: int | None = None) -> dict[str, Tally]:
    """``GET /healthz`` and ``GET view_path`` (a human seat's view) in turn, one every
    ``interval`` seconds on a new connection each, for ``duration`` seconds; with
    ``control`` (the port of :func:`control_server`) a third probe, ``control``, of it."""
    kinds = ("healthz", "view") + (() if control is None else (CONTROL,))
    tallies = {kind: Tally() for kind in kinds}
    deadline = time.perf_counter() + duration
    turn = 0
    while time.perf_counter() < deadline:
        kind = kinds[turn % len(kinds)]
        if kind == CONTROL:
            latency = _probe_once(control or 0, "/", None)
        else:
            latency = _probe_once(port, "/healthz" if kind == "healthz" else view_path,
                                  None if kind == "healthz" else token)
        if latency is None:
            tallies[kind].error("failed")
        else:
            tallies[kind].latencies.append(latency)
        turn += 1
        time.sleep(interval)
    return tallies


def _pct_ms(ordered: list[float], q: float) -> float:
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def computer_load(duration: float, sizes: dict[str, int], level: str, seed: int,
                  say: Callable[[str], None], tree: Path | None = None,
                  loads: tuple[str, ...] = LOADS, env: dict[str, str] | None = None,
                  ) -> dict[str, dict[str, list[float]]]:
    """The computer-load phase: for each of :data:`LOADS` (``idle`` first, the baseline),
    set the load up, wait until gunicorn has served its first burst (under a tenth of a core,
    at most :data:`SETTLE_TIMEOUT`: the steady state, e.g. 500 long-polls waiting rather than
    arriving), probe
    ``/healthz`` and a human seat's view for ``duration`` seconds
    (:func:`probe`, with the :func:`control_server` probe: the floor the probe client and the
    machine set), and say p50/p95/p99/max, failures, the load average, where the CPU went
    (cores: gunicorn, the worker processes, redis-server, the load generator, the rest of the
    machine), how long gunicorn's and Redis' threads waited for a CPU (``runq``, ms per
    second: the kernel's scheduling delay, which the workers' priority is meant to keep
    near zero) and what the load did. Returns each load's sorted probe latencies per kind.
    ``loads``: a subset of :data:`LOADS`; ``env``: added to the server's environment."""
    env = {"SIXTYSIX_MAX_GAMES_PER_ADDRESS": "1000000", **(env or {})}
    out: dict[str, dict[str, list[float]]] = {}
    ctx = multiprocessing.get_context("spawn")
    control_out, control_in = ctx.Pipe()
    control = ctx.Process(target=control_server, args=(control_in,), daemon=True)
    control.start()
    control_port = control_out.recv()
    with served(None, None, env, tree) as (port, gunicorn_pid, redis_pid):
        base = f"http://{HOST}:{port}"
        request = urllib.request.Request(f"{base}/v1/games", method="POST", data=json.dumps(
            {"seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT) as response:
            watched = json.loads(response.read())
        view_path, token = f"/v1/games/{watched['game_id']}", watched["seats"][0]["token"]
        ours, theirs = ctx.Pipe()
        generator = ctx.Process(target=load_generator, args=(port, seed, level, theirs))
        generator.start()
        say(f"{'served tree ' + str(tree) if tree else 'this tree'}: gunicorn on {HOST}:{port}, "
            f"{os.cpu_count()} cores; probes on new connections, {duration:g} s per load; "
            f"computers: {level}; target p99 <= 50 ms"
            + "".join(f"; {k}={v}" for k, v in env.items()
                      if k != "SIXTYSIX_MAX_GAMES_PER_ADDRESS"))
        say(f"{'load':16} {'probe':7} {'n':>5} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>8} "
            f"{'fail':>4}  {'load1':>5}  {'cpu: web':>8} {'workers':>7} {'redis':>5} "
            f"{'loadgen':>7} {'others':>6} {'runq':>5}  the load")
        try:
            for load in loads:
                size = sizes.get(load, 0)
                ours.send((load, size))
                if ours.recv() != "ready":
                    raise RuntimeError(f"the {load} load did not start")
                settled = time.perf_counter()  # the load's first burst served: steady state
                idle = _wait_idle(gunicorn_pid, SETTLE_TIMEOUT, strict=False)
                settled = time.perf_counter() - settled
                web, ours_tree = _tree(gunicorn_pid), _tree(os.getpid())
                workers = [p for p in ours_tree if p not in web and p not in
                           (redis_pid, generator.pid, os.getpid())]
                groups = [web, workers, [redis_pid], [generator.pid or 0]]
                before = [_cpu_seconds(g) for g in groups] + [_machine_busy()]
                waited = _run_queue_wait([*web, redis_pid])
                start = time.perf_counter()
                tallies = probe(port, view_path, token, duration, control=control_port)
                wall = time.perf_counter() - start
                used = [(_cpu_seconds(g) - b) / wall for g, b in zip(groups, before, strict=False)]
                others = (_machine_busy() - before[-1]) / wall - sum(used)
                runq = 1000 * (_run_queue_wait([*web, redis_pid]) - waited) / wall
                load1 = os.getloadavg()[0]
                ours.send("stop")
                stats: LoadStats = ours.recv()
                own = sorted(stats.latencies)
                did = ", ".join([f"settled in {settled:.1f} s" if idle else
                                 f"still busy after {settled:.0f} s"] + [
                    f"{k} {v}" for k, v in sorted(stats.counts.items())])
                if own:
                    did += (f"; its requests p50 {_pct_ms(own, .5):.0f} ms, "
                            f"p95 {_pct_ms(own, .95):.0f} ms")
                label = f"{load} {size}" if size else load
                out[label] = {}
                for i, (kind, tally) in enumerate(tallies.items()):
                    ordered = sorted(tally.latencies)
                    out[label][kind] = ordered
                    cpu = (f"{used[0]:8.2f} {used[1]:7.2f} {used[2]:5.2f} {used[3]:7.2f} "
                           f"{others:6.2f} {runq:5.1f}  {did}" if i == 0 else "")
                    say(f"{label:16} {kind:7} {len(ordered):5d} {_pct_ms(ordered, .5):7.1f} "
                        f"{_pct_ms(ordered, .95):7.1f} {_pct_ms(ordered, .99):7.1f} "
                        f"{1000 * max(ordered, default=float('nan')):8.1f} "
                        f"{sum(tally.errors.values()):4d}  {load1:5.2f}  {cpu}")
        finally:
            ours.send(None)
            generator.join(30)
            if generator.is_alive():
                generator.kill()
            control.kill()
    missed = [f"{load} {kind}" for load, kinds in out.items() for kind, lat in kinds.items()
              if kind != CONTROL and (not lat or _pct_ms(lat, .99) > 50)]
    say("p99 <= 50 ms: " + ("met by every probe" if not missed
                            else "missed by " + ", ".join(missed)))
    return out


# --------------------------------------------------------------------------- streaming


def streaming(streams: int, fanout: int, actions: int, duration: float, heartbeat: float,
              say: Callable[[str], None]) -> dict[str, float]:
    """The streaming phase: ``streams`` idle event streams (seat streams of two-human games)
    held open while ``/healthz`` and a seat's view are probed for ``duration`` seconds
    (:func:`probe`), counting the heartbeats that arrive (every ``heartbeat`` seconds); then,
    with them still open, ``fanout`` spectator streams of one more game and ``actions`` actions
    in it: when each stream got each event. Uses :mod:`tests.bench.bench_streams`' reader.
    Returns the figures said."""
    from tests.bench import bench_streams as bs  # it imports this module: not at the top

    limit = bs._raise_file_limit()
    env = {"SIXTYSIX_STREAM_HEARTBEAT": str(heartbeat),
           "SIXTYSIX_MAX_GAMES_PER_ADDRESS": "1000000"}
    out: dict[str, float] = {}
    with served(None, None, env) as (port, gunicorn_pid, _):
        reader = bs.Reader()
        try:
            opened_streams, games, took = bs.open_idle(reader, port, streams)
            opened = sum(s.opened for s in opened_streams)
            say(f"streaming: {opened} of {streams} idle streams open after {took:.1f} s "
                f"(open-file limit {limit}); gunicorn's memory "
                f"{bs._rss_mb(gunicorn_pid):.0f} MB; heartbeat {heartbeat:g} s")
            beats = sum(s.heartbeats for s in opened_streams)
            start = time.monotonic()
            tallies = probe(port, f"/v1/games/{games[0][0]}", games[0][1][0], duration)
            spent = time.monotonic() - start
            per_stream = (sum(s.heartbeats for s in opened_streams) - beats) / max(opened, 1)
            load1 = os.getloadavg()[0]
            for kind, tally in tallies.items():
                ordered = sorted(tally.latencies)
                out[f"{kind} p99 ms"] = _pct_ms(ordered, .99)
                say(f"  {kind:7} x{len(ordered)}: p50 {_pct_ms(ordered, .5):.1f} ms, p95 "
                    f"{_pct_ms(ordered, .95):.1f} ms, p99 {_pct_ms(ordered, .99):.1f} ms, max "
                    f"{1000 * max(ordered, default=float('nan')):.1f} ms, failed "
                    f"{sum(tally.errors.values())}; load average {load1:.2f}")
            out["heartbeats per stream"] = per_stream
            say(f"  heartbeats per stream in those {spent:.0f} s: {per_stream:.1f} (expected "
                f"{spent / heartbeat:.1f})")
            if fanout:
                fan = bs._fanout(reader, port, fanout, actions)
                out.update({f"fanout {k}": float(v) for k, v in fan.items()})
                say(f"  fan-out to {fan['streams']} streams of one game, {actions} actions: "
                    f"from sending the action p50 {fan['p50_ms']:.1f} ms, p95 "
                    f"{fan['p95_ms']:.1f} ms, max {fan['max_ms']:.1f} ms; 95% of streams had "
                    f"it {fan['p95_after_answer_ms']:.1f} ms after the answer (median over "
                    f"actions; target <= 50 ms); missed {fan['missed']}; load average "
                    f"{os.getloadavg()[0]:.2f}")
        finally:
            reader.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_http",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    add_arguments(parser)
    return run_args(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--connections", type=int, default=32,
                        help="concurrent keep-alive connections (default 32)")
    parser.add_argument("--duration", type=float, default=10.0,
                        help="seconds of each phase (default 10)")
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: the config's)")
    parser.add_argument("--threads", type=int,
                        help="threads per worker (default: the config's)")
    parser.add_argument("--seed", type=int, default=66, help="seed of the deals and choices")
    parser.add_argument("--pace", type=float, default=0.5,
                        help="offered load of the paced phase as a fraction of the act phase's "
                             "throughput (default 0.5; 0 skips the phase)")
    parser.add_argument("--phases", default=",".join(PHASES),
                        help=f"comma-separated phases to run (default {','.join(PHASES)})")
    parser.add_argument("--in-process", type=int, metavar="HANDS",
                        help="instead: CPU per request of the app alone (no HTTP server) "
                             "over HANDS whole hands")
    stream = parser.add_argument_group("streaming (instead of the phases above)")
    stream.add_argument("--streaming", action="store_true",
                        help="idle event streams, probes and fan-out (see streaming)")
    stream.add_argument("--streams", type=int, default=2000,
                        help="idle streams held open (default 2000)")
    stream.add_argument("--fanout", type=int, default=200,
                        help="spectator streams of the busy game (default 200)")
    stream.add_argument("--actions", type=int, default=20,
                        help="actions played in the busy game (default 20)")
    stream.add_argument("--heartbeat", type=float, default=5.0,
                        help="SIXTYSIX_STREAM_HEARTBEAT of the run, seconds (default 5)")
    load = parser.add_argument_group("computer load (instead of the phases above)")
    load.add_argument("--computer-load", action="store_true",
                      help="probe /healthz and a seat's view with no load, then under each "
                           "load below (see computer_load)")
    load.add_argument("--load-duration", type=float, default=20.0,
                      help="seconds of probing per load (default 20)")
    load.add_argument("--clients", type=int, default=16,
                      help="clients playing whole hands against computers (default 16)")
    load.add_argument("--level", default="strong", help="their computers' level (strong)")
    load.add_argument("--analyses", type=int, default=16,
                      help="clients asking POST /v1/analysis again and again (default 16)")
    load.add_argument("--long-polls", type=int, default=500,
                      help="long-polls waiting at once (default 500)")
    load.add_argument("--slowloris", type=int, default=40,
                      help="sockets holding a half-sent request (default 40)")
    load.add_argument("--loads", nargs="+", choices=LOADS, default=list(LOADS),
                      help="which loads, in order (default all; idle is the baseline)")
    load.add_argument("--server-env", nargs="*", default=[], metavar="NAME=VALUE",
                      help="more environment of the server and its workers, e.g. "
                           "SIXTYSIX_WORKER_NICE=0")
    load.add_argument("--before-tree", type=Path, metavar="DIR",
                      help="first the same against the project's source tree in DIR (an "
                           "older revision: git archive REV | tar -x -C DIR)")


def run_args(args: argparse.Namespace) -> int:
    """Run with parsed arguments; 0 if no request failed, else 1."""
    if args.in_process:
        in_process(args.in_process, args.seed, print)
        return 0
    if args.streaming:
        streaming(args.streams, args.fanout, args.actions, args.load_duration, args.heartbeat,
                  print)
        return 0
    if args.computer_load:
        sizes = {"computers": args.clients, "analysis": args.analyses,
                 "long-polls": args.long_polls, "slowloris": args.slowloris}
        for tree in ((args.before_tree,) if args.before_tree else ()) + (None,):
            computer_load(args.load_duration, sizes, args.level, args.seed, print, tree,
                          tuple(args.loads), dict(v.split("=", 1) for v in args.server_env))
        return 0
    only = tuple(p.strip() for p in args.phases.split(",") if p.strip())
    if unknown := set(only) - set(PHASES):
        raise SystemExit(f"--phases: unknown {', '.join(sorted(unknown))}; "
                         f"choose from {', '.join(PHASES)}")
    results = run(args.connections, args.duration, args.workers, args.threads, args.seed,
                  print, args.pace, only)
    return 1 if any(f.errors for f in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
