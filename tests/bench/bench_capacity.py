"""Games against a computer one worker core carries at a human's pace: ``python -m
tests.bench.bench_capacity [--paths pure,compiled] [--level strong] [--step-seconds 60]
[--games 2,4,8,...]``.

Each engine path of ``--paths`` is measured in a process of its own (``SIXTYSIX_PURE=1`` for
``pure``; ``compiled`` needs the built extension), one after the other, and the figures of
each are summed up at the end: games per core, the reply median and p99 at that load, hands
per minute, and the load average of the machine.

Starts a real ``redis-server`` and ONE worker process (:class:`api.worker.run.WorkerPool`, no
scheduler), then ramps the number ``N`` of simulated humans, each in a game against a
``--level`` computer (two-hand ``sixty-six``, hands dealt on at once). Every human acts
through the service functions the web tier calls (:func:`api.games.service.act`, then
:func:`~api.games.service.request_computers` enqueues the computer's reply on the real queue)
about every ``--human-seconds`` (uniform within ±1/3 of it, so the humans do not act in step),
always a random legal action (never a false declaration). A *reply* is the wall-clock time
from a human's saved action to the save after which that human must act again (the
computer's moves in between, all of them: a reply may hold several of its decisions, such as a
trick it takes and its next lead, or a meld and the card it leads, each up to the level's
budget), polled every ``--poll-ms`` (one pipelined read
of every waiting game's version). A new game starts when
a match ends.

Each step has ``N`` humans arrive one after another over the warm-up of ``--warmup-seconds``,
each creating its game as the web tier does: refused (503 ``computers-busy``,
:func:`api.games.turns.refuse_when_busy`) while the worker says that even its least work
cannot answer the replies waiting in its queue in time (:mod:`api.worker.deadline`); a refused
human asks again after the ``Retry-After`` it got. The worker aims at a reply within ``--limit``
(its ``SIXTYSIX_REPLY_TARGET``): a reply that waited in a long queue gets a smaller share of its
level's work, down to the floor (``SIXTYSIX_THINK_FLOOR``). ``--think-scale`` and
``--cpu-cap-ms`` set the worker's ``SIXTYSIX_THINK_SCALE`` and ``SIXTYSIX_MOVE_CPU_MS``. The step
plays for ``--step-seconds`` and counts the replies after the warm-up; it prints their count,
median, p99 and max (s), the games playing at its end and the creates refused, the hands
finished per minute, the cores the worker used and those every other process used meanwhile.
The ramp stops after the first step whose p99 passes ``--limit`` (1.5 s; with ``--whole-ramp``
it plays every step, to show the creates refused as the games grow); the capacity is the
largest ``N`` whose p99 stayed within it with no create refused: the games one worker core
carries (one worker process uses
at most one core; on a shared machine it may get less, which the cores it used say, and the
model below gives a whole core's figure). Each step also prints the worker's CPU time per reply, and
from it how many games a core would carry kept wholly busy (an upper bound that ignores the
queueing a p99 pays for). A progress bar shows the ramp's seconds (``--no-progress``: none).
The computer's moves are set by the level's work budget, not by the time it gets
(:class:`engine.ai.player.Work`), so a loaded worker plays the same moves, only later.

**The model** (``--model-hands``, first): what one *whole, quiet* core would carry, for a
machine where the worker cannot get one. The computer's CPU time per reply (its moves between
two of a human's, against the same random human, thread CPU time, which load inflates little)
is sampled in this process over that many hands; then a single first-come-first-served server
with those service times and the same humans is simulated (no job overhead, no Redis): the
largest ``N`` of the ramp whose simulated reply p99 stays within ``--limit``.
The worker runs at ``nice`` priority 0 (``SIXTYSIX_WORKER_POLICY=nice``,
``SIXTYSIX_WORKER_NICE=0``), not the idle class ``sixtysix serve`` gives it, so that on a shared
machine it competes with other work on equal terms: a busy machine lowers the figure (the
worker's cores say how much of one it got). The engine path (pure or compiled) is printed;
``SIXTYSIX_PURE=1`` forces the pure one. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from tqdm import tqdm

from api.arena import percentile
from api.arena.strength import CAPACITY, COMPILED, PURE, engine_path, ramp_text, render
from api.composition import Services, compose
from api.games.service import act, computer_to_move, create_game, request_computers
from api.games.store import Game
from api.games.turns import ComputersBusy, refuse_when_busy
from api.keys import game_key
from api.runtime.redis_server import EmbeddedRedis
from api.worker.queue import TaskQueue
from api.worker.run import WorkerPool
from engine import PLAYING, Rules, apply, legal_actions, new_game, view
from engine.actions import DECLARE
from engine.ai import choose
from engine.scoring import DECLARE_TARGET
from engine.state import MATCH_OVER
from tests.bench.bench_http import _cpu_seconds, _machine_busy

ROOT = Path(__file__).resolve().parents[2]
HUMAN = 0  # the human's seat; the computer sits at 1


@dataclass(slots=True)
class Human:
    """One simulated human and the game it plays."""

    game_id: str
    version: int
    #: When it acts next (monotonic s), or None while it waits for the computer.
    due: float | None
    #: When its last action was saved (monotonic s): the reply's start.
    acted: float
    #: The hand number of the game it last saw (``GameState.hand_no``).
    hand: int = 0


@dataclass(slots=True)
class Step:
    """What one step of the ramp measured, after its warm-up."""

    games: int
    #: Each reply's wall-clock time (s).
    replies: list[float] = field(default_factory=list)
    #: Games created, and creates refused (503 computers-busy), over the whole step.
    created: int = 0
    refused: int = 0
    #: Games being played at the step's end.
    playing: int = 0
    #: Hands finished.
    hands: int = 0
    #: Cores the worker used, and those every other process used meanwhile.
    worker_cores: float = 0.0
    other_cores: float = 0.0
    seconds: float = 0.0


def _body(level: str) -> dict[str, object]:
    return {"variant": "sixty-six", "rules": {}, "first_dealer": 1,
            "seats": [{"kind": "human"}, {"kind": "computer", "level": level}],
            "settings": {"point_counter": True, "hint_66": False, "auto_continue": True}}


def _think(rng: random.Random, pace: float) -> float:
    return rng.uniform(pace * 2 / 3, pace * 4 / 3)


def _human_to_act(game: Game) -> bool:
    return (computer_to_move(game.state, game.meta) is None
            and bool(legal_actions(game.state, HUMAN)))


def _start(services: Services, queue: TaskQueue, level: str, now: float, rng: random.Random,
           pace: float) -> Human | float:
    """A human's new game, as the web tier creates it; or, refused, the seconds after which
    it may ask again (its ``Retry-After``)."""
    body = _body(level)
    try:
        refuse_when_busy(services, [{"kind": "computer"}])  # the game's computer seat
    except ComputersBusy as exc:
        return float(exc.retry_after or 1)
    game, _ = create_game(services.games, body)
    waiting = request_computers(queue, game)
    return Human(game.game_id, game.version, None if waiting else now + _think(rng, pace), now,
                 game.state.hand_no)


def _move(services: Services, queue: TaskQueue, human: Human, rng: random.Random) -> None:
    store = services.games
    game = store.load(human.game_id)
    side = game.state.side_of(HUMAN)
    honest = game.state.credited_points(side) >= DECLARE_TARGET
    choices = [a for a in legal_actions(game.state, HUMAN) if a.kind != DECLARE or honest]
    saved = act(store, game, HUMAN, rng.choice(choices), after_save=services.after_save)
    human.version, human.acted, human.due = saved.version, time.monotonic(), None
    if not request_computers(queue, saved):
        human.due = time.monotonic()  # no computer to move (a hand dealt to the human)


def step(services: Services, queue: TaskQueue, games: int, args: argparse.Namespace,
         pids: list[int], bar: tqdm[Any]) -> Step:
    """Play ``games`` games for ``args.step_seconds`` (``bar`` counts them); the humans arrive
    one after another over the warm-up, and one whose match is over creates a new game."""
    store = services.games
    rng = random.Random(games)
    now = start = time.monotonic()
    humans: list[Human | None] = [None] * games
    arrive = [now + args.warmup_seconds * i / games for i in range(games)]
    end, counted_from = now + args.step_seconds, now + args.warmup_seconds
    measuring, cpu, busy = False, 0.0, 0.0
    out = Step(games)
    shown = 0
    while (now := time.monotonic()) < end:
        if int(now - start) > shown:
            bar.update(int(now - start) - shown)
            shown = int(now - start)
            if out.replies:
                bar.set_postfix(games=games, replies=len(out.replies), refused=out.refused,
                                p99=f"{percentile(out.replies, 99):.2f}s")
        if not measuring and now >= counted_from:
            measuring, cpu, busy, counted_from = True, _cpu_seconds(pids), _machine_busy(), now
        waiting = [h for h in humans if h is not None and h.due is None]
        pipe = store.redis.pipeline(transaction=False)
        for asked in waiting:
            pipe.hget(game_key(asked.game_id), "v")
        moved = {h.game_id for h, v in zip(waiting, pipe.execute(), strict=True)
                 if int(v) != h.version}
        for i, human in enumerate(humans):
            if human is None:
                if now >= arrive[i]:
                    got = _start(services, queue, args.level, now, rng, args.human_seconds)
                    if isinstance(got, Human):
                        humans[i], out.created = got, out.created + 1
                    else:
                        arrive[i], out.refused = now + got, out.refused + 1
            elif human.due is None:
                if human.game_id not in moved:
                    continue
                game = store.load(human.game_id)
                human.version = game.version
                over = game.state.status == MATCH_OVER
                if measuring:
                    out.hands += game.state.hand_no - human.hand + over
                human.hand = game.state.hand_no
                if over:
                    humans[i], arrive[i] = None, now
                elif _human_to_act(game):
                    if human.acted >= counted_from:
                        out.replies.append(now - human.acted)
                    human.due = now + _think(rng, args.human_seconds)
            elif now >= human.due:
                _move(services, queue, human, rng)
        time.sleep(args.poll_ms / 1000)
    bar.update(max(0, round(args.step_seconds) - shown))
    out.seconds = time.monotonic() - counted_from
    out.worker_cores = (_cpu_seconds(pids) - cpu) / out.seconds
    out.other_cores = (_machine_busy() - busy) / out.seconds - out.worker_cores
    out.playing = sum(h is not None for h in humans)
    return out


def reply_cpu(level: str, hands: int, seed: int) -> list[float]:
    """CPU seconds of each of ``level``'s replies (its moves between two of the random
    human's) over ``hands`` hands of two-hand sixty-six, in this process."""
    rules, rng = Rules.make("sixty-six"), random.Random(seed)
    out: list[float] = []
    for hand in range(hands):
        state, _ = new_game(rules, first_dealer=hand % 2, rng=rng)
        spent = 0.0
        while state.status == PLAYING:
            seat = state.to_act()
            assert seat is not None
            if seat == HUMAN:
                if spent:
                    out.append(spent)
                spent = 0.0
                honest = state.credited_points(state.side_of(seat)) >= DECLARE_TARGET
                action = rng.choice([a for a in legal_actions(state, seat)
                                     if a.kind != DECLARE or honest])
            else:
                start = time.thread_time()
                action = choose(view(state, seat), level, rng)
                spent += time.thread_time() - start
            apply(state, seat, action)
        if spent:
            out.append(spent)
    return out


