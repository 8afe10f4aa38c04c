"""The bot arena: two computer levels play duplicate deals in-process (``sixtysix arena``).

**Duplicate deals.** The decks come from ``random.Random(seed)``; every deal is played twice,
the second time with the bots' seats swapped, so luck of the cards cancels out. Hands are
independent (each is a fresh game of one hand); the dealer of deal ``i`` is seat
``i % players``. Each hand's computers draw from their own ``random.Random`` seeded by
``(seed, deal, swap)``, so the outcome does not depend on ``--jobs`` (the levels' per-move time
budgets still may: a slower machine samples fewer deals).

**Seating.** Two-hand variants: bot ``a`` sits forehand in the first hand of a deal, ``b`` in
the second. ``three-hand``: the dealer sits out, so the two bots take the two active seats the
same way. ``four-hand``: partnerships — ``a`` holds both seats of one pair (seats 0+2 first),
``b`` the other pair.

**Figures per bot.** Game points per hand and their share of all game points won; hands won
with a 95% Wilson confidence interval (a hand nobody wins counts for neither); matches won,
counting a match whenever a bot's running total over the sequence of hands (in deal order)
reaches the rules' ``match_points`` (both totals then restart); mean and 95th-percentile
wall time per decision in ms (every call of :func:`engine.ai.choose`, forced moves included),
and the median and 99th percentile of its CPU time (of the deciding thread: what the levels'
budgets count, and what load on the machine does not inflate).

**Sequential mode** (``sequential=True``, ``sixtysix arena --sequential``): ``hands`` is a cap;
the arena stops after the first duplicate pair at which the anytime-valid interval of bot a's
share of game points excludes 50% (:mod:`api.arena.sequential` says which test and why), so that a
clear difference costs minutes; the progress bar shows the running share and interval. It
may also stop at a time limit (``max_minutes``): the interval holds at any stopping time.
"""

from __future__ import annotations

import csv
import io
import json
import math
import multiprocessing
import random
import time
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Final, TextIO

from tqdm import tqdm

from api.arena.sequential import SequentialShare, ShareInterval
from engine import PLAYING, Rules, apply, new_game, view
from engine.ai import Level, choose, level_variant
from engine.cards import CARD_CODES
from engine.deal import deal_order, shuffled_deck
from engine.errors import InvalidOption
from engine.rules import Variant

#: z of a two-sided 95% normal interval.
Z95: Final = 1.959963984540054
CSV_FIELDS: Final = ("bot", "level", "hands", "game_points", "game_points_per_hand",
                     "game_point_share", "hands_won", "win_rate", "win_rate_low",
                     "win_rate_high", "matches_won", "moves", "mean_ms", "p95_ms",
                     "median_cpu_ms", "p99_cpu_ms")


class ArenaError(ValueError):
    """Arena settings that cannot be played (unknown level, odd number of hands...)."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand: game points won by bots a and b, and each bot's decision times (ms): wall
    clock in ``ms``, CPU time of the deciding thread in ``cpu``."""

    deal: int
    swapped: bool
    points: tuple[int, int]
    ms: tuple[tuple[float, ...], tuple[float, ...]]
    cpu: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())


@dataclass(frozen=True, slots=True)
class BotStats:
    bot: str
    level: str
    hands: int
    game_points: int
    game_points_per_hand: float
    game_point_share: float
    hands_won: int
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    matches_won: int
    moves: int
    mean_ms: float
    p95_ms: float
    median_cpu_ms: float = 0.0
    p99_cpu_ms: float = 0.0


@dataclass(frozen=True, slots=True)
class ArenaResult:
    variant: str
    seed: int
    hands: int
    match_points: int
    bots: tuple[BotStats, BotStats]
    #: Game points of a minus those of b after each hand, in deal order.
    cumulative_difference: tuple[int, ...]
    #: Sequential mode: bot a's share of game points with its anytime-valid interval at the
    #: end (``decided``: it stopped because the interval excludes 50%).
    sequential: ShareInterval | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {"variant": self.variant, "seed": self.seed, "hands": self.hands,
               "deals": self.hands // 2, "match_points": self.match_points,
               "bots": [asdict(b) for b in self.bots],
               "final_difference": self.cumulative_difference[-1]}
        if self.sequential is not None:
            out["sequential"] = asdict(self.sequential)
        return out


