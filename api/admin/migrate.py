"""``sixtysix admin migrate``: move what today's Redis layout keeps of what must last into
the archive's database, once (also run by ``sixtysix serve`` at its start).

:data:`STEPS` run in order, each idempotent (what the database holds already is not written
again, and what a step moved no longer has the old layout), and each says how many it moved:

* ``players`` — every player's hash: his row (:mod:`api.players.records`; of two old
  look-alikes the first met keeps the skeleton, as :meth:`~api.players.store.PlayerStore.
  index_skeletons` did); his Redis keys then become the cache (counts and name claims
  removed, :data:`~api.players.store.CACHE_TTL`);
* ``finished games`` — every finished game in Redis not archived, with its players'
  results (:meth:`api.archive.sweep.Archiver.archive_one`);
* ``histories`` — every result left in a Redis history (matches whose games Redis let go):
  into ``player_results``, then out of Redis;
* ``standings`` — ratings, rated matches, leaderboards, hands won, counted awards, tour
  stamps and finished tables (:func:`api.archive.durable.migrate_standings`; rows already
  there are kept).

Other parts add their steps to :data:`STEPS`: a :class:`Step` is a name and a function of the
composed services (:func:`api.composition.compose` with the archive) that answers a count.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from api.archive.durable import migrate_standings
from api.archive.store import Archive
from api.archive.sweep import Archiver
from api.composition import Services, compose
from api.config import from_env
from api.games.store import GameNotFound, text
from api.keys import (
    GAME_KEYS,
    HISTORY_KEYS,
    INDEXED_KEY,
    PLAYER_KEYS,
    STANDINGS_MIGRATED,
    game_id_of_channel,
    name_key,
    player_key,
    skeleton_key,
    token_key,
)
from api.players.records import result_row
from api.players.store import CACHE_TTL, NameTaken, Player, PlayerStore, cursor_of
from api.runtime.redis_connect import connect
from engine.hosted import is_over

#: Keys one ``SCAN`` call asks for.
SCAN_COUNT: Final = 1000


class MigrateError(RuntimeError):
    """The migration cannot run (no database configured)."""


NO_DATABASE: Final = "migrate needs the archive's database (DATABASE_URL)"


@dataclass(frozen=True, slots=True)
class Step:
    """One move: its name in the report, and the function that moves (how many)."""

    name: str
    run: Callable[[Services], int]


def _archiver(svc: Services) -> Archiver:
    if svc.archiver is None:
        raise MigrateError(NO_DATABASE)
    return svc.archiver


def move_players(svc: Services) -> int:
    """Each player's hash into ``players`` (those not there); his keys made the cache."""
    store = svc.players
    if store.records is None:
        raise MigrateError(NO_DATABASE)
    moved = 0
    for raw in svc.games.redis.scan_iter(match=PLAYER_KEYS, count=SCAN_COUNT):
        key = text(raw)
        player_id = key[len(PLAYER_KEYS) - 2:-1]
        player = store.load(player_id)  # read from Redis: the hash is there
        if player is None:
            continue
        try:
            moved += store.records.create(player, skeleton_free=False)
        except NameTaken:  # the name is another's in the database: left as it is
            continue
        _make_cache(store, player)
    svc.games.redis.delete(INDEXED_KEY)
    return moved


def _make_cache(store: PlayerStore, player: Player) -> None:
    """Turn a player's keys of the old layout into the cache of his row."""
    for key in (name_key(player.name), skeleton_key(player.name)):
        store.release(key, player.player_id)
    counts = [f"{what}:{variant}" for variant in player.stats for what in ("played", "won")]
    pipe = store.redis.pipeline(transaction=False)
    if counts:
        pipe.hdel(player_key(player.player_id), *counts)
    pipe.expire(player_key(player.player_id), CACHE_TTL)
    pipe.expire(token_key(player.token_sha256), CACHE_TTL)
    pipe.execute()