def modelled_p99(service: list[float], games: int, pace: float, seconds: float,
                 rng: random.Random) -> float:
    """Simulated reply p99 (s) of one first-come-first-served server whose replies take
    ``service`` times (drawn at random) for ``games`` humans acting as :func:`step`'s do."""
    ready = sorted(_think(rng, pace) for _ in range(games))  # when each human acts
    free = 0.0  # when the server is next idle
    replies: list[float] = []
    while ready[0] < seconds:
        acted = ready.pop(0)
        free = max(free, acted) + rng.choice(service)
        replies.append(free - acted)
        due = free + _think(rng, pace)
        ready.insert(next((i for i, t in enumerate(ready) if t > due), len(ready)), due)
    return percentile(replies, 99)


def model(args: argparse.Namespace, ramp: list[int]) -> dict[str, Any]:
    """The model's figures (printed as it goes): reply CPU times and the games it carries."""
    service = reply_cpu(args.level, args.model_hands, 1)
    rng = random.Random(1)
    mean = sum(service) / len(service)
    over = sum(t > args.limit for t in service)
    print(f"model: {len(service)} replies of {args.level} over {args.model_hands} hands, CPU "
          f"mean {mean * 1000:.0f} ms, median {percentile(service, 50) * 1000:.0f} ms, p90 "
          f"{percentile(service, 90) * 1000:.0f} ms, p99 {percentile(service, 99) * 1000:.0f} "
          f"ms ({over} over {args.limit:g} s by themselves); a core kept busy: "
          f"{args.human_seconds / mean:.1f} games", flush=True)
    carried, exceeded = 0, False
    for games in ramp:  # the whole ramp: simulating is cheap
        p99 = modelled_p99(service, games, args.human_seconds, 3600.0, rng)
        print(f"model, {games:4} games: reply p99 {p99:.3f} s", flush=True)
        exceeded = exceeded or p99 > args.limit
        if not exceeded:
            carried = games
    print(f"model: one whole core would carry {carried} games with a reply p99 within "
          f"{args.limit:g} s ({engine_path()} path)", flush=True)
    return {"model_games": carried, "model_cpu_mean_ms": mean * 1000,
            "model_cpu_p99_ms": percentile(service, 99) * 1000}


