"""What a match costs in Redis and in the archive (issue K's targets): ``python -m
tests.bench.bench_storage [--matches 3]``; the long run: ``--long --matches 10000``.

Two bot players (``kind: bot``) play each match through HTTP, at a table one of them opens and
the other joins, random legal actions, every action with an ``Idempotency-Key`` (the client
sends one), against the app served by :class:`~api.runtime.local.LocalServer` on an embedded
Redis with the shipped cap (``256mb``, ``noeviction``). The workers' sweep
(:func:`api.worker.run.sweep_once`: the archive and whatever else it writes to the database)
runs on the bench's own clock. Windows are time-scaled: ``SIXTYSIX_ARCHIVE_GRACE`` 1 s,
``SIXTYSIX_IDEMPOTENCY_TTL`` ``--idempotency-ttl`` seconds; the rest as shipped.

Nothing here names a key: every figure is ``MEMORY USAGE`` (``SAMPLES 0``) summed over ALL
keys of the Redis, scanned before and after (a key's bytes then less its bytes before), so it
counts whatever keys a match leaves, under any layout. Per match, one match at a time:

* **live game**: what Redis holds more at the end of the match, before it is archived, and
  at mid-match (after half as many actions as the match before took);
* **after its grace**: once archived and its grace (1 s) passed, and the idempotency window too,
  the bytes that outlive a real grace (keys without expiry, or with more than the shipped
  ``SIXTYSIX_ARCHIVE_GRACE`` left; those with less, a write's record of 300 s say, would be
  gone after a real hour and are shown apart), by key kind (the key's first two ``:`` parts);
* **per idempotent action**: what leaves Redis when the idempotency window passes, over the
  match's actions;
* **archive per match**: the SQLite file's growth; PostgreSQL's ``pg_total_relation_size``
  summed over all its tables (after a ``VACUUM``), when its binaries are there
  (:mod:`tests.postgres`). Both grow by whole pages (16 KiB, 8 KiB), so over a few matches
  the bytes the rows use are shown too: SQLite's ``dbstat`` (page bytes less unused ones),
  PostgreSQL's ``pgstattuple`` (the tuples' bytes of every table, index and TOAST table).

A first match, not measured, makes the players' first entries (ratings, standings, lists).

The long run (``--long``) plays ``--matches`` matches with ``--pairs`` pairs of bots at once
(the archive on SQLite), a progress bar, Redis' ``used_memory`` printed every ``--every``
matches; it counts 507 answers (Redis full) and says whether ``used_memory`` stayed flat:
its growth over the second half of the run (first to last sample) in bytes per match, at most
:data:`FLAT`. Write records live 300 s whatever the scale, so a run of more than 300 s shows
them levelled off.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import random
import sqlite3
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import redis
from sqlalchemy import Connection, create_engine, text
from tqdm import tqdm

from api.clients.client import ApiError, SixtySixClient
from api.config import DEFAULTS
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from api.runtime.serve import DEFAULT_REDIS_MAXMEMORY
from api.worker.run import build_context, sweep_once
from tests.postgres import Postgres, binaries

#: The time-scaled grace of an archived game, seconds.
GRACE: Final = 1
#: A real grace: keys with less time left than this would be gone after it.
REAL_GRACE: Final = int(DEFAULTS["SIXTYSIX_ARCHIVE_GRACE"])
#: Seconds between two sweeps in the long run.
SWEEP_EVERY: Final = 0.5
#: The long run's ``used_memory`` is flat if it grows at most this many bytes a match.
FLAT: Final = 100
#: Keys per ``SCAN`` and per pipeline of ``MEMORY USAGE``.
BATCH: Final = 500

Snapshot = dict[bytes, tuple[int, int]]


def snapshot(client: redis.Redis) -> Snapshot:
    """Every key's ``MEMORY USAGE`` (all samples) and time left in ms (-1: none)."""
    keys = list(client.scan_iter(count=BATCH))
    out: Snapshot = {}
    for start in range(0, len(keys), BATCH):
        chunk = keys[start:start + BATCH]
        pipe = client.pipeline(transaction=False)
        for key in chunk:
            pipe.execute_command("MEMORY USAGE", key, "SAMPLES", 0)
            pipe.pttl(key)
        answers = pipe.execute()
        for i, key in enumerate(chunk):
            usage, ttl = answers[2 * i], answers[2 * i + 1]
            if usage is not None and ttl != -2:  # expired between the scan and the read
                out[key] = (int(usage), int(ttl))
    return out


def total(snap: Snapshot) -> int:
    return sum(usage for usage, _ in snap.values())


