"""Archive bytes per finished match, in SQLite and in a throwaway PostgreSQL (issue K's target:
at most 4 KB): ``python -m tests.bench.bench_archive --matches 40``.

Plays ``--matches`` two-human Sixty-Six matches at a table (two players) with random legal
actions in process (the engine only, no Redis), archives each with its two players' results
(:meth:`api.archive.store.Archive.put`; ``--no-players``: a game without players, no results),
and prints per database the body's mean and largest size and the database's whole growth per
match (table, index, pages: SQLite's file, PostgreSQL's ``pg_total_relation_size``), so the
more matches, the less the empty database's pages weigh.
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
from api.players.records import result_row
from api.standings import history_items
from engine.hosted import apply, legal_actions
from tests.postgres import Postgres

#: The two players of a match at a table.
PLAYERS = ["pAnn00000000", "pBob00000000"]
SPEC = {"variant": "sixty-six", "rules": {}, "settings": {},
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}


def played(number: int, rng: random.Random, players: bool) -> tuple[Game, list[Logged]]:
    """Match ``number`` played to its end by random legal actions, one save per action; at a
    table of :data:`PLAYERS` with ``players``."""
    new = prepare_game(GameSpec.from_body(SPEC))
    if players:
        new.meta["table"] = {"table_id": f"t{number:011d}", "private": False,
                             "invite_sha256": None, "players": list(PLAYERS),
                             "started_ms": 1_760_000_000_000 + number}
    state, events, version = new.state, list(new.events), 1
    last = len(events)
    while not state.over:
        seat = next(s for s in range(2) if legal_actions(state, s))
        last = len(events)
        events += apply(state, seat, rng.choice(legal_actions(state, seat)))
        version += 1
    log = [Logged(i, e) for i, e in enumerate(events, 1)]
    game_id = f"t{number:011d}.1" if players else f"bench{number:06d}"
    return Game(game_id, version, state, new.meta, len(log), log[last:]), log


def measure(archive: Archive, matches: list[tuple[Game, list[Logged]]]) -> tuple[float, int]:
    """Archive ``matches``; their bodies' mean and largest size in bytes."""
    for number, (game, log) in enumerate(matches):
        table = game.meta.get("table")
        ms = 1_760_000_600_000 + 60_000 * number  # a match a minute: each its own time
        results = [] if table is None else [
            result_row(pid, ms, item, table["started_ms"], archived=True)
            for pid, item in history_items(game, table["players"],
                                           dict.fromkeys(PLAYERS, "human"), ms).items()]
        archive.put(game, log, results)
    with archive.engine.connect() as conn:
        mean, largest = conn.execute(select(func.avg(func.length(finished_games.c.body)),
                                            func.max(func.length(finished_games.c.body)))).one()
    return float(mean), int(largest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=66)
    parser.add_argument("--no-players", dest="players", action="store_false")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    matches = [played(i, rng, args.players) for i in range(args.matches)]
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
              f"tables {grown:.0f} B per match")


def _pg_size(archive: Archive) -> int:
    """Bytes of the tables with their indexes and TOAST, after a VACUUM (their free-space
    maps)."""
    size = 0
    with archive.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        for table in ("finished_games", "player_results"):
            conn.execute(text(f"VACUUM {table}"))
            size += int(conn.execute(text(f"SELECT pg_total_relation_size('{table}')"))
                        .scalar() or 0)
    return size


if __name__ == "__main__":
    main()