def _print_step(got: Step, args: argparse.Namespace) -> None:
    p99 = percentile(got.replies, 99)
    per_reply = got.worker_cores * got.seconds / len(got.replies)
    print(f"{got.games:4} games: {len(got.replies):5} replies, median "
          f"{percentile(got.replies, 50):.3f} s, p99 {p99:.3f} s, max {max(got.replies):.3f} "
          f"s; {got.playing} games playing, {got.refused} creates refused of "
          f"{got.created + got.refused}; {got.hands * 60 / got.seconds:.1f} hands/min; the "
          f"worker used "
          f"{got.worker_cores:.2f} cores, other processes {got.other_cores:.2f}; load average "
          f"{os.getloadavg()[0]:.2f}; worker CPU per reply {per_reply * 1000:.0f} ms (a whole "
          f"core busy: {args.human_seconds / per_reply:.0f} games)", flush=True)


def ramp_up(args: argparse.Namespace, ramp: list[int]) -> dict[str, Any]:
    """Ramp the games on one worker of this process's engine path; the figures found."""
    env = {**os.environ, "SIXTYSIX_LOG_LEVEL": "warning", "SIXTYSIX_WORKER_POLICY": "nice",
           "SIXTYSIX_WORKER_NICE": "0", "SIXTYSIX_REPLY_TARGET": str(args.limit),
           "SIXTYSIX_THINK_SCALE": str(args.think_scale),
           "SIXTYSIX_MOVE_CPU_MS": str(args.cpu_cap_ms),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    print(f"engine path: {engine_path()}; level {args.level}; a human move every "
          f"{args.human_seconds:g} s; one worker process (reply target {args.limit:g} s, think "
          f"scale {args.think_scale:g}, CPU cap {args.cpu_cap_ms or 'none'} ms a move); "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}", flush=True)
    steps: list[dict[str, Any]] = []
    carried: Step | None = None
    failed: Step | None = None
    loads = [os.getloadavg()[0]]
    bar = tqdm(total=round(args.step_seconds) * len(ramp), unit="s", disable=not args.progress,
               dynamic_ncols=True, desc=f"{engine_path()} ramp")
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp)) as server:
        env["REDIS_URL"] = server.url
        client = redis.Redis.from_url(server.url)
        queue = TaskQueue(client)
        services = compose(client, queue, game_ttl=3600, settle_wait=5.0)
        with WorkerPool(1, env, lambda line: print(line, file=sys.stderr),
                        scheduler=False) as pool:
            time.sleep(3)  # the worker starts
            pids = [child.pid for child in pool.children]
            for games in ramp:
                client.flushdb()
                got = step(services, queue, games, args, pids, bar)
                loads.append(os.getloadavg()[0])
                if not got.replies:
                    bar.write(f"{games:4} games: no reply counted")
                    break
                bar.clear()
                _print_step(got, args)
                steps.append({"games": games, "playing": got.playing, "refused": got.refused,
                              "p50_s": percentile(got.replies, 50),
                              "p99_s": percentile(got.replies, 99)})
                if percentile(got.replies, 99) > args.limit and failed is None:
                    failed = got
                if failed is not None and not args.whole_ramp:
                    break
                if failed is None and not got.refused:
                    carried = got
        client.close()
    bar.close()
    out: dict[str, Any] = {"path": engine_path(), "games": carried.games if carried else 0,
                           "load_average": [min(loads), max(loads)], "ramp": steps,
                           "think_scale": args.think_scale, "cpu_cap_ms": args.cpu_cap_ms}
    if carried is not None:
        out |= {"p50_s": percentile(carried.replies, 50), "p99_s": percentile(carried.replies, 99),
                "hands_per_minute": carried.hands * 60 / carried.seconds,
                "worker_cores": carried.worker_cores}
    if failed is not None:
        out |= {"failed_games": failed.games, "failed_p99_s": percentile(failed.replies, 99),
                "failed_worker_cores": failed.worker_cores}
    refused = next((s for s in steps if s["refused"]), None)
    how = (f"the first step past {args.limit:g} s: {failed.games} games, p99 "
           f"{out['failed_p99_s']:.2f} s, the worker used {failed.worker_cores:.2f} cores"
           if failed is not None else
           f"from {refused['games']} games on new games were refused ({refused['playing']} "
           f"playing)" if refused is not None
           else "the ramp ended within the limit: more games may fit")
    print(f"capacity: {out['games']} games against {args.level} on one worker core with a "
          f"reply p99 within {args.limit:g} s ({engine_path()} path); {how}", flush=True)
    return out