# --------------------------------------------------------------------------- playing


def bot_of_seat(variant: Variant, dealer: int, swapped: bool) -> dict[int, int]:
    """Which bot (0 = a, 1 = b) plays each seat of a hand (see the module doc)."""
    if variant.players == 4:
        return {seat: variant.side_of(seat) ^ swapped for seat in range(4)}
    return {seat: i ^ swapped for i, seat in enumerate(deal_order(variant, dealer))}


def play_hand(rules: Rules, deck: Sequence[str], deal: int, swapped: bool,
              levels: tuple[Level, Level], seed: int) -> HandResult:
    """Play one hand of ``deck`` to its settlement with the bots seated per :func:`bot_of_seat`."""
    variant = rules.variant
    dealer = deal % variant.players
    bots = bot_of_seat(variant, dealer, swapped)
    rng = random.Random(f"{seed}:{deal}:{int(swapped)}")
    state, _ = new_game(rules, first_dealer=dealer, decks=[deck], rng=rng)
    ms: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    while state.status == PLAYING:
        seat = state.to_act()
        assert seat is not None
        bot = bots[seat]
        start, start_cpu = time.perf_counter(), time.thread_time()
        action = choose(view(state, seat), levels[bot], rng)
        cpu[bot].append((time.thread_time() - start_cpu) * 1000)
        ms[bot].append((time.perf_counter() - start) * 1000)
        apply(state, seat, action)
    settlement = state.settlement
    assert settlement is not None
    points = [0, 0]
    if settlement["winner_side"] is not None:
        points[bots[settlement["winners"][0]]] = settlement["game_points"]
    return HandResult(deal, swapped, (points[0], points[1]), (tuple(ms[0]), tuple(ms[1])),
                      (tuple(cpu[0]), tuple(cpu[1])))


@dataclass(frozen=True, slots=True)
class _Deal:
    """A task for a worker: both hands of one deal."""

    variant: str
    deck: tuple[str, ...]
    deal: int
    levels: tuple[Level, Level]
    seed: int
    #: Rule options (name, value) of the variant; none: its defaults.
    options: tuple[tuple[str, object], ...] = ()

    def play(self) -> tuple[HandResult, HandResult]:
        rules = Rules.make(self.variant, dict(self.options))
        return (play_hand(rules, self.deck, self.deal, False, self.levels, self.seed),
                play_hand(rules, self.deck, self.deal, True, self.levels, self.seed))


def _play(task: _Deal) -> tuple[HandResult, HandResult]:
    return task.play()


