"""Write the computer levels' rating seed (``sixtysix rating-seed``) from real arena runs.

Per variant the levels are rated along the chain :data:`SCHEDULE` (``easy`` against
``random``, then ``normal`` against ``easy``, then ``strong`` against ``normal``), each run
with ``sixtysix arena``'s code (:func:`api.arena.run`, duplicate deals of ``seed``) rated by
:func:`api.ratings.arena.rate_arena` into a throwaway, empty Redis. The variant's entry of the
seed file is replaced by the levels' ratings, the runs (marker source, matches rated, the
arena's printed figures) and the command that made it; other variants' entries are kept.
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
from api.ratings.seed import COMPUTER, parse
from api.ratings.store import RatingStore
from api.runtime.redis_connect import connect
from api.runtime.redis_server import EmbeddedRedis

#: The pairs of a variant's runs, in order: each rates a level against the one below it.
SCHEDULE: Final = (("easy", "random"), ("normal", "easy"), ("strong", "normal"))
ABOUT: Final = ("The computer levels' ratings per variant, loaded into a ratings store that "
                "lacks them (api/ratings/seed.py). Written by `sixtysix rating-seed` from the "
                "arena runs listed with each variant (their printed figures in `output`).")


def make_variant(variant: str, hands: Sequence[int], seed: int, jobs: int, progress: bool,
                 command: str, say: Callable[[str], None]) -> dict[str, Any]:
    """The seed entry of ``variant``: the runs of :data:`SCHEDULE` with ``hands[i]`` hands
    each, rated into an empty embedded Redis."""
    if len(hands) != len(SCHEDULE):
        raise arena.ArenaError(f"--hands needs {len(SCHEDULE)} counts, one per pair "
                               f"{', '.join(f'{a}-{b}' for a, b in SCHEDULE)}")
    for n in hands:
        arena.check_hands(n)
    start = time.monotonic()
    runs = []
    with EmbeddedRedis(appendonly=False) as server:
        client = connect(server.url)
        try:
            store = RatingStore(client, seeded=False)
            for (a, b), n in zip(SCHEDULE, hands, strict=True):
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
    return {"command": command,
            "generated": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "seconds": round(time.monotonic() - start, 1), "jobs": jobs, "runs": runs,
            "ratings": {level: {"mu": r.mu, "sigma": r.sigma, "matches": r.matches,
                                "display": r.display}
                        for level, r in zip(levels, ratings, strict=True)}}


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
