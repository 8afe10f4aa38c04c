"""The strength table of the computer levels: ``python -m api.arena.strength`` writes
docs/strength.md.

Every pairing of adjacent levels (``easy``–``random``, ``normal``–``easy``, ``strong``–
``normal``, ``expert``–``strong``), and ``strong`` and ``expert`` against the frozen
``strong_v1``, plays a sequential arena (:mod:`api.arena`, :mod:`api.arena.sequential`): duplicate
deals until the anytime-valid 95% interval of the stronger level's share of game points
excludes 50%, ``--hands`` are played or ``--max-minutes`` have passed. The results are merged
into a JSON file (``--json``, default docs/strength.json: one entry per pairing, so a pairing
may be re-measured alone with ``--pairs strong:strong_v1``; ``A/B`` when a level is a variant
with settings, such as ``strong:budget_ms=100/strong_v1:budget_ms=100``) and the markdown table
(``--out``) is rendered from all of them, with each level's CPU time per move (median and p99,
of the deciding thread). ``--pairs`` alone measures nothing and renders the markdown again.

``--jobs N`` plays the duplicate pairs in ``N`` processes (the test still looks at them in deal
order, so the stopping point does not depend on ``N``). Each entry names the engine path it
was measured on (``pure`` or ``compiled``, :func:`engine_path`): the two are kept apart, a
compiled entry under its own key, since a faster search buys the levels more deals within the
same CPU budget. Each entry also states its pace, hands per minute of wall-clock time.

**Other games and packs.** A pairing may name its game after ``@``: ``A:B@GAME``, ``GAME`` a
comma-separated list of a variant name and rule options ``name=value``, either one left out
(the variant then is ``sixty-six``): ``strong:normal@deck=32`` (two-hand Sixty-Six with the
32-card pack), ``strong:normal@tausendeins``, ``strong:normal@tausendeins,bidding=none``. The
entry records it as ``game`` (``sixty-six,deck=32``; its key gains `` @sixty-six,deck=32``);
an entry without ``game`` is two-hand ``sixty-six`` with its 24 cards, the table's own game.
A Sixty-Six family variant plays the arena above with those rule options. Tausendeins plays
the duplicate deals of :func:`engine.tausendeins.arena.duplicate_deals` (one deal is one hand
there) with a bounded outcome: each deal scores 1 for a when a's margin (its change of total
minus b's) is positive, 0.5 at equal, 0 else, and the sequential test of
:mod:`api.arena.sequential` runs on a's share of those scores per duplicate pair (the mean of
its two, in [0, 1]); the entry also keeps a's mean margin a deal with its 95% interval. Its
CPU times are those of the moves with a choice (:func:`engine.tausendeins.arena.play_deal`).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict
from itertools import islice
from pathlib import Path
from typing import Any, Final

from tqdm import tqdm

from api import arena
from api.arena.sequential import SequentialShare
from engine.ai.player import LEVELS, RETIRED
from engine.errors import InvalidOption
from engine.family import SIXTY_SIX_FAMILY
from engine.hosted import game_name, make_rules

# The engine paths (pure Python or compiled) as engine.native tells them.
from engine.native import COMPILED_PATH as COMPILED
from engine.native import PURE_PATH as PURE
from engine.native import path as engine_path
from engine.tausendeins.ai import level as t1001_level
from engine.tausendeins.arena import Result, Think, deal_score, duplicate_deals, parse_option
from engine.tausendeins.options import T1001Rules

#: Pairings of the table, (stronger, weaker) as (a, b).
PAIRINGS: Final = (("easy", "random"), ("normal", "easy"), ("strong", "normal"),
                   ("strong", "strong_v1"), ("expert", "strong"), ("expert", "strong_v1"))
#: The levels one above the other, each with the level below it: a level is offered
#: (:data:`engine.ai.LEVELS`) only while the table decides it stronger than that one
#: (:func:`decided_stronger`), in the table's own game.
LADDER: Final = (("easy", "random"), ("normal", "easy"), ("strong", "normal"),
                 ("expert", "strong"))


#: The key of the JSON file that holds ``python -m tests.bench.bench_capacity --record``'s figures,
#: per engine path (not a pairing).
CAPACITY: Final = "capacity"


#: The table's own game: every entry without a ``game`` was measured in it.
SIXTY_SIX: Final = "sixty-six"
#: The variant name of Tausendeins in a pairing's game.
TAUSENDEINS: Final = "tausendeins"
#: The games :mod:`api.arena` measures, on ``jobs`` processes (the Sixty-Six family's);
#: Tausendeins' arena is :func:`measure_tausendeins`, in one process.
PARALLEL_GAMES: Final = frozenset({SIXTY_SIX_FAMILY.name})


def pair_key(a: str, b: str, engine: str = PURE, game: str = SIXTY_SIX) -> str:
    """The JSON key of a pairing: ``a vs b``, with `` (compiled)`` on the compiled path and
    `` @game` in a game other than two-hand 24-card ``sixty-six``."""
    return (f"{a} vs {b}" + ("" if engine == PURE else f" ({engine})")
            + ("" if game == SIXTY_SIX else f" @{game}"))


def parse_game(text: str) -> tuple[str, dict[str, object]]:
    """The variant and rule options of a pairing's ``@GAME`` (module doc); ``SystemExit`` on
    a game that cannot be played."""
    variant, options = SIXTY_SIX, {}
    for i, item in enumerate(filter(None, text.split(","))):
        if "=" in item:
            name, value = parse_option(item)
            options[name] = value
        elif i == 0:
            variant = item
        else:
            raise SystemExit(f"@GAME names its variant first, then options name=value; got "
                             f"{text!r}")
    try:
        make_rules(variant, options)
    except InvalidOption as exc:
        raise SystemExit(f"api.arena.strength: @{text}: {exc}") from None
    return variant, options


def game_label(variant: str, options: dict[str, object]) -> str:
    """A game as the JSON entry names it: the variant, then its options (``sixty-six,deck=32``)."""
    return ",".join([variant, *(f"{k}={v}" for k, v in options.items())])


def measure(a: str, b: str, hands: int, max_minutes: float, seed: int,
            progress: bool, jobs: int = 1, variant: str = SIXTY_SIX,
            options: dict[str, object] | None = None) -> dict[str, Any]:
    """One pairing's sequential arena, as the JSON entry of the table (Tausendeins: by
    :func:`measure_tausendeins`, in one process)."""
    start = time.monotonic()
    options = options or {}
    parallel = game_name(variant) in PARALLEL_GAMES
    if parallel:
        entry = arena.run(a, b, hands, variant, seed=seed, jobs=jobs, progress=progress,
                          sequential=True, max_minutes=max_minutes,
                          options=options).as_dict()
    else:
        entry = measure_tausendeins(a, b, hands, max_minutes, seed, progress, options)
    minutes = (time.monotonic() - start) / 60
    if variant != SIXTY_SIX or options:
        entry["game"] = game_label(variant, options)
    result_hands: int = entry["hands"]
    entry["measured"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    entry["cap_hands"] = hands
    entry["engine"] = engine_path()
    entry["jobs"] = jobs if parallel else 1
    entry["minutes"] = round(minutes, 2)
    entry["hands_per_minute"] = round(result_hands / minutes, 2) if minutes > 0 else 0.0
    return entry


def measure_tausendeins(a: str, b: str, hands: int, max_minutes: float, seed: int,
                        progress: bool, options: dict[str, object]) -> dict[str, Any]:
    """A sequential Tausendeins arena of ``a`` against ``b`` (module doc): at most ``hands``
    deals, ``hands / 2`` duplicate pairs, as a JSON entry shaped as the arena's."""
    try:
        t1001_level(a), t1001_level(b)
    except KeyError as exc:
        raise arena.ArenaError(exc.args[0]) from None
    arena.check_hands(hands)
    if max_minutes <= 0:
        raise arena.ArenaError(f"--max-minutes must be positive; got {max_minutes}")
    rules = T1001Rules.make(options)
    deadline = time.monotonic() + 60 * max_minutes
    test = SequentialShare()
    think: Think = {}
    interval = test.interval()
    margins: list[int] = []
    with tqdm(total=hands, unit="deal", disable=not progress, dynamic_ncols=True) as bar:
        for pair in islice(duplicate_deals(rules, a, b, seed, think), hands // 2):
            margins += pair
            score = sum(map(deal_score, pair)) / 2
            interval = test.add(score, 1 - score)
            bar.update(2)
            bar.set_postfix_str(f"a's share {interval.text()}", refresh=False)
            if interval.decided or time.monotonic() >= deadline:
                break
    result = Result(a, b, tuple(margins))
    bots = [_t1001_bot(name, level, [sign * m for m in margins], think.get(t1001_level(level)
                                                                           .name, []))
            for name, level, sign in (("a", a, 1), ("b", b, -1))]
    return {"variant": TAUSENDEINS, "seed": seed, "hands": len(margins),
            "deals": len(margins) // 2, "bots": bots,
            "mean_margin": result.mean, "margin_half_width": result.half_width,
            "sequential": asdict(interval)}


def _t1001_bot(name: str, level: str, margins: list[int], seconds: list[float]
               ) -> dict[str, Any]:
    """A bot's figures of a Tausendeins entry: ``game_points`` its summed margin, hands won
    the deals it scored more in, CPU ms of its moves with a choice."""
    won = sum(1 for m in margins if m > 0)
    low, high = arena.wilson(won, len(margins))
    ms = [1000 * t for t in seconds]
    return {"bot": name, "level": level, "hands": len(margins), "game_points": sum(margins),
            "deal_share": sum(map(deal_score, margins)) / len(margins) if margins else 0.5,
            "hands_won": won, "win_rate": won / len(margins) if margins else 0.0,
            "win_rate_low": low, "win_rate_high": high, "moves": len(ms),
            "median_cpu_ms": arena.percentile(ms, 50), "p99_cpu_ms": arena.percentile(ms, 99)}


def _share_cell(entry: dict[str, Any]) -> str:
    seq = entry["sequential"]
    return f"{seq['share']:.1%} [{seq['low']:.1%}, {seq['high']:.1%}]"


def _verdict(entry: dict[str, Any]) -> str:
    seq = entry["sequential"]
    if seq["decided"]:
        return "a stronger" if seq["low"] > 0.5 else "b stronger"
    return "undecided (50% inside)"


def decided_stronger(entries: dict[str, dict[str, Any]], a: str, b: str,
                     game: str = SIXTY_SIX) -> bool:
    """Whether an entry of ``a`` against ``b`` in ``game`` (either engine path) has its
    anytime-valid interval of a's share wholly above 50%."""
    return any(key != CAPACITY and e.get("game", SIXTY_SIX) == game
               and [bot["level"] for bot in e["bots"]] == [a, b]
               and e["sequential"]["decided"] and e["sequential"]["low"] > 0.5
               for key, e in entries.items())


def _offered(entries: dict[str, dict[str, Any]]) -> list[str]:
    """The section of the levels offered: each level of :data:`LADDER`, whether the table
    decides it stronger than the one below, and whether the API offers it."""
    lines = ["", "Levels offered (`GET /v1/rules`): a level is offered only while a pairing "
             "above, in the table's own game, decides it stronger than the level below it "
             "(its interval wholly above 50%); a level that is not stays for the arena, and a "
             "stored game's seat of it plays as the level named here:", "",
             "| level | the level below | decided stronger | offered |", "|---|---|---|---|"]
    for a, b in LADDER:
        decided = decided_stronger(entries, a, b)
        offer = ("yes" if a in LEVELS else f"no: a stored game's `{a}` seat plays as "
                 f"`{RETIRED[a]}`" if a in RETIRED else "no")
        lines.append(f"| {a} | {b} | {'yes' if decided else 'no'} | {offer} |")
    return lines


def render(entries: dict[str, dict[str, Any]]) -> str:
    """The markdown of docs/strength.md from the JSON entries (game by game, the table's own
    first, each in the order of PAIRINGS, then its other pairings)."""
    by_game: dict[str, list[str]] = {}
    for key in sorted(k for k in entries if k != CAPACITY):
        by_game.setdefault(entries[key].get("game", SIXTY_SIX), []).append(key)
    order = []
    for game in sorted(by_game, key=lambda game: (game != SIXTY_SIX, game)):
        table = [key for a, b in PAIRINGS
                 for key in (pair_key(a, b, PURE, game), pair_key(a, b, COMPILED, game))
                 if key in entries]
        order += table + [key for key in by_game[game] if key not in table]
    lines = [
        "# Strength of the computer levels",
        "",
        "Generated by `python -m api.arena.strength` (api/arena/strength.py) from "
        "docs/strength.json; do not edit by hand. Two-hand `sixty-six` with its 24 cards "
        "unless the game column says otherwise (`sixty-six,deck=32`: the 32-card pack; "
        "`tausendeins`: Tausendeins), duplicate deals "
        "(each played twice with the "
        "seats swapped). Each pairing stops once the anytime-valid 95% interval "
        "of a's share of game points (a confidence sequence, api/arena/sequential.py) "
        "excludes 50%, "
        "or at its cap of hands or minutes; the interval is valid at whatever point it "
        "stopped. CPU time per move is that of the deciding thread (forced moves included), "
        "so load on the machine does not inflate it. Engine: the pure-Python path or the "
        "compiled one (measured apart); pace: hands per minute of wall-clock time with that "
        "many processes (jobs; older entries: one). Tausendeins (one deal is one hand "
        "there): a's share is of deal scores, not game points, each deal scoring 1 for a "
        "when a's margin (its change of total minus b's) is positive, 0.5 at equal, 0 else; "
        "the game points column gives a's mean margin a deal with its 95% interval; hands won "
        "by a: the deals it scored more in; CPU time: moves with a choice only.",
        "",
        "| a vs b | game | engine | hands (deals) | a's share of game points [95%] | verdict "
        "| game points a:b | hands won by a [95% Wilson] | a CPU ms/move median, p99 "
        "| b CPU ms/move median, p99 | hands/min (jobs) | measured | seed |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    think: dict[str, tuple[float, float, int]] = {}
    for key in order:
        e = entries[key]
        a, b = e["bots"]
        lines.append(
            f"| {a['level']} vs {b['level']} | {e.get('game', SIXTY_SIX)} "
            f"| {e.get('engine', PURE)} | {e['hands']} "
            f"({e['hands'] // 2}) of at most "
            f"{e['cap_hands']} | {_share_cell(e)} | {_verdict(e)} | {_points_cell(e)} "
            f"| {a['hands_won']} ({a['win_rate']:.1%} [{a['win_rate_low']:.1%}"
            f", {a['win_rate_high']:.1%}]) | {a['median_cpu_ms']:.0f}, {a['p99_cpu_ms']:.0f} | "
            f"{b['median_cpu_ms']:.0f}, {b['p99_cpu_ms']:.0f} | {_pace(e)} | {e['measured']} "
            f"| {e['seed']} |")
        for bot in (a, b):
            name = (bot["level"] + ("" if e.get("engine", PURE) == PURE else f" ({e['engine']})")
                    + ("" if "game" not in e else f" @{e['game']}"))
            if bot["moves"] > think.get(name, (0.0, 0.0, 0))[2]:
                think[name] = (bot["median_cpu_ms"], bot["p99_cpu_ms"], bot["moves"])
    lines += ["", "Think time per level (CPU ms per move, from the pairing where it made most "
              "moves):", "", "| level | median | p99 | moves |", "|---|---|---|---|"]
    for level, (med, p99, moves) in think.items():
        lines.append(f"| {level} | {med:.0f} | {p99:.0f} | {moves} |")
    return "\n".join(lines + _offered(entries) + _capacity(entries.get(CAPACITY, {}))) + "\n"


def _capacity(paths: dict[str, dict[str, Any]]) -> list[str]:
    """The capacity section: the figures of tests/bench/bench_capacity.py per engine path."""
    if not paths:
        return []
    lines = ["", "Capacity: games against a computer one worker core carries at a human's pace "
             "(`python -m tests.bench.bench_capacity --record`, tests/bench/bench_capacity.py: a"
             " human move every few seconds, the computer's reply timed on the wall clock "
             "through the real queue and one worker process; a ramp of concurrent games, one "
             "step after another, until the reply p99 passed the limit; games per core: the most"
             " games within it; the worker's cores: what it used then, at most one; the model: "
             "the same humans on one whole quiet core, from the replies' CPU time; the ramp: "
             "each step's games asked for, reply p99, the games playing at its end and the "
             "creates refused with 503 computers-busy, in entries measured since replies have "
             "a deadline):", "",
             "| engine | level | human move, reply p99 limit | games per core | reply p50, p99 "
             "| hands/min | worker's cores | the next step | model | ramp | load average | "
             "measured | command |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for path, r in paths.items():
        passed = (f"{r['p50_s']:.2f} s, {r['p99_s']:.2f} s | {r['hands_per_minute']:.1f} | "
                  f"{r['worker_cores']:.2f}" if r["games"] else "n/a | n/a | n/a")
        nxt = (f"{r['failed_games']} game{'' if r['failed_games'] == 1 else 's'}: p99 "
               f"{r['failed_p99_s']:.2f} s, {r['failed_worker_cores']:.2f} cores"
               if "failed_games" in r else "n/a")
        model = f"{r['model_games']}" if "model_games" in r else "n/a"
        ramp = ramp_text(r.get("ramp", []))
        lines.append(f"| {path} | {r['level']} | {r['human_seconds']:g} s, {r['limit']:g} s | "
                     f"{r['games']} | {passed} | {nxt} | {model} | {ramp} | "
                     f"{r['load_average'][0]:.1f}-"
                     f"{r['load_average'][1]:.1f} | {r['measured']} | `{r['command']}` |")
    return lines


def ramp_text(steps: list[dict[str, Any]]) -> str:
    """A capacity ramp's steps in a line: ``games: reply p99, playing, refused`` each."""
    return "; ".join(f"{s['games']}: {s['p99_s']:.2f} s, {s['playing']} playing, "
                     f"{s['refused']} refused" for s in steps) or "n/a"


def _points_cell(entry: dict[str, Any]) -> str:
    """Game points a:b, or a Tausendeins entry's mean margin of a a deal with its 95%."""
    if "mean_margin" in entry:
        return (f"margin {entry['mean_margin']:+.1f} ± {entry['margin_half_width']:.1f} a "
                "deal")
    a, b = entry["bots"]
    return f"{a['game_points']}:{b['game_points']}"


def _pace(entry: dict[str, Any]) -> str:
    """Hands per minute and jobs of an entry, or "n/a" for one measured before they were."""
    if "hands_per_minute" not in entry:
        return "n/a"
    return f"{entry['hands_per_minute']:.1f} ({entry['jobs']})"


def _pairs(specs: Sequence[str]) -> list[tuple[str, str, str, dict[str, object]]]:
    """Each ``A:B[@GAME]`` (or ``A/B[@GAME]``) as its levels, variant and rule options."""
    out = []
    for spec in specs:
        levels, at, game = spec.partition("@")
        a, sep, b = levels.partition("/" if "/" in levels else ":")
        if not sep or not a or not b or (at and not game):
            raise SystemExit(f"--pairs takes A:B, e.g. strong:strong_v1, or A/B for variants "
                             f"of levels (strong:budget_ms=100/normal), either with @GAME "
                             f"(@deck=32, @tausendeins); got {spec!r}")
        out.append((a, b, *parse_game(game)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    paragraphs = (__doc__ or "").split("\n\n")
    parser = argparse.ArgumentParser(description=paragraphs[0], epilog=next(
        (p for p in paragraphs if p.startswith("**Other games")), None))
    parser.add_argument("--pairs", nargs="*", default=[f"{a}:{b}" for a, b in PAIRINGS],
                        help="pairings to (re-)measure, A:B, or A/B when a level is a variant "
                        "with settings, either followed by @GAME for another game or pack: "
                        "a variant and/or rule options, comma-separated (strong:normal@deck=32"
                        ", strong:normal@tausendeins); default: all of the table, sixty-six "
                        "with 24 cards; none (--pairs alone): only render --out from --json")
    parser.add_argument("--hands", type=int, default=2000, help="cap of hands per pairing")
    parser.add_argument("--max-minutes", type=float, default=math.inf,
                        help="cap of minutes per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes playing the duplicate pairs (default 1)")
    parser.add_argument("--json", type=Path, default=Path("docs/strength.json"))
    parser.add_argument("--out", type=Path, default=Path("docs/strength.md"))
    parser.add_argument("--no-progress", dest="progress", action="store_false")
    args = parser.parse_args(argv)
    entries: dict[str, dict[str, Any]] = (json.loads(args.json.read_text())
                                          if args.json.exists() else {})
    for a, b, variant, options in _pairs(args.pairs):
        try:
            entry = measure(a, b, args.hands, args.max_minutes, args.seed, args.progress,
                            args.jobs, variant, options)
            entries[pair_key(a, b, entry["engine"], entry.get("game", SIXTY_SIX))] = entry
        except arena.ArenaError as exc:
            raise SystemExit(f"api.arena.strength: {exc}") from None
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(entries, indent=2) + "\n")  # after each pairing
        args.out.write_text(render(entries))
    if not args.pairs:  # none to measure: the markdown is rendered again from the JSON
        args.out.write_text(render(entries))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
