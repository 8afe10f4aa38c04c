"""``sixtysix admin rebuild``: the Redis keys that serve ratings, the leaderboard and tour
stamps, rebuilt from the database (:func:`api.archive.durable.rebuild`): the outboxes are
drained first, then the ratings' and the leaderboard's keys are replaced by the database's
rows in one transaction per slot, and the tour stamps put back. Run it after Redis lost its
data (the service also loads a missing cache on its first read) or to drop what Redis holds
beyond the database."""

from __future__ import annotations

import argparse
import os
import sys

from api.config import DEFAULTS, from_env


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Rebuild the Redis keys that serve ratings, the leaderboard and tour "
                     "stamps from the database: drain the outboxes, then replace the ratings' "
                     "and the leaderboard's keys by the database's rows and put the tour "
                     "stamps back. sixtysix serve's own database: --database-url "
                     "sqlite:///var/archive.sqlite3 (its data directory).")
    p.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or DEFAULTS["REDIS_URL"],
                   help="the service's Redis (default REDIS_URL)")
    p.add_argument("--database-url", default=os.environ.get("DATABASE_URL"),
                   help="the archive's database (default DATABASE_URL)")


def run(args: argparse.Namespace) -> int:
    """Rebuild; print the rows loaded per table. 2 without a database, 1 if it or Redis
    cannot be reached."""
    from redis import RedisError
    from sqlalchemy.exc import SQLAlchemyError

    from api.archive.durable import SlotBusy, rebuild
    from api.archive.store import Archive
    from api.runtime.redis_connect import connect

    if not args.database_url:
        print("sixtysix admin rebuild: no database (--database-url or DATABASE_URL)",
              file=sys.stderr)
        return 2
    game_ttl = int(from_env(os.environ)["SIXTYSIX_GAME_TTL"])
    client = connect(args.redis_url)
    try:
        archive = Archive.open(args.database_url)
        try:
            counts = rebuild(client, archive.engine, game_ttl)
        finally:
            archive.close()
    except (RedisError, SQLAlchemyError, SlotBusy) as exc:
        print(f"sixtysix admin rebuild: failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        client.close()
    for table, count in counts.items():
        print(f"{table}: {count}")
    return 0
