"""Archive bytes per finished match, in SQLite and in a throwaway PostgreSQL (issue K's target:
at most 4 KB): ``python -m tests.bench.bench_archive --matches 400``.

Plays ``--matches`` two-human Sixty-Six matches at a table (two players) with random legal
actions in process (the engine only, no Redis), archives each with its two players' results
(:meth:`api.archive.store.Archive.put`) and its finished table (its ``table_results`` row with
the doc kept once Redis lets the table go, :meth:`api.archive.tables.TableArchive.keep`; a new
table a match, the most a match can cost); ``--no-players``: a game without players, no
results, no table. Prints per database the body's mean and largest size and the database's
growth per match (tables, indexes, TOAST, free-space and visibility maps: SQLite's file,
PostgreSQL's ``pg_total_relation_size``): over all matches (the empty database's first pages
included, so the more matches, the less they weigh), and over the second half of them alone
(the cost of one match more).
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from sqlalchemy import func, select, text

from api.archive.schema import finished_games
from api.archive.store import Archive
from api.archive.tables import TableArchive
from api.games.service import prepare_game
from api.games.spec import GameSpec
from api.games.store import Game, Logged
from api.players.records import result_row
from api.standings import history_items
from api.tables.store import Table, TableDoc
from engine.hosted import apply, legal_actions
from tests.postgres import Postgres

#: The two players of a match at a table.
PLAYERS = ["pAnn00000000", "pBob00000000"]
#: A table's settings as POST /v1/tables loads them (none given).
SETTINGS = {"point_counter": False, "hint_66": False, "auto_continue": False,
            "think_time_s": None, "on_timeout": "computer", "timeout_level": "normal"}
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


def finished_table(game: Game, ms: int) -> Table:
    """The finished table of a match at a new table, as Redis holds it at its end."""
    info = game.meta["table"]
    table_id = info["table_id"]
    seats = [{"kind": "player", "player_id": p, "name": s["name"], "bot": False}
             for p, s in zip(PLAYERS, game.meta["seats"], strict=True)]
    doc = TableDoc(table_id=table_id, created_at=info["started_ms"] // 1000 - 30,
                   created_ms=info["started_ms"] - 30_000, expires_at=None, creator=PLAYERS[0],
                   variant=str(SPEC["variant"]), rules={}, settings=SETTINGS, visibility="public",
                   invite_code=None, status="finished", seats=seats, games=[game.game_id],
                   game_id=game.game_id, started_ms=info["started_ms"], result="points",
                   finished_at=ms // 1000)
    return Table(table_id, 4, doc)


def measure(archive: Archive, matches: list[tuple[Game, list[Logged]]], first: int = 0,
            ) -> None:
    """Archive ``matches`` (numbered from ``first``), each with its players' results and its
    finished table if it was played at one."""
    tables = TableArchive(archive.engine)
    for number, (game, log) in enumerate(matches, first):
        table = game.meta.get("table")
        ms = 1_760_000_600_000 + 60_000 * number  # a match a minute: each its own time
        results = [] if table is None else [
            result_row(pid, ms, item, table["started_ms"], archived=True)
            for pid, item in history_items(game, table["players"],
                                           dict.fromkeys(PLAYERS, "human"), ms).items()]
        archive.put(game, log, results)
        if table is not None:
            tables.keep(finished_table(game, ms))


def bodies(archive: Archive) -> tuple[float, int]:
    """The archived bodies' mean and largest size in bytes."""
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
    half = len(matches) // 2
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "archive.sqlite3"
        archive = Archive.open(f"sqlite:///{path}")
        sizes = [path.stat().st_size]
        for first, part in ((0, matches[:half]), (half, matches[half:])):
            measure(archive, part, first)
            sizes.append(path.stat().st_size)
        _report("sqlite:    ", bodies(archive), sizes, half, len(matches), "file")
        archive.close()
    with Postgres() as server:
        archive = Archive.open(server.url)
        sizes = [_pg_size(archive)]
        for first, part in ((0, matches[:half]), (half, matches[half:])):
            measure(archive, part, first)
            sizes.append(_pg_size(archive))
        _report("postgresql:", bodies(archive), sizes, half, len(matches), "tables")
        archive.close()


def _report(name: str, body: tuple[float, int], sizes: list[int], half: int, count: int,
            what: str) -> None:
    print(f"{name} body {body[0]:.0f} B mean, {body[1]} B largest; {what} "
          f"{(sizes[2] - sizes[0]) / count:.0f} B per match over all, "
          f"{(sizes[2] - sizes[1]) / max(1, count - half):.0f} over the second half")


def _pg_size(archive: Archive) -> int:
    """Bytes of the tables with their indexes and TOAST, after a VACUUM (their free-space
    maps)."""
    size = 0
    with archive.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        for table in ("finished_games", "player_results", "table_results"):
            conn.execute(text(f"VACUUM {table}"))
            size += int(conn.execute(text(f"SELECT pg_total_relation_size('{table}')"))
                        .scalar() or 0)
    return size


if __name__ == "__main__":
    main()