def kind(key: bytes) -> str:
    """A key's kind: its first two ``:``-separated parts, hash tags cut off."""
    return ":".join(key.decode(errors="replace").split(":")[:2]).split("{")[0].rstrip(":")


def left(before: Snapshot, after: Snapshot) -> tuple[dict[str, int], dict[str, int]]:
    """Per key kind, the bytes ``after`` holds more than ``before``: of keys that outlive a
    real grace, and of keys that would be gone after it (or were gone already)."""
    lasting: dict[str, int] = defaultdict(int)
    passing: dict[str, int] = defaultdict(int)
    for key in before.keys() | after.keys():
        was = before.get(key, (0, -1))[0]
        now, ttl = after.get(key, (0, 0))
        lasts = key in after and (ttl == -1 or ttl > REAL_GRACE * 1000)
        (lasting if lasts else passing)[kind(key)] += now - was
    return dict(lasting), dict(passing)


@dataclass
class Bots:
    """Two bot players of the service, their clients, and a seed of random actions."""

    anon: SixtySixClient
    players: list[SixtySixClient]
    rng: random.Random

    @classmethod
    def make(cls, url: str, number: int) -> Bots:
        anon = SixtySixClient(url)
        players = [anon.with_token(anon.create_player(f"Bench{number}{side}", "bot")["token"])
                   for side in "AB"]
        return cls(anon, players, random.Random(number))

    def match(self, midway: int = 0, at_mid: Callable[[], None] | None = None) -> int:
        """One match played to its end at a new table; the number of actions. ``at_mid`` is
        called once ``midway`` actions were played (if the match lasts that long)."""
        ann, bob = self.players
        table = ann.create_table([{"kind": "player"}, {"kind": "open"}])
        joined = bob.join_table(table["table_id"])["you"]
        mine = ann.table(table["table_id"])["you"]
        assert joined is not None and mine is not None
        game_id = joined["game_id"]
        seats = {joined["seat"]: self.anon.with_token(joined["token"]),
                 mine["seat"]: self.anon.with_token(mine["token"])}
        views: dict[int, Any] = {s: c.view(game_id) for s, c in seats.items()}
        for actions in itertools.count():
            if views[0]["status"] in ("match_over", "aborted"):
                return actions
            if actions == midway and at_mid is not None:
                at_mid()
            seat = next(s for s, v in views.items() if v["legal_actions"])
            views[seat] = seats[seat].act(game_id, self.rng.choice(views[seat]["legal_actions"]))
            for other in seats.keys() - {seat}:
                views[other] = seats[other].view(game_id)
        raise AssertionError("unreachable")


@dataclass
class Service:
    """The app on an embedded Redis and an archive, with the workers' sweep at hand."""

    url: str
    redis: redis.Redis
    database_url: str
    sweep: Any = None
    bots: list[Bots] = field(default_factory=list)

    def swept(self) -> None:
        sweep_once(self.sweep)


@contextmanager
def serving(folder: Path, database_url: str, idempotency_ttl: int) -> Iterator[Service]:
    config = {"DATABASE_URL": database_url, "SIXTYSIX_ARCHIVE_GRACE": GRACE,
              "SIXTYSIX_IDEMPOTENCY_TTL": idempotency_ttl}
    with ExitStack() as stack:
        server = stack.enter_context(EmbeddedRedis(folder / "redis", appendonly=False,
                                                   maxmemory=DEFAULT_REDIS_MAXMEMORY))
        local = stack.enter_context(LocalServer(server.url, config, workers=0))
        client = redis.Redis.from_url(server.url)
        stack.callback(client.close)
        ctx = build_context(server.url, server.url, database_url=database_url,
                            archive_grace=GRACE)
        if ctx.archiver is not None:
            stack.callback(ctx.archiver.archive.close)
        yield Service(local.url, client, database_url, ctx)


#: PostgreSQL: the archive's tables (``relkind`` r), their indexes (i) and TOAST tables.
_PG_RELATIONS: Final = (
    "FROM pg_class c WHERE c.relkind IN ('r', 'i') AND c.relnamespace = 'public'::regnamespace "
    "OR c.oid IN (SELECT reltoastrelid FROM pg_class "
    "WHERE relnamespace = 'public'::regnamespace AND reltoastrelid <> 0)")