def deals(variant: str, levels: tuple[Level, Level], hands: int, seed: int,
          options: Mapping[str, object] | None = None) -> list[_Deal]:
    """The tasks of an arena of ``hands`` hands: ``hands / 2`` decks drawn from ``seed`` (of
    the pack the rule ``options`` choose)."""
    rules = Rules.make(variant, options)
    rng = random.Random(seed)
    opts = tuple((options or {}).items())
    return [_Deal(variant, tuple(CARD_CODES[c] for c in shuffled_deck(rules.variant, rng)), i,
                  levels, seed, opts) for i in range(hands // 2)]


def play_pairs(tasks: Sequence[_Deal], jobs: int
               ) -> Generator[tuple[HandResult, HandResult], None, None]:
    """Play every deal (in ``jobs`` processes when more than one), yielding them in order.
    Closing the iterator early stops the workers."""
    if jobs <= 1:
        yield from map(_play, tasks)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(_play, tasks)


def play_all(tasks: Sequence[_Deal], jobs: int, progress: bool) -> Iterator[HandResult]:
    """Play every deal (see :func:`play_pairs`), yielding hands in order."""
    bar = tqdm(total=2 * len(tasks), unit="hand", disable=not progress, dynamic_ncols=True)
    with bar:
        for pair in play_pairs(tasks, jobs):
            bar.update(2)
            yield from pair


def play_sequential(tasks: Sequence[_Deal], jobs: int, progress: bool, alpha: float,
                    max_seconds: float = math.inf) -> tuple[list[HandResult], ShareInterval]:
    """Play deals until the sequential test decides (see the module doc), they run out or
    ``max_seconds`` of wall-clock time have passed (the interval stays valid: it holds at
    every stopping time); the hands played and bot a's share of game points with its
    interval."""
    deadline = time.monotonic() + max_seconds
    test = SequentialShare(alpha)
    interval = test.interval()
    hands: list[HandResult] = []
    bar = tqdm(total=2 * len(tasks), unit="hand", disable=not progress, dynamic_ncols=True)
    pairs = play_pairs(tasks, jobs)
    with bar:
        try:
            for pair in pairs:
                hands.extend(pair)
                interval = test.add(sum(h.points[0] for h in pair),
                                    sum(h.points[1] for h in pair))
                bar.update(2)
                bar.set_postfix_str(f"a's share {interval.text()}", refresh=False)
                if interval.decided or time.monotonic() >= deadline:
                    break
        finally:
            pairs.close()
    return hands, interval


# --------------------------------------------------------------------------- figures


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``(0, 1)`` when ``n`` is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0..100) of ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def matches_won(points: Iterable[tuple[int, int]], target: int) -> tuple[int, int]:
    """Matches won by a and b over a sequence of hands: first to ``target`` game points."""
    score = [0, 0]
    won = [0, 0]
    for hand in points:
        score = [score[0] + hand[0], score[1] + hand[1]]
        if max(score) >= target:
            won[0 if score[0] >= target else 1] += 1
            score = [0, 0]
    return won[0], won[1]


def summarize(variant: str, seed: int, levels: tuple[str, str],
              results: Sequence[HandResult],
              options: Mapping[str, object] | None = None) -> ArenaResult:
    """The figures of the module doc from the hands of an arena, in deal order."""
    target = Rules.make(variant, options).match_points
    n = len(results)
    totals = [sum(r.points[i] for r in results) for i in (0, 1)]
    matches = matches_won((r.points for r in results), target)
    bots = []
    for i, name in enumerate(("a", "b")):
        won = sum(1 for r in results if r.points[i] > 0)
        low, high = wilson(won, n)
        ms = [t for r in results for t in r.ms[i]]
        cpu = [t for r in results for t in r.cpu[i]]
        bots.append(BotStats(
            bot=name, level=levels[i], hands=n, game_points=totals[i],
            game_points_per_hand=totals[i] / n if n else 0.0,
            game_point_share=totals[i] / sum(totals) if sum(totals) else 0.5,
            hands_won=won, win_rate=won / n if n else 0.0, win_rate_low=low, win_rate_high=high,
            matches_won=matches[i], moves=len(ms),
            mean_ms=sum(ms) / len(ms) if ms else 0.0, p95_ms=percentile(ms, 95),
            median_cpu_ms=percentile(cpu, 50), p99_cpu_ms=percentile(cpu, 99)))
    diff: list[int] = []
    for r in results:
        diff.append((diff[-1] if diff else 0) + r.points[0] - r.points[1])
    return ArenaResult(variant, seed, n, target, (bots[0], bots[1]), tuple(diff))


def check_hands(hands: int) -> None:
    """:class:`ArenaError` unless ``hands`` is even and at least 2."""
    if hands < 2 or hands % 2:
        raise ArenaError(f"--hands must be even and at least 2 (each deal is played twice); "
                         f"got {hands}")


def run(a: str, b: str, hands: int, variant: str = "sixty-six", seed: int = 1, jobs: int = 1,
        progress: bool = False, sequential: bool = False, alpha: float = 0.05,
        max_minutes: float = math.inf, options: Mapping[str, object] | None = None
        ) -> ArenaResult:
    """Play ``hands`` hands (``hands / 2`` duplicate deals) of level ``a`` against ``b``;
    ``sequential``: at most that many, stopping once the test at level ``alpha`` decides
    (module doc) or after the first deal that ends past ``max_minutes``. ``options``: rule
    options of the variant (such as ``{"deck": 32}``)."""
    try:
        levels = (level_variant(a), level_variant(b))  # resolved once, then sent to the workers
    except ValueError as e:
        raise ArenaError(str(e)) from None
    check_hands(hands)
    if jobs < 1:
        raise ArenaError(f"--jobs must be at least 1; got {jobs}")
    try:
        Rules.make(variant, options)  # an unknown variant fails here, before any process starts
    except InvalidOption as e:
        raise ArenaError(str(e)) from None
    if not 0 < alpha < 1:
        raise ArenaError(f"--alpha must lie strictly between 0 and 1; got {alpha}")
    tasks = deals(variant, levels, hands, seed, options)
    if not sequential:
        return summarize(variant, seed, (a, b), list(play_all(tasks, jobs, progress)), options)
    if max_minutes <= 0:
        raise ArenaError(f"--max-minutes must be positive; got {max_minutes}")
    played, interval = play_sequential(tasks, jobs, progress, alpha, 60 * max_minutes)
    return replace(summarize(variant, seed, (a, b), played, options), sequential=interval)


# --------------------------------------------------------------------------- output


def render_text(result: ArenaResult) -> str:
    lines = [f"{result.variant}: {result.bots[0].level} (a) vs {result.bots[1].level} (b), "
             f"{result.hands} hands = {result.hands // 2} deals each played twice with the "
             f"seats swapped, seed {result.seed}, matches to {result.match_points}",
             f"{'bot':<10} {'game pts/hand':>13} {'share':>6} {'hands won':>9} "
             f"{'rate [95% CI]':>22} {'matches':>7} {'mean ms':>8} {'p95 ms':>8}"]
    for s in result.bots:
        lines.append(
            f"{s.bot + ' ' + s.level:<10} {s.game_points_per_hand:>13.3f} "
            f"{s.game_point_share:>6.1%} {s.hands_won:>9} "
            f"{f'{s.win_rate:.1%} [{s.win_rate_low:.1%}, {s.win_rate_high:.1%}]':>22} "
            f"{s.matches_won:>7} {s.mean_ms:>8.1f} {s.p95_ms:>8.1f}")
    lines.append("CPU ms per move, median/p99: " + ", ".join(
        f"{s.level} {s.median_cpu_ms:.0f}/{s.p99_cpu_ms:.0f}" for s in result.bots))
    seq = result.sequential
    if seq is not None:
        verdict = ("stopped: the interval excludes 50%" if seq.decided
                   else "undecided: the interval still holds 50%")
        lines.append(f"sequential test: {result.bots[0].level}'s share of game points "
                     f"{seq.text()} after {seq.pairs} duplicate pairs (anytime-valid "
                     f"interval), {verdict}")
    return "\n".join(lines) + "\n"


def render_json(result: ArenaResult) -> str:
    return json.dumps(result.as_dict(), indent=2) + "\n"


def render_csv(result: ArenaResult) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for s in result.bots:
        writer.writerow(asdict(s))
    return out.getvalue()


def plot_cumulative(result: ArenaResult, path: Path) -> None:
    """Draw the cumulative game-point difference (a − b) per hand to ``path`` (matplotlib)."""
    try:
        import matplotlib
    except ImportError:
        raise ArenaError("--plot needs matplotlib: pip install 'sixtysix[plot]'") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot

    a, b = result.bots
    fig, ax = pyplot.subplots(figsize=(8, 4.5))
    try:
        ax.plot(range(1, result.hands + 1), result.cumulative_difference, linewidth=1)
        ax.axhline(0, color="grey", linewidth=0.5)
        ax.set_xlabel("hand")
        ax.set_ylabel(f"game points {a.level} (a) − {b.level} (b)")
        ax.set_title(f"{result.variant}: {a.level} vs {b.level}, {result.hands} duplicate hands, "
                     f"seed {result.seed}")
        fig.tight_layout()
        fig.savefig(path)
    finally:
        pyplot.close(fig)


def write(result: ArenaResult, fmt: str, out: TextIO) -> None:
    """Print ``result`` as ``text``, ``json`` or ``csv``."""
    out.write({"text": render_text, "json": render_json, "csv": render_csv}[fmt](result))