def move_finished_games(svc: Services) -> int:
    """Archive every finished game Redis holds and the archive lacks (with its results)."""
    archiver = _archiver(svc)
    moved = 0
    for raw in svc.games.redis.scan_iter(match=GAME_KEYS, count=SCAN_COUNT):
        game_id = game_id_of_channel(raw)
        try:
            game = svc.games.load(game_id)
        except GameNotFound:  # expired meanwhile
            continue
        if is_over(game.state) and game.log is None:
            moved += archiver.archive_one(game_id)
    return moved


def move_histories(svc: Services) -> int:
    """Every result left in a Redis history into ``player_results``, then out of Redis."""
    archive = _archiver(svc).archive
    history = svc.history
    moved = 0
    for raw in svc.games.redis.scan_iter(match=HISTORY_KEYS, count=SCAN_COUNT):
        key = text(raw)
        if not key.endswith("}"):  # a results hash: moved with its sorted set
            continue
        player_id = game_id_of_channel(key)
        members = history.members(player_id, None, None)
        moved += archive.put_results([result_row(player_id, cursor_of(m)[0], r)
                                      for m, r in members.items() if r is not None])
        for member in members:
            history.forget(player_id, member)
    return moved


#: The moves, in order (players first: the games' results name them).
def move_standings(svc: Services) -> int:
    """Ratings, rated matches, leaderboards, hands won, counted awards, tour stamps and
    finished tables Redis alone kept (:func:`api.archive.durable.migrate_standings`), once
    (:data:`~api.keys.STANDINGS_MIGRATED` set after: a run stopped midway copies again, which
    is harmless); the rows written."""
    client = svc.games.redis
    if client.exists(STANDINGS_MIGRATED):
        return 0
    moved = sum(migrate_standings(client, _archiver(svc).archive).values())
    client.set(STANDINGS_MIGRATED, 1)
    return moved


STEPS: tuple[Step, ...] = (
    Step("players", move_players),
    Step("finished games", move_finished_games),
    Step("histories", move_histories),
    Step("standings", move_standings),
)


def migrate(svc: Services, say: Callable[[str], None] = print) -> dict[str, int]:
    """Run every step of :data:`STEPS` on ``svc``; what each moved (also said)."""
    counts = {}
    for step in STEPS:
        counts[step.name] = step.run(svc)
        say(f"migrate: {step.name}: {counts[step.name]} moved")
    return counts


def migrate_env(env: Mapping[str, str], say: Callable[[str], None] = print) -> dict[str, int]:
    """:func:`migrate` on the Redis of ``REDIS_URL`` and the database of ``DATABASE_URL``
    (brought to its schema's head first), settings as the server reads them from ``env``."""
    settings = from_env(env)
    if not settings["DATABASE_URL"]:
        raise MigrateError(NO_DATABASE)
    timeout = float(settings["SIXTYSIX_REDIS_TIMEOUT"])
    client = connect(settings["REDIS_URL"], socket_timeout=timeout,
                     socket_connect_timeout=timeout)
    archive = Archive.open(settings["DATABASE_URL"], timeout)
    try:
        svc = compose(client, None, game_ttl=settings["SIXTYSIX_GAME_TTL"],
                      settle_wait=timeout, archive=archive,
                      archive_grace=settings["SIXTYSIX_ARCHIVE_GRACE"])
        return migrate(svc, say)
    finally:
        archive.close()
        client.close()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Move what the Redis-only layout kept of what must last (players, finished "
                     "games, histories, ratings, the leaderboard, tour stamps, table results) "
                     "into the database of DATABASE_URL, once; say what each step moved. "
                     "sixtysix serve runs it at its start.")


def run(args: argparse.Namespace) -> int:
    """``sixtysix admin migrate``: :func:`migrate_env` on the environment; 1 if it cannot."""
    from redis import RedisError
    from sqlalchemy.exc import SQLAlchemyError

    from api.errors import DomainError
    from api.runtime.redis_connect import RedisURLError

    try:
        migrate_env(os.environ)
    except (MigrateError, ValueError, RedisURLError, RedisError, SQLAlchemyError,
            DomainError) as exc:
        print(f"sixtysix admin migrate: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0
