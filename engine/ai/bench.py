"""Benchmarks of the computer opponents: run ``python -m engine.ai.bench``.

* ``solver``: CPU time of the exact solve of the first phase-2 position with 6+6 cards (talon
  just exhausted after random phase-1 play), fresh transposition table each time: median, p99.
* ``talon``: CPU time of the exact search (:mod:`engine.ai.talon`) of positions on lead with
  4 talon cards left (random phase-1 play), fresh solver each time: median, p99.

  Both side by side on each path, in one run: the native search core (where built), the
  Python search as this process runs it (compiled by mypyc where built), and the pure Python
  reference (a fresh interpreter with ``SIXTYSIX_PURE=1``), with the speed-up of the medians
  over the compiled (or else the pure) one.
* ``deals``: deals ``strong`` samples per decision within its budget, on ``--n`` positions on
  lead with 8 talon cards (random phase-1 play): mean.
* ``levels``: CPU time per move of each level (hands played by that level on every seat):
  median and p99 (CPU time, so that other load on the machine does not count).
* ``regret``: quality of the choices with ``--talon`` cards left (default 4), on ``--n``
  positions from hands between ``normal`` players. An oracle values every action over
  ``--oracle-samples`` sampled deals: with a talon as short as ``strong``'s ``search_from`` or
  ``search_talon``, by the exact search of the rest of the hand (:mod:`engine.ai.talon`); with
  a longer one (too slow to search) by ``strong``'s own playouts, so that the loss there is
  what its budget of deals costs; ``--oracle LEVEL`` sets another (e.g.
  ``strong:search_talon=6,search_from=8``: one policy trick, then the exact search from 6
  talon cards). Each level's loss is the oracle's value of its best action minus that of the
  level's choice, in game points (mean, and how often the choice was worse). A level may be a
  variant, ``name:setting=value`` (e.g. ``strong:search_from=2``).

``--against PATH`` runs ``solver``, ``talon``, ``deals`` and ``levels`` with another checkout's
engine too, in the same run (alternating fresh interpreters, :mod:`engine.benchcmp`), and
prints both and the speed-up.

Strength between levels is measured by ``sixtysix arena`` (:mod:`api.arena`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import native
from engine.actions import DECLARE
from engine.ai.knowledge import Knowledge
from engine.ai.player import LEVEL_TABLE, can_declare_66, choose, evaluate, level_variant
from engine.ai.solver import NATIVE_CORE, solve
from engine.ai.talon import TalonSolver
from engine.cards import CARD_CODES
from engine.deal import new_game, shuffled_deck
from engine.play import apply, legal_actions
from engine.rules import Rules
from engine.state import PLAYING, GameState
from engine.views import view


def _quantiles(ms: list[float]) -> tuple[float, float]:
    ordered = sorted(ms)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def first_phase2_positions(n: int, seed: int, variant: str = "sixty-six",
                           talon: int = 0) -> list[GameState]:
    """States at the first lead with ``talon`` cards left (0: the talon ran out), from random
    phase-1 play."""
    rng = random.Random(seed)
    rules = Rules.make(variant)
    out: list[GameState] = []
    while len(out) < n:
        state, _ = new_game(rules, first_dealer=0, rng=rng)
        while state.status == PLAYING and (len(state.talon) > talon or state.trick):
            seat = state.to_act()
            assert seat is not None
            acts = [a for a in legal_actions(state, seat) if a.kind not in (DECLARE, "close")]
            apply(state, seat, rng.choice(acts))
        if state.status == PLAYING:
            out.append(state)
    return out


def solver_times(n: int, seed: int, native_core: bool = True) -> list[float]:
    """CPU ms of :func:`solve` on each of ``n`` first phase-2 positions (fresh table each),
    by the native core where built unless ``native_core`` is false."""
    times: list[float] = []
    for state in first_phase2_positions(n, seed):
        start = time.thread_time()
        solve(state, native_core)
        times.append((time.thread_time() - start) * 1000)
    return times


def talon_times(n: int, seed: int, native_core: bool = True) -> list[float]:
    """CPU ms of the exact search of each of ``n`` positions on lead with 4 talon cards (its
    phase-2 solves by the native core where built unless ``native_core`` is false)."""
    times: list[float] = []
    for state in first_phase2_positions(n, seed, talon=4):
        start = time.thread_time()
        TalonSolver(state.rules, state.trump, native_core).value(state)
        times.append((time.thread_time() - start) * 1000)
    return times


_TIMERS: dict[str, Callable[[int, int, bool], list[float]]] = {
    "solver": solver_times, "talon": talon_times}


def path_times(what: str, n: int, seed: int) -> dict[str, list[float]]:
    """CPU ms of each position of bench ``what`` (``solver``, ``talon``) by path: ``native``
    (the native core, where built), ``mypyc`` or ``pure`` (the Python search as this process
    runs it), and ``pure`` in a fresh interpreter with ``SIXTYSIX_PURE=1`` (unless this one
    is already pure)."""
    timer = _TIMERS[what]
    out: dict[str, list[float]] = {}
    if NATIVE_CORE is not None:
        out["native"] = timer(n, seed, True)
    here = "mypyc" if native.path() == native.COMPILED_PATH else "pure"
    out[here] = timer(n, seed, False)
    if here != "pure":
        env = {**os.environ, native.PURE_VARIABLE: "1"}
        code = (f"import json; from engine.ai.bench import {timer.__name__} as t; "
                f"print(json.dumps(t({n}, {seed}, False)))")
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True)
        out["pure"] = json.loads(done.stdout)
    return out


def bench_paths(what: str, n: int, seed: int) -> None:
    """Prints bench ``what`` on every path (:func:`path_times`), side by side."""
    title = {"solver": "solver, first phase-2 position 6+6 cards",
             "talon": "talon search, on lead with 4 talon cards"}[what]
    print(f"{title}, {n} positions ({native.describe()}; search core: "
          f"{native.describe_core()}):")
    times = path_times(what, n, seed)
    base = statistics.median(times.get("mypyc") or times["pure"])
    for name, ms in times.items():
        med, p99 = _quantiles(ms)
        print(f"  {name:7} median {med:.3f} ms, p99 {p99:.3f} ms, max {max(ms):.3f} ms, "
              f"total {sum(ms):.0f} ms; median {base / med:.1f}x the "
              f"{'mypyc' if 'mypyc' in times else 'pure'} one")


def measure(what: list[str], n: int, seed: int, hands: int, levels: list[str],
            passes: int = 1) -> dict[str, float]:
    """Figures (ms) of the benches in ``what`` (``solver``, ``talon``, ``levels``), for
    :mod:`engine.benchcmp`: median, p99 and total of each search over its first pass of the
    positions and, with ``passes`` > 1, median and total of its best later pass ("warm": the
    move-order caches kept for the process's life are filled, as in a long-running worker);
    median and p99 per move of each level."""
    out: dict[str, float] = {}
    for name, timer in (("solver", solver_times), ("talon", talon_times)):
        if name in what:
            times = timer(n, seed)
            med, p99 = _quantiles(times)
            out |= {f"{name} median ms": med, f"{name} p99 ms": p99,
                    f"{name} total ms": sum(times)}
            if passes > 1:
                warm = min((timer(n, seed) for _ in range(passes - 1)), key=sum)
                out |= {f"{name} warm median ms": _quantiles(warm)[0],
                        f"{name} warm total ms": sum(warm)}
    if "deals" in what:
        out["strong deals per move, 8 talon cards"] = statistics.mean(strong_deals(n, seed))
    if "levels" in what:
        for level, times in level_times("sixty-six", hands, seed, levels).items():
            med, p99 = _quantiles(times)
            out |= {f"{level} median ms": med, f"{level} p99 ms": p99}
    return out


def play_hand(rules: Rules, deck: list[str], levels: dict[int, str], rng: random.Random,
              times: dict[str, list[float]]) -> dict[str, Any]:
    """Play one hand of ``deck`` (seat 0 deals) with ``levels`` per seat; return the settlement.

    Appends each move's CPU time (ms) to ``times[level]``.
    """
    state, _ = new_game(rules, first_dealer=0, decks=[deck], rng=rng)
    while state.status == PLAYING:
        seat = state.to_act()
        assert seat is not None
        start = time.thread_time()
        action = choose(view(state, seat), levels[seat], rng)
        times.setdefault(levels[seat], []).append((time.thread_time() - start) * 1000)
        apply(state, seat, action)
    assert state.settlement is not None
    return state.settlement


def strong_deals(n: int, seed: int) -> list[int]:
    """Deals ``strong`` samples within its budget per decision, on ``n`` positions on lead
    with 8 talon cards (random phase-1 play): what a faster search buys it."""
    out: list[int] = []
    for i, state in enumerate(first_phase2_positions(n, seed, talon=8)):
        seat = state.to_act()
        assert seat is not None
        out.append(evaluate(view(state, seat), "strong", random.Random(seed + i)).samples)
    return out


def level_times(variant: str, hands: int, seed: int, levels: list[str]
                ) -> dict[str, list[float]]:
    """Per level: CPU ms of each move over ``hands`` hands it plays on every seat."""
    rng = random.Random(seed)
    rules = Rules.make(variant)
    out: dict[str, list[float]] = {}
    for level in levels:
        times: dict[str, list[float]] = {}
        for _ in range(hands):
            deck = [CARD_CODES[c] for c in shuffled_deck(rules.variant, rng)]
            play_hand(rules, deck, dict.fromkeys(range(rules.variant.players), level), rng,
                      times)
        out[level] = times[level]
    return out


def bench_levels(variant: str, hands: int, seed: int, levels: list[str]) -> None:
    for level, times in level_times(variant, hands, seed, levels).items():
        med, p99 = _quantiles(times)
        print(f"{variant} {level}: {len(times)} moves, median {med:.1f} ms, "
              f"p99 {p99:.1f} ms, max {max(times):.1f} ms")


def decision_views(n: int, seed: int, talon: int) -> list[dict[str, Any]]:
    """Views of ``n`` choices (more than one legal action, no declaration due) with ``talon``
    cards left, from two-hand hands between ``normal`` players."""
    rng = random.Random(seed)
    rules = Rules.make("sixty-six")
    out: list[dict[str, Any]] = []
    while len(out) < n:
        state, _ = new_game(rules, first_dealer=0, rng=rng)
        while state.status == PLAYING and len(out) < n:
            seat = state.to_act()
            assert seat is not None
            seen = view(state, seat)
            if (state.talon_open and len(state.talon) == talon
                    and len(legal_actions(state, seat)) > 1
                    and not can_declare_66(Knowledge.from_view(seen))):
                out.append(seen)
            apply(state, seat, choose(seen, "normal", rng))
    return out


def bench_regret(n: int, seed: int, talon: int, oracle_samples: int, levels: list[str],
                 oracle_spec: str | None = None) -> None:
    strong = LEVEL_TABLE["strong"]
    if oracle_spec is not None:
        oracle = level_variant(oracle_spec)
    else:
        oracle = replace(strong, search_talon=talon) if talon <= strong.search_from else strong
    players = {level: level_variant(level) for level in levels}
    loss: dict[str, list[float]] = {level: [] for level in levels}
    for i, seen in enumerate(decision_views(n, seed, talon)):
        ev = evaluate(seen, oracle, random.Random(seed + i), budget_ms=float("inf"),
                      samples=oracle_samples, declare=False)
        value = {a.action: a.value for a in ev.actions}
        for level in levels:
            action = choose(seen, players[level], random.Random(seed + n + i))
            loss[level].append(ev.actions[0].value - value[action])
    how = ("the exact search" if oracle.search_talon >= talon
           else f"the playouts of {oracle.name}")
    for level, losses in loss.items():
        other = sum(x > 0 for x in losses)
        print(f"{level}: {n} choices with {talon} talon cards, mean loss "
              f"{statistics.mean(losses):.3f} game points against {how} over "
              f"{oracle_samples} deals; a worse action {other} times")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", nargs="*", default=["solver"])
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands", type=int, default=20, help="hands per level")
    parser.add_argument("--variant", default="sixty-six")
    parser.add_argument("--levels", nargs="*", default=["easy", "normal", "strong"])
    parser.add_argument("--talon", type=int, default=4, help="talon cards left (regret)")
    parser.add_argument("--oracle-samples", type=int, default=80, help="deals (regret)")
    parser.add_argument("--oracle", metavar="LEVEL",
                        help="regret: the oracle's level or variant (default: strong, searching "
                        "exactly from --talon cards if that is at most its search_from), e.g. "
                        "strong:search_talon=6 for an exact oracle with 6 talon cards")
    parser.add_argument("--against", metavar="PATH",
                        help="solver, talon, deals, levels: also measure another checkout's engine "
                        "in the same run and print the speed-up")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating runs per side with --against")
    parser.add_argument("--passes", type=int, default=1,
                        help="with --against: passes over the positions of solver and talon "
                        "(more than 1: also the best later pass, caches warm)")
    args = parser.parse_args()
    if args.against:
        from engine.benchcmp import compare  # only here: the bench itself runs on any engine

        compare(__file__, "measure", {"what": args.what, "n": args.n, "seed": args.seed,
                                      "hands": args.hands, "levels": args.levels,
                                      "passes": args.passes},
                args.against, args.rounds, {"strong deals per move, 8 talon cards": True})
        return
    for what in ("solver", "talon"):
        if what in args.what:
            bench_paths(what, args.n, args.seed)
    if "deals" in args.what:
        deals = strong_deals(args.n, args.seed)
        print(f"strong, on lead with 8 talon cards, {args.n} positions: mean "
              f"{statistics.mean(deals):.1f} deals per decision, min {min(deals)}")
    if "levels" in args.what:
        bench_levels(args.variant, args.hands, args.seed, args.levels)
    if "regret" in args.what:
        bench_regret(args.n, args.seed, args.talon, args.oracle_samples, args.levels,
                     args.oracle)


if __name__ == "__main__":
    main()
