"""A seeded arena for the Tausendeins computer levels: a small strength table.

``python -m engine.tausendeins.arena --deals 40 [--seed 1] [--levels random easy normal
strong] [--option bidding=none ...]`` plays, for each pair of levels, ``--deals`` deals, each
dealt from a seeded shuffle and played twice with the seats swapped (duplicate play, so the
cards favour neither level). It prints, per pair, the first level's mean margin a deal
(its change of total minus the other's, in game points) with a 95% interval, and the share of
deals it scored more in (ties count half); then each level's CPU time per move (moves with a
choice only).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, count, islice

from engine.cards import CARD_CODES
from engine.rules import SIXTY_SIX
from engine.tausendeins.ai import Level, choose, level
from engine.tausendeins.deal import new_game
from engine.tausendeins.game import apply
from engine.tausendeins.options import T1001Rules
from engine.tausendeins.state import PLAYING
from engine.tausendeins.view import view

#: CPU seconds of each level's moves (its choices with more than one legal action).
Think = dict[str, list[float]]


def play_deal(rules: T1001Rules, deck: list[str], levels: Sequence[str | Level],
              first_dealer: int, seed: int, think: Think | None = None) -> int:
    """One deal of ``deck`` with ``levels[s]`` in seat ``s``; seat 0's margin (its change of
    total minus seat 1's). Each real choice's CPU time goes to ``think``."""
    rng = random.Random(seed)
    state, _ = new_game(rules, first_dealer=first_dealer, decks=[deck], rng=rng)
    while state.status == PLAYING:
        seat = state.to_act()
        assert seat is not None
        seen = view(state, seat)
        start = time.process_time()
        action = choose(seen, levels[seat], rng)
        if think is not None and len(seen["legal_actions"]) > 1:
            think.setdefault(level(levels[seat]).name, []).append(time.process_time() - start)
        apply(state, seat, action, rng)
    return state.totals[0] - state.totals[1]


@dataclass(frozen=True, slots=True)
class Result:
    """The first level's margins a deal against the second (one per deal played)."""

    first: str
    second: str
    margins: tuple[int, ...]

    @property
    def mean(self) -> float:
        return sum(self.margins) / len(self.margins)

    @property
    def half_width(self) -> float:
        """Half the 95% interval of the mean margin (normal approximation)."""
        n = len(self.margins)
        if n < 2:
            return math.inf
        var = sum((m - self.mean) ** 2 for m in self.margins) / (n - 1)
        return 1.96 * math.sqrt(var / n)

    @property
    def score(self) -> float:
        """The share of deals the first level scored more in (ties half)."""
        return sum(map(deal_score, self.margins)) / len(self.margins)


def duplicate_deals(rules: T1001Rules, first: str | Level, second: str | Level, seed: int,
                    think: Think | None = None) -> Iterator[tuple[int, int]]:
    """Endless duplicate deals (see the module text): deal ``i`` is dealt from the ``i``-th
    shuffle of ``random.Random(seed)``, dealer ``i % 2``, and played with ``first`` in seat 0,
    then in seat 1; yields the first level's two margins."""
    rng = random.Random(seed)
    for i in count():
        order = list(SIXTY_SIX.deck)
        rng.shuffle(order)
        deck = [CARD_CODES[c] for c in order]
        yield (play_deal(rules, deck, (first, second), i % 2, seed + i, think),
               -play_deal(rules, deck, (second, first), i % 2, seed + i, think))


def match(rules: T1001Rules, first: str | Level, second: str | Level, deals: int,
          seed: int, think: Think | None = None) -> Result:
    """``deals`` deals, each played twice with the seats swapped (see the module text)."""
    margins = [m for pair in islice(duplicate_deals(rules, first, second, seed, think), deals)
               for m in pair]
    name = level(first).name, level(second).name
    return Result(name[0], name[1], tuple(margins))


def deal_score(margin: int) -> float:
    """A deal's outcome for the level whose margin it is: 1 if it scored more, 0.5 at equal,
    0 else."""
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def parse_option(text: str) -> tuple[str, object]:
    """A rule option ``name=value`` of the command line (``true``/``false`` and digits typed)."""
    name, _, raw = text.partition("=")
    value: object = {"true": True, "false": False}.get(raw, raw)
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    return name, value


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="+", default=["random", "easy", "normal", "strong"])
    parser.add_argument("--option", action="append", default=[],
                        help="a rule option as name=value (repeatable)")
    args = parser.parse_args(argv)
    rules = T1001Rules.make(dict(parse_option(o) for o in args.option))
    print(f"Tausendeins arena: {args.deals} deals a pair, each played both ways, seed "
          f"{args.seed}, options {rules.changed_options() or 'default'}")
    print(f"{'first':>8} {'second':>8} {'margin/deal':>12} {'95% ±':>7} {'deals won':>10}")
    think: Think = {}
    for a, b in combinations(args.levels, 2):
        r = match(rules, b, a, args.deals, args.seed, think)
        print(f"{r.first:>8} {r.second:>8} {r.mean:>12.1f} {r.half_width:>7.1f} "
              f"{r.score:>10.1%}")
    print(f"{'level':>8} {'moves':>6} {'CPU ms/move median':>19} {'p99':>6} {'max':>6}")
    for name, times in think.items():
        ms = sorted(1000 * t for t in times)
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        print(f"{name:>8} {len(ms):>6} {statistics.median(ms):>19.1f} {p99:>6.1f} "
              f"{ms[-1]:>6.1f}")


if __name__ == "__main__":
    main()