def _without(argv: list[str], flag: str) -> list[str]:
    """``argv`` without ``flag`` and its value (``--flag V``, ``--flag=V`` or a bare flag)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip and not arg.startswith("--"):
            skip = False
            continue
        skip = arg == flag
        if not skip and not arg.startswith(flag + "="):
            out.append(arg)
    return out


def _child(path: str, argv: list[str], summary: Path) -> dict[str, Any] | None:
    """Run this bench for one engine path in a process of its own; its figures (or None)."""
    env = {k: v for k, v in os.environ.items() if k != "SIXTYSIX_PURE"}
    if path == PURE:
        env["SIXTYSIX_PURE"] = "1"
    done = subprocess.run([sys.executable, "-m", "tests.bench.bench_capacity", *argv,
                           "--paths", path, "--summary", str(summary)],
                          env=env, cwd=ROOT, check=False)
    if done.returncode != 0 or not summary.exists():
        print(f"{path} path: the bench failed (exit {done.returncode})", flush=True)
        return None
    result: dict[str, Any] = json.loads(summary.read_text())
    return result


def _report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(f"\nsummary: games against {args.level} a worker core carries, a human move every "
          f"{args.human_seconds:g} s, reply p99 within {args.limit:g} s (a ramp of "
          f"{args.games} concurrent games, {args.step_seconds:g} s a step, until the p99 "
          f"passed the limit)")
    for r in results:
        figures = (f"reply p50 {r['p50_s']:.3f} s, p99 {r['p99_s']:.3f} s, "
                   f"{r['hands_per_minute']:.1f} hands/min, the worker used "
                   f"{r['worker_cores']:.2f} cores" if r["games"] else "no step passed")
        if "failed_games" in r:
            figures += (f"; {r['failed_games']} games: p99 {r['failed_p99_s']:.3f} s, the "
                        f"worker used {r['failed_worker_cores']:.2f} cores")
        model = (f"; the model: a whole quiet core {r['model_games']} games (reply CPU mean "
                 f"{r['model_cpu_mean_ms']:.0f} ms, p99 {r['model_cpu_p99_ms']:.0f} ms)"
                 if "model_games" in r else "")
        low, high = r["load_average"]
        print(f"  {r['path']}: {r['games']} games per core; {figures}; load average "
              f"{low:.1f}-{high:.1f}{model}")
        print(f"  {r['path']} ramp (games: reply p99, games playing, creates refused): "
              f"{ramp_text(r.get('ramp', []))}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--paths", default=f"{PURE},{COMPILED}",
                        help="engine paths to measure, comma-separated: pure, compiled")
    parser.add_argument("--level", default="strong")
    parser.add_argument("--games", default="2,4,8,12,16,24,32,48,64",
                        help="the ramp: simulated humans per step, comma-separated")
    parser.add_argument("--step-seconds", type=float, default=60.0)
    parser.add_argument("--warmup-seconds", type=float, default=10.0)
    parser.add_argument("--human-seconds", type=float, default=3.0,
                        help="a human's mean time per move")
    parser.add_argument("--limit", type=float, default=1.5,
                        help="p99 of a reply, s (also the worker's SIXTYSIX_REPLY_TARGET)")
    parser.add_argument("--whole-ramp", action="store_true",
                        help="play every step of the ramp, past the first over the limit")
    parser.add_argument("--think-scale", type=float, default=1.0,
                        help="the worker's SIXTYSIX_THINK_SCALE")
    parser.add_argument("--cpu-cap-ms", type=int, default=0,
                        help="the worker's SIXTYSIX_MOVE_CPU_MS (0: none)")
    parser.add_argument("--poll-ms", type=float, default=20.0)
    parser.add_argument("--model-hands", type=int, default=16,
                        help="hands sampled for the model (0: no model)")
    parser.add_argument("--no-progress", dest="progress", action="store_false")
    parser.add_argument("--record", nargs="?", type=Path, const=Path("docs/strength.json"),
                        help="store the figures in this JSON file (default docs/strength.json) "
                        "and render docs/strength.md from it")
    parser.add_argument("--summary", type=Path, help=argparse.SUPPRESS)  # a child's figures
    args = parser.parse_args(argv)
    ramp = [int(n) for n in args.games.split(",")]
    paths = args.paths.split(",")
    if args.summary is not None:  # one path, in this process
        if engine_path() != paths[0]:
            raise SystemExit(f"asked for the {paths[0]} path, but this process runs the "
                             f"{engine_path()} one (is the extension built? `sixtysix --version`)")
        figures = model(args, ramp) if args.model_hands > 0 else {}
        args.summary.write_text(json.dumps(ramp_up(args, ramp) | figures))
        return
    rest = _without(_without(list(sys.argv[1:] if argv is None else argv), "--paths"),
                    "--record")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            got = _child(path, rest, Path(tmp) / f"{path}.json")
            if got is not None:
                results.append(got)
    _report(results, args)
    if args.record is not None:
        record(args, rest, results)


def record(args: argparse.Namespace, argv: list[str], results: list[dict[str, Any]]) -> None:
    """Merge ``results`` into ``args.record`` (per engine path) and render docs/strength.md."""
    entries: dict[str, Any] = (json.loads(args.record.read_text())
                               if args.record.exists() else {})
    measured = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for r in results:
        command = " ".join(["python -m tests.bench.bench_capacity --paths", r["path"], *argv])
        entries.setdefault(CAPACITY, {})[r["path"]] = r | {
            "level": args.level, "human_seconds": args.human_seconds, "limit": args.limit,
            "measured": measured, "command": command}
    args.record.write_text(json.dumps(entries, indent=2) + "\n")
    out = args.record.with_suffix(".md")
    out.write_text(render(entries))
    print(f"recorded in {args.record} and {out}")


if __name__ == "__main__":
    main()
