"""Games against a computer one worker core carries at a human's pace: ``python -m
tests.bench_capacity [--level strong] [--step-seconds 60] [--games 2,4,8,...]``.

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

Each step plays ``N`` games for ``--step-seconds`` and counts the replies after a warm-up of
``--warmup-seconds``; it prints their count, median, p99 and max (s), the cores the worker used
and those every other process used meanwhile. The ramp stops after the first step whose p99
passes ``--limit`` (1.5 s); the capacity is the largest ``N`` whose p99 stayed within it.
Each step also prints the worker's CPU time per reply, and from it how many games a core
would carry kept wholly busy (an upper bound that ignores the queueing a p99 pays for).

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
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import redis

from api.arena import percentile
from api.games.service import act, computer_to_move, create_game, request_computers
from api.games.store import Game, GameStore
from api.keys import game_key
from api.runtime.redis_server import EmbeddedRedis
from api.strength import engine_path
from api.worker.queue import TaskQueue
from api.worker.run import WorkerPool
from engine import PLAYING, Rules, apply, legal_actions, new_game, view
from engine.actions import DECLARE
from engine.ai import choose
from engine.scoring import DECLARE_TARGET
from engine.state import MATCH_OVER
from tests.bench_http import _cpu_seconds, _machine_busy

ROOT = Path(__file__).resolve().parents[1]
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


def _body(level: str) -> dict[str, object]:
    return {"variant": "sixty-six", "rules": {}, "first_dealer": 1,
            "seats": [{"kind": "human"}, {"kind": "computer", "level": level}],
            "settings": {"point_counter": True, "hint_66": False, "auto_continue": True}}


def _think(rng: random.Random, pace: float) -> float:
    return rng.uniform(pace * 2 / 3, pace * 4 / 3)


def _human_to_act(game: Game) -> bool:
    return (computer_to_move(game.state, game.meta) is None
            and bool(legal_actions(game.state, HUMAN)))


def _start(store: GameStore, queue: TaskQueue, level: str, now: float, rng: random.Random,
           pace: float) -> Human:
    game, _ = create_game(store, _body(level))
    waiting = request_computers(queue, game)
    return Human(game.game_id, game.version, None if waiting else now + _think(rng, pace), now)


def _move(store: GameStore, queue: TaskQueue, human: Human, rng: random.Random) -> None:
    game = store.load(human.game_id)
    side = game.state.side_of(HUMAN)
    honest = game.state.credited_points(side) >= DECLARE_TARGET
    choices = [a for a in legal_actions(game.state, HUMAN) if a.kind != DECLARE or honest]
    saved = act(store, game, HUMAN, rng.choice(choices))
    human.version, human.acted, human.due = saved.version, time.monotonic(), None
    if not request_computers(queue, saved):
        human.due = time.monotonic()  # no computer to move (a hand dealt to the human)


def step(store: GameStore, queue: TaskQueue, games: int, args: argparse.Namespace,
         pids: list[int]) -> tuple[list[float], float, float]:
    """Play ``games`` games for ``args.step_seconds``; the replies (s) after the warm-up, the
    cores the worker used and those other processes used meanwhile."""
    rng = random.Random(games)
    now = time.monotonic()
    humans = [_start(store, queue, args.level, now, rng, args.human_seconds)
              for _ in range(games)]
    end, counted_from = now + args.step_seconds, now + args.warmup_seconds
    measuring, cpu, busy = False, 0.0, 0.0
    replies: list[float] = []
    while (now := time.monotonic()) < end:
        if not measuring and now >= counted_from:
            measuring, cpu, busy, counted_from = True, _cpu_seconds(pids), _machine_busy(), now
        waiting = [h for h in humans if h.due is None]
        pipe = store.redis.pipeline(transaction=False)
        for human in waiting:
            pipe.hget(game_key(human.game_id), "v")
        moved = {h.game_id for h, v in zip(waiting, pipe.execute(), strict=True)
                 if int(v) != h.version}
        for i, human in enumerate(humans):
            if human.due is None:
                if human.game_id not in moved:
                    continue
                game = store.load(human.game_id)
                human.version = game.version
                if game.state.status == MATCH_OVER:
                    humans[i] = _start(store, queue, args.level, now, rng, args.human_seconds)
                elif _human_to_act(game):
                    if human.acted >= counted_from:
                        replies.append(now - human.acted)
                    human.due = now + _think(rng, args.human_seconds)
            elif now >= human.due:
                _move(store, queue, human, rng)
        time.sleep(args.poll_ms / 1000)
    elapsed = time.monotonic() - counted_from
    used = (_cpu_seconds(pids) - cpu) / elapsed
    return replies, used, (_machine_busy() - busy) / elapsed - used


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


def model(args: argparse.Namespace, ramp: list[int]) -> None:
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--level", default="strong")
    parser.add_argument("--games", default="2,4,8,12,16,24,32,48,64",
                        help="the ramp: simulated humans per step, comma-separated")
    parser.add_argument("--step-seconds", type=float, default=60.0)
    parser.add_argument("--warmup-seconds", type=float, default=10.0)
    parser.add_argument("--human-seconds", type=float, default=3.0,
                        help="a human's mean time per move")
    parser.add_argument("--limit", type=float, default=1.5, help="p99 of a reply, s")
    parser.add_argument("--poll-ms", type=float, default=20.0)
    parser.add_argument("--model-hands", type=int, default=16,
                        help="hands sampled for the model (0: no model)")
    args = parser.parse_args(argv)
    ramp = [int(n) for n in args.games.split(",")]
    if args.model_hands > 0:
        model(args, ramp)
    env = {**os.environ, "SIXTYSIX_LOG_LEVEL": "warning", "SIXTYSIX_WORKER_POLICY": "nice",
           "SIXTYSIX_WORKER_NICE": "0",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    print(f"engine path: {engine_path()}; level {args.level}; a human move every "
          f"{args.human_seconds:g} s; one worker process; {os.cpu_count()} cores; load "
          f"average {os.getloadavg()[0]:.2f}")
    carried = 0
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp)) as server:
        env["REDIS_URL"] = server.url
        client = redis.Redis.from_url(server.url)
        store, queue = GameStore(client, 3600), TaskQueue(client)
        with WorkerPool(1, env, lambda line: print(line, file=sys.stderr),
                        scheduler=False) as pool:
            time.sleep(3)  # the worker starts
            pids = [child.pid for child in pool.children]
            for games in ramp:
                client.flushdb()
                replies, used, others = step(store, queue, games, args, pids)
                if not replies:
                    print(f"{games:4} games: no reply counted")
                    break
                p99 = percentile(replies, 99)
                per_reply = used * (args.step_seconds - args.warmup_seconds) / len(replies)
                print(f"{games:4} games: {len(replies):5} replies, median "
                      f"{percentile(replies, 50):.3f} s, p99 {p99:.3f} s, max "
                      f"{max(replies):.3f} s; the worker used {used:.2f} cores, other "
                      f"processes {others:.2f}; load average {os.getloadavg()[0]:.2f}; "
                      f"worker CPU per reply {per_reply * 1000:.0f} ms (a whole core busy: "
                      f"{args.human_seconds / per_reply:.0f} games)", flush=True)
                if p99 > args.limit:
                    break
                carried = games
        client.close()
    print(f"capacity: {carried} games against {args.level} on one worker process with a reply "
          f"p99 within {args.limit:g} s ({engine_path()} path)")


if __name__ == "__main__":
    main()
