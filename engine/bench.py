"""Benchmark: random legal hands of the default variant on one core.

Run ``python -m engine.bench [--hands N] [--seed S] [--variant V] [--deck 24|32]``. Prints
hands per second and
microseconds per action (each action: ``legal_actions`` for the seat to act, a random pick,
``apply``; each hand: a seeded shuffle, the deal and the settlement). The shuffle sorts the
deck by a seeded random key per card (:func:`shuffle`: uniform, and half the cost of
:meth:`random.Random.shuffle`'s Python loop; the bench's own cost, the same for every engine).
Time is this process's CPU time, so other processes on a shared machine disturb it less than
wall-clock time; the same games are played ``--repeat`` times and the best and median runs
are printed (on a shared machine the best run is the figure least disturbed by neighbours).

``--variant`` and ``--deck`` (the option ``deck``) bench another variant or pack; the default
sixty-six with 24 cards is then measured in the same run and printed beside it.
``--variant tausendeins`` plays random deals of Tausendeins (:mod:`engine.tausendeins`, pure
Python, default options: the auction, then 12 tricks), each a new game from a seeded shuffle.

``--shuffle-ahead`` shuffles all the decks before the clock starts, so that the figure is the
engine's (and the random picks') alone, without the ~1.5 µs per hand of the shuffle;
``--against`` prints both figures.

``--against PATH`` measures the same games with another checkout's engine (e.g. ``main``'s) in
the same run, alternating fresh interpreters, and prints both and the speed-up
(:mod:`engine.benchcmp`). :mod:`engine.benchpeer` measures the same random hands on the pure
and the compiled path and on another package's engine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from engine.deal import deal, new_game
from engine.play import apply, legal_actions
from engine.rules import VARIANTS, Rules
from engine.state import PLAYING

#: The variant name of :mod:`engine.tausendeins` (imported only to bench it: ``--against`` runs
#: this file on older checkouts that do not have it, nor :mod:`engine.registry`).
TAUSENDEINS = "tausendeins"


def shuffle(deck: list[int], pick: Callable[[], float]) -> None:
    """Shuffle ``deck`` in place: sorted by a key ``pick()`` per card (uniform floats in
    [0, 1): every order equally likely, but for ties of probability ~1e-14)."""
    deck.sort(key=lambda _: pick())


def run(hands: int, seed: int, shuffle_ahead: bool = False, variant: str = "sixty-six",
        deck_size: int = 24) -> tuple[float, float, int]:
    """Play ``hands`` random hands of ``variant`` with the pack of option ``deck``
    ``deck_size``; return (hands/s, µs/action, actions). ``shuffle_ahead``: the decks are
    shuffled before the clock starts."""
    if variant not in VARIANTS:  # another game's variant: that game's bench
        return _bench_of(variant)(hands, seed)
    rng = random.Random(seed)
    options = {} if deck_size == 24 else {"deck": deck_size}
    state, _ = new_game(Rules.make(variant, options), first_dealer=0, rng=rng)
    sides = len(state.score)
    deck = list(state.rules.variant.deck)
    decks: list[list[int]] = []
    pick = rng.random
    if shuffle_ahead:
        for _ in range(hands):
            shuffle(deck, pick)
            decks.append(deck.copy())
    actions = 0
    start = time.process_time()
    for i in range(hands):
        if shuffle_ahead:
            deck = decks[i]
        else:
            shuffle(deck, pick)
        state.status = PLAYING
        state.score = [0] * sides
        deal(state, deck)
        while state.status == PLAYING:
            seat = state.to_act()
            assert seat is not None
            legal = legal_actions(state, seat)
            apply(state, seat, legal[int(pick() * len(legal))])
            actions += 1
    elapsed = time.process_time() - start
    return hands / elapsed, elapsed / actions * 1e6, actions


def _bench_of(variant: str) -> Callable[[int, int], tuple[float, float, int]]:
    """The bench of the game of ``variant``, one not of the Sixty-Six family (``hands``,
    ``seed`` to its figures); a game without one raises :class:`SystemExit`."""
    from engine import registry  # only here: see TAUSENDEINS

    game = registry.for_variant(variant).name
    benches = {TAUSENDEINS: run_tausendeins}
    if game not in benches:
        raise SystemExit(f"engine.bench: no bench for {game}")
    return benches[game]


def _words(variant: str) -> tuple[str, str]:
    """The word for one deal of ``variant``'s game and its plural (``hand``, ``hands``)."""
    from engine import registry  # only here: see TAUSENDEINS

    return registry.for_variant(variant).capabilities.hand_word