def archive_bytes(database_url: str) -> tuple[int, int]:
    """The archive's size and the bytes its rows use: SQLite's file and ``dbstat``;
    PostgreSQL's tables with their indexes and TOAST, and ``pgstattuple``'s tuple bytes."""
    if database_url.startswith("sqlite:///"):
        path = Path(database_url.removeprefix("sqlite:///"))
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            used = conn.execute("SELECT sum(pgsize - unused) FROM dbstat").fetchone()[0]
        return path.stat().st_size, int(used or 0)
    engine = create_engine(database_url)
    try:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM"))
            size = conn.execute(text(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'")).scalar()
            return int(size or 0), _pg_used(conn)
    finally:
        engine.dispose()


def _pg_used(conn: Connection) -> int:
    conn.execute(text("CREATE EXTENSION IF NOT EXISTS pgstattuple"))
    used = conn.execute(text(
        f"SELECT coalesce(sum((pgstattuple(c.oid)).tuple_len), 0) {_PG_RELATIONS}")).scalar()
    return int(used or 0)


@dataclass
class Figures:
    """One match's figures, bytes."""

    actions: int
    live: dict[str, int]
    mid: dict[str, int]
    kept: dict[str, int]
    passing: dict[str, int]
    marks: int
    archive: tuple[int, int]


def added(before: Snapshot, after: Snapshot) -> dict[str, int]:
    """Per key kind, the bytes ``after`` holds more than ``before``, whatever their expiry."""
    lasting, passing = left(before, after)
    return {k: lasting.get(k, 0) + passing.get(k, 0) for k in lasting.keys() | passing.keys()}


def one_match(service: Service, bots: Bots, idempotency_ttl: int, midway: int) -> Figures:
    """Play one match alone and measure it (see the module docstring), at mid-match too
    after ``midway`` actions (0: not)."""
    service.swept()
    base, archived = snapshot(service.redis), archive_bytes(service.database_url)
    mid: dict[str, int] = {}
    actions = bots.match(midway or -1, lambda: mid.update(added(base, snapshot(service.redis))))
    ended = time.monotonic()
    live = added(base, snapshot(service.redis))
    service.swept()  # archived: its keys get their grace
    time.sleep(GRACE + 0.5)
    service.swept()
    graced = snapshot(service.redis)
    time.sleep(max(0.0, ended + idempotency_ttl + 0.5 - time.monotonic()))
    service.swept()
    after = snapshot(service.redis)
    kept, passing = left(base, after)
    grown = archive_bytes(service.database_url)
    return Figures(actions, live, mid, kept, passing, total(graced) - total(after),
                   (grown[0] - archived[0], grown[1] - archived[1]))


def per_match(args: argparse.Namespace) -> None:
    print(f"{args.matches} matches per database, one at a time (grace {GRACE} s, idempotency "
          f"window {args.idempotency_ttl} s); bytes of MEMORY USAGE over all keys")
    databases = ["sqlite"] + (["postgresql"] if binaries() is not None else [])
    for name in databases:
        with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
            url = f"sqlite:///{Path(tmp) / 'archive.sqlite3'}"
            if name == "postgresql":
                url = stack.enter_context(Postgres()).url
            service = stack.enter_context(serving(Path(tmp), url, args.idempotency_ttl))
            bots = Bots.make(service.url, 0)
            runs: list[Figures] = []
            for _ in range(args.matches + 1):
                midway = runs[-1].actions // 2 if runs else 0
                runs.append(one_match(service, bots, args.idempotency_ttl, midway))
            runs = runs[1:]  # the first: players' first entries
        _report(name, runs)
    if "postgresql" not in databases:
        print("postgresql: skipped (no initdb: Debian's postgresql package)")


def _report(name: str, runs: list[Figures]) -> None:
    count = len(runs)
    actions = sum(r.actions for r in runs)
    print(f"\n[{name}] {count} matches, {actions / count:.0f} actions each; B a match")
    mids = [r.mid for r in runs if r.mid]
    if mids:
        _kinds("live game at mid-match", mids, "")
    _kinds("live game at its end, before the archive", [r.live for r in runs], "")
    _kinds("after its grace, kept past a real grace", [r.kept for r in runs], "target <= 1024")
    _kinds("after its grace, gone within a real grace", [r.passing for r in runs], "")
    print(f"  {'per idempotent action (its window passed)':44} "
          f"{sum(r.marks for r in runs) / max(1, actions):8.0f} B an action (target <= 200)")
    size, used = (sum(r.archive[i] for r in runs) / count for i in (0, 1))
    grows = "file" if name == "sqlite" else "pg_total_relation_size"
    print(f"  {'archive per match':44} {size:8.0f} ({grows}), {used:.0f} used by rows "
          f"(target <= 4096)")


def _kinds(title: str, runs: list[dict[str, int]], target: str) -> None:
    """A figure per match and its parts by key kind, largest first."""
    kinds: dict[str, int] = defaultdict(int)
    for run in runs:
        for k, v in run.items():
            kinds[k] += v
    print(f"  {title:44} {sum(kinds.values()) / len(runs):8.0f}"
          + (f" ({target})" if target else ""))
    for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]):
        if v:
            print(f"      {k:40} {v / len(runs):8.0f}")


