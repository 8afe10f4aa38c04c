"""Write the computer levels' rating seed (``sixtysix rating-seed``) from real arena runs.

Per variant the levels are rated along the chain :data:`SCHEDULE` (``easy`` against
``random``, then ``normal`` against ``easy``, ``strong`` against ``normal``, then ``expert``
against ``strong``), each run
with ``sixtysix arena``'s code (:func:`api.arena.run`, duplicate deals of ``seed``) rated by
:func:`api.ratings.arena.rate_arena` into a throwaway, empty Redis. The variant's entry of the
seed file is replaced by the levels' ratings, the runs (marker source, matches rated, the
arena's printed figures) and the command that made it; other variants' entries are kept.

*Extending* an entry (``previous``: the variant's recorded entry) plays only the pairs of the
chain it lacks: the store is first loaded with its ratings and runs
(:func:`api.ratings.seed.apply`), which is the state the chain's recorded runs left, since a
chain's ratings are updated run by run; so a level added at the top of the chain is rated
without replaying the runs below it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from api import arena
from api.ratings.arena import arena_source, rate_arena
from api.ratings.seed import COMPUTER, apply, parse
from api.ratings.store import RatingStore
from api.runtime.redis_connect import connect
from api.runtime.redis_server import EmbeddedRedis

#: The pairs of a variant's runs, in order: each rates a level against the one below it.
SCHEDULE: Final = (("easy", "random"), ("normal", "easy"), ("strong", "normal"),
                   ("expert", "strong"))
ABOUT: Final = ("The computer levels' ratings per variant, loaded into a ratings store that "
                "lacks them (api/ratings/seed.py). Written by `sixtysix rating-seed` from the "
                "arena runs listed with each variant (their printed figures in `output`).")


def _kept_runs(previous: dict[str, Any] | None, hands: Sequence[int], seed: int
               ) -> list[dict[str, Any]]:
    """The recorded runs an extension keeps: a prefix of the chain, each with the hands and
    seed asked for now (else :class:`~api.arena.ArenaError`: the chain would differ)."""
    if previous is None:
        return []
    runs: list[dict[str, Any]] = list(previous["runs"])
    if [(r["a"], r["b"]) for r in runs] != [tuple(pair) for pair in SCHEDULE[:len(runs)]]:
        raise arena.ArenaError("--extend: the recorded runs are not a start of the chain "
                               f"{', '.join(f'{a}-{b}' for a, b in SCHEDULE)}")
    for run, n in zip(runs, hands, strict=False):
        if run["hands"] != n or not run["source"].endswith(f":{seed}:{n}"):
            raise arena.ArenaError(f"--extend: {run['a']}-{run['b']} was recorded with "
                                   f"{run['hands']} hands ({run['source']}); ask for the same")
    return runs


def make_variant(variant: str, hands: Sequence[int], seed: int, jobs: int, progress: bool,
                 command: str, say: Callable[[str], None],
                 previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """The seed entry of ``variant``: the runs of :data:`SCHEDULE` with ``hands[i]`` hands
    each, rated into an empty embedded Redis; with ``previous`` (its recorded entry) only the
    pairs it lacks, on top of its ratings (module doc)."""
    if len(hands) != len(SCHEDULE):
        raise arena.ArenaError(f"--hands needs {len(SCHEDULE)} counts, one per pair "
                               f"{', '.join(f'{a}-{b}' for a, b in SCHEDULE)}")
    for n in hands:
        arena.check_hands(n)
    runs = _kept_runs(previous, hands, seed)
    start = time.monotonic()
    with EmbeddedRedis(appendonly=False) as server:
        client = connect(server.url)
        try:
            store = RatingStore(client, seeded=False)
            if previous is not None:
                apply(client, parse({"variants": {variant: previous}}))
            for (a, b), n in list(zip(SCHEDULE, hands, strict=True))[len(runs):]:
                result = arena.run(a, b, n, variant, seed, jobs, progress)
                rated, _ = rate_arena(store, result)
                output = arena.render_text(result)
                say(output.rstrip("\n"))
                runs.append({"source": arena_source(variant, a, b, seed, n), "a": a, "b": b,
                             "hands": n, "matches": rated, "output": output.splitlines()})
            levels = sorted({level for pair in SCHEDULE for level in pair})
            ratings = store.get(variant, [(COMPUTER, level) for level in levels])
        finally:
            client.close()
    seconds = time.monotonic() - start + (previous["seconds"] if previous is not None else 0)
    return {"command": command,
            "generated": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "seconds": round(seconds, 1), "jobs": jobs, "runs": runs,
            "ratings": {level: {"mu": r.mu, "sigma": r.sigma, "matches": r.matches,
                                "display": r.display}
                        for level, r in zip(levels, ratings, strict=True)}}


def read_variant(path: Path, variant: str) -> dict[str, Any]:
    """``variant``'s recorded entry of the seed file at ``path`` (:class:`~api.arena.ArenaError`
    if there is none to extend)."""
    entry = (json.loads(path.read_text(encoding="utf-8"))["variants"].get(variant)
             if path.exists() else None)
    if not isinstance(entry, dict):
        raise arena.ArenaError(f"--extend: {path} has no entry for {variant}")
    return entry


def write_variant(path: Path, variant: str, entry: dict[str, Any]) -> None:
    """Replace ``variant``'s entry of the seed file at ``path`` (created if missing)."""
    doc: dict[str, Any] = {"about": ABOUT, "variants": {}}
    if path.exists():
        doc = json.loads(path.read_text(encoding="utf-8"))
    doc["about"] = ABOUT
    doc["variants"][variant] = entry
    doc["variants"] = dict(sorted(doc["variants"].items()))
    parse(doc)  # what is written must load
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