def run_tausendeins(deals: int, seed: int) -> tuple[float, float, int]:
    """Play ``deals`` random deals of Tausendeins, each a new game (a seeded shuffle, the deal,
    the auction, 12 tricks and the settlement); return (deals/s, µs/action, actions)."""
    from engine.tausendeins import T1001Rules
    from engine.tausendeins import apply as apply_1001
    from engine.tausendeins import legal_actions as legal_1001
    from engine.tausendeins import new_game as new_game_1001

    rng = random.Random(seed)
    rules = T1001Rules.make({})
    actions = 0
    start = time.process_time()
    for _ in range(deals):
        state, _ = new_game_1001(rules, first_dealer=0, rng=rng)
        while state.status == PLAYING:
            seat = state.to_act()
            assert seat is not None
            legal = legal_1001(state, seat)
            apply_1001(state, seat, legal[int(rng.random() * len(legal))], rng)
            actions += 1
    elapsed = time.process_time() - start
    return deals / elapsed, elapsed / actions * 1e6, actions


def measure(hands: int, seed: int, repeat: int) -> dict[str, float]:
    """The best of ``repeat`` runs of :func:`run`, as figures for :mod:`engine.benchcmp`."""
    per_sec, us_per_action, _ = max(run(hands, seed) for _ in range(repeat))
    ahead = max(run(hands, seed, shuffle_ahead=True)[0] for _ in range(repeat))
    return {"hands/s": per_sec, "µs/action": us_per_action,
            "hands/s, shuffled ahead": ahead}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs of the same games; the best and the median are printed")
    parser.add_argument("--shuffle-ahead", action="store_true",
                        help="shuffle the decks before the clock starts")
    parser.add_argument("--variant", default="sixty-six", help="the variant to bench")
    parser.add_argument("--deck", type=int, default=24, choices=(24, 32),
                        help="the option deck (cards in the pack)")
    parser.add_argument("--against", metavar="PATH",
                        help="also measure another checkout's engine and print the speed-up")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating runs per side with --against")
    args = parser.parse_args()
    if args.deck != 24 and args.variant not in VARIANTS:
        parser.error(f"{args.variant} is played with 24 cards")
    if args.against:
        from engine.benchcmp import compare  # only here: the bench itself runs on any engine

        compare(__file__, "measure", {"hands": args.hands, "seed": args.seed,
                                      "repeat": args.repeat}, args.against, args.rounds,
                {"hands/s": True, "hands/s, shuffled ahead": True})
        return
    benched = [(args.variant, args.deck)]
    if benched[0] != ("sixty-six", 24):
        benched.append(("sixty-six", 24))
    for variant, deck_size in benched:
        runs = sorted((run(args.hands, args.seed, args.shuffle_ahead, variant, deck_size)
                       for _ in range(args.repeat)), reverse=True)
        best, median = runs[0], runs[len(runs) // 2]
        unit = _words(variant)[1]
        print(f"{args.hands} random {unit} of "
              f"{variant} with {deck_size} cards, {best[2]} "
              f"actions, {args.repeat} runs")
        for label, (per_sec, us_per_action, _) in (("best", best), ("median", median)):
            print(f"{label:>6}: {per_sec:,.0f} {unit}/s, {us_per_action:.2f} µs/action "
                  "(legal_actions + apply)")


if __name__ == "__main__":
    main()