@dataclass
class LongRun:
    """The long run's shared counters."""

    target: int
    started: int = 0
    done: int = 0
    full: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> bool:
        with self.lock:
            if self.started >= self.target or self.errors:
                return False
            self.started += 1
            return True


def long_run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        url = f"sqlite:///{Path(tmp) / 'archive.sqlite3'}"
        service = stack.enter_context(serving(Path(tmp), url, args.idempotency_ttl))
        print(f"{args.matches} matches, {args.pairs} pairs of bots at once, Redis maxmemory "
              f"{DEFAULT_REDIS_MAXMEMORY} noeviction, grace {GRACE} s, idempotency window "
              f"{args.idempotency_ttl} s, archive {url}")
        run, stop = LongRun(args.matches), threading.Event()
        pairs = [Bots.make(service.url, n) for n in range(args.pairs)]
        empty = archive_bytes(url)[0]
        threads = [threading.Thread(target=_play, args=(bots, run), daemon=True)
                   for bots in pairs]
        sweeper = threading.Thread(target=_sweeping, args=(service, stop), daemon=True)
        sweeper.start()
        for thread in threads:
            thread.start()
        samples = _watch(service, run, args.every, threads)
        stop.set()
        sweeper.join()
        service.swept()
        size = archive_bytes(url)[0] - empty
    _long_report(run, samples, size)


def _play(bots: Bots, run: LongRun) -> None:
    while run.take():
        try:
            bots.match()
        except ApiError as exc:
            if exc.status != 507:
                with run.lock:
                    run.errors.append(f"{exc.status} {exc.title}: {exc.detail}")
                return
            with run.lock:
                run.full += 1
        with run.lock:
            run.done += 1


def _sweeping(service: Service, stop: threading.Event) -> None:
    while not stop.wait(SWEEP_EVERY):
        service.swept()


def _watch(service: Service, run: LongRun, every: int, threads: list[threading.Thread]
           ) -> list[tuple[int, int]]:
    """``(matches done, used_memory)`` every ``every`` matches, printed above a progress bar."""
    samples = [(0, int(service.redis.info("memory")["used_memory"]))]
    with tqdm(total=run.target, unit="match", dynamic_ncols=True) as bar:
        while any(t.is_alive() for t in threads):
            time.sleep(0.2)
            bar.update(run.done - bar.n)
            if run.done >= samples[-1][0] + every:
                used = int(service.redis.info("memory")["used_memory"])
                samples.append((run.done, used))
                bar.write(f"{run.done:7} matches  used_memory {used / 2**20:7.2f} MiB  "
                          f"keys {service.redis.dbsize():7}  507s {run.full}")
        bar.update(run.done - bar.n)
    return samples


def _long_report(run: LongRun, samples: list[tuple[int, int]], archive: int) -> None:
    print(f"\n{run.done} matches played, {run.full} answered 507 (Redis full), "
          f"{len(run.errors)} other errors{': ' + run.errors[0] if run.errors else ''}")
    half = samples[len(samples) // 2:]
    slope = 0.0
    if len(half) > 1 and half[-1][0] > half[0][0]:
        slope = (half[-1][1] - half[0][1]) / (half[-1][0] - half[0][0])
    low, high = min(u for _, u in half), max(u for _, u in half)
    print(f"used_memory over the second half: {low / 2**20:.2f} to {high / 2**20:.2f} MiB, "
          f"{slope:+.0f} B per match ({'flat' if slope <= FLAT else 'NOT flat'}: at most "
          f"{FLAT} B a match)")
    print(f"archive (SQLite file growth): {archive / max(1, run.done):.0f} B per match")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--long", action="store_true", help="the long run (see above)")
    parser.add_argument("--pairs", type=int, default=4, help="long run: pairs of bots at once")
    parser.add_argument("--every", type=int, default=100,
                        help="long run: matches between two used_memory lines")
    parser.add_argument("--idempotency-ttl", type=int, default=5,
                        help="SIXTYSIX_IDEMPOTENCY_TTL, seconds (time-scaled)")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)  # the sweep's and the app's log lines
    with suppress(KeyboardInterrupt):
        (long_run if args.long else per_match)(args)


if __name__ == "__main__":
    main()
