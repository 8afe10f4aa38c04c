"""Archive bytes per finished match, in SQLite and in a throwaway PostgreSQL (issue K's target:
at most 4 KB): ``python -m tests.bench.bench_archive --matches 40``.

Plays ``--matches`` two-human Sixty-Six matches with random legal actions in process (the
engine only, no Redis), archives each (:meth:`api.archive.store.Archive.put`), and prints per
database the body's mean and largest size and the database's whole growth per match (table,
index, pages: SQLite's file, PostgreSQL's ``pg_total_relation_size``), so the more
matches, the less the empty database's pages weigh.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from sqlalchemy import func, select, text

from api.archive.schema import finished_games
from api.archive.store import Archive
from api.games.service import prepare_game
from api.games.spec import GameSpec
from api.games.store import Game, Logged
from engine.hosted import apply, legal_actions
from tests.postgres import Postgres

SPEC = {"variant": "sixty-six", "rules": {}, "settings": {},
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}


def played(number: int, rng: random.Random) -> tuple[Game, list[Logged]]:
    """Match ``number`` played to its end by random legal actions, one save per action."""
    new = prepare_game(GameSpec.from_body(SPEC))
    state, events, version = new.state, list(new.events), 1
    last = len(events)
    while not state.over:
        seat = next(s for s in range(2) if legal_actions(state, s))
        last = len(events)
        events += apply(state, seat, rng.choice(legal_actions(state, seat)))
        version += 1
    log = [Logged(i, e) for i, e in enumerate(events, 1)]
    return Game(f"bench{number:06d}", version, state, new.meta, len(log), log[last:]), log


def measure(archive: Archive, matches: list[tuple[Game, list[Logged]]]) -> tuple[float, int]:
    """Archive ``matches``; their bodies' mean and largest size in bytes."""
    for game, log in matches:
        archive.put(game, log)
    with archive.engine.connect() as conn:
        mean, largest = conn.execute(select(func.avg(func.length(finished_games.c.body)),
                                            func.max(func.length(finished_games.c.body)))).one()
    return float(mean), int(largest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=66)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    matches = [played(i, rng) for i in range(args.matches)]
    events = sum(len(log) for _, log in matches) / len(matches)
    print(f"{len(matches)} matches, {events:.0f} events each on average")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "archive.sqlite3"
        archive = Archive.open(f"sqlite:///{path}")
        empty = path.stat().st_size
        mean, largest = measure(archive, matches)
        archive.close()
        grown = (path.stat().st_size - empty) / len(matches)
        print(f"sqlite:     body {mean:.0f} B mean, {largest} B largest; "
              f"file {grown:.0f} B per match")
    with Postgres() as server:
        archive = Archive.open(server.url)
        empty = _pg_size(archive)
        mean, largest = measure(archive, matches)
        grown = (_pg_size(archive) - empty) / len(matches)
        archive.close()
        print(f"postgresql: body {mean:.0f} B mean, {largest} B largest; "
              f"table {grown:.0f} B per match")


def _pg_size(archive: Archive) -> int:
    """Bytes of the table with its index and TOAST, after a VACUUM (its free-space map)."""
    with archive.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM finished_games"))
        size = conn.execute(text("SELECT pg_total_relation_size('finished_games')")).scalar()
    return int(size or 0)


if __name__ == "__main__":
    main()
