"""The composition root: the one bag of adapters a process builds, and the pipeline after a save.

The app factory (:func:`api.app.create_app`) and the worker's main
(:func:`api.worker.run.build_context`) each call :func:`compose` once, on one Redis client,
and hand the :class:`Services` it answers to the services; no domain module builds a store of
its own. :class:`Pipeline` is the one pipeline that follows every save of a game (the web
request's and a worker's alike, :func:`api.games.service.act`, and the views that find a
finished match not yet recorded): first the standings (:class:`api.standings.Standings`:
leaderboard, ratings, tour stamp, history), then, once a table's match is over, its result
(:func:`api.tables.results.after_save`: the players' lists, the table's status), and, with an
archive, a finished game is noted for it (:meth:`api.archive.sweep.Archiver.note`). Each step
is idempotent and logs, never raises, a Redis failure. With an archive, the ratings, the
leaderboard, tour stamps and table results are kept in its database too (their stores note
each change in an outbox, :mod:`api.outbox`; :mod:`api.archive.durable` drains them and loads
their Redis caches).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import redis

from api.archive.durable import Cache
from api.archive.store import Archive
from api.archive.sweep import Archiver
from api.archive.tables import FinishedTables, TableArchive
from api.games.service import AfterSave
from api.games.store import Game, GameStore
from api.keys import LEADERBOARD_TAG, RATINGS_TAG
from api.leaderboard.store import LeaderboardStore
from api.live.notify import VersionWaiter
from api.players.history import HistoryStore
from api.players.records import PlayerRecords
from api.players.results import PlayerResults
from api.players.store import PlayerStore
from api.ratings.store import RatingStore
from api.runtime.redis_connect import Client
from api.standings import Standings
from api.tables.results import after_save
from api.tables.store import TableStore
from api.tour.store import TourStore
from api.worker.queue import TaskQueue

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Pipeline:
    """What follows every save of a game, in order (see the module docstring)."""

    standings: Standings
    tables: TableStore
    players: PlayerStore
    archiver: Archiver | None

    def __call__(self, game: Game) -> None:
        self.standings.record(game)
        after_save(self.tables, self.players, game)
        if self.archiver is None:
            return
        try:
            self.archiver.note(game)
        except redis.RedisError as exc:  # a table's or the tour's view runs this again
            log.warning("game %s saved; not noted for the archive (%s)", game.game_id,
                        type(exc).__name__)


@dataclass(frozen=True, slots=True)
class Services:
    """The adapters of one process, built once by :func:`compose`, and the pipeline after a
    save; ``queue`` is ``None`` when no task queue can be had (a Redis Cluster without
    ``QUEUE_URL``; see :mod:`api.app`), ``archiver`` when there is no archive."""

    games: GameStore
    tables: TableStore
    players: PlayerStore
    history: HistoryStore
    tour: TourStore
    leaderboard: LeaderboardStore
    ratings: RatingStore
    queue: TaskQueue | None
    notifier: VersionWaiter
    after_save: AfterSave
    archiver: Archiver | None


def compose(client: Client, queue: TaskQueue | None, *, game_ttl: int, settle_wait: float,
            max_games: int = 0, presence_window: float = 30.0, archive: Archive | None = None,
            archive_grace: int = 3600) -> Services:
    """Every adapter on ``client`` (``game_ttl``, ``settle_wait``, ``presence_window`` and
    ``archive_grace`` in seconds; ``max_games``: a client address's cap, 0 for none; an
    ``archive`` of finished games, if any, whose database then holds the players and their
    histories too), and the pipeline on them."""
    games = GameStore(client, game_ttl, max_games, settle_wait=settle_wait,
                      presence_window=presence_window, archive=archive)
    records = None if archive is None else PlayerRecords(archive.engine)
    engine = None if archive is None else archive.engine
    kept = None if engine is None else TableArchive(engine)
    tables = TableStore(client, game_ttl, settle_wait=settle_wait, noted=engine is not None,
                        archived=None if kept is None else kept.load)
    players = PlayerStore(client, records)
    history = HistoryStore(client, records)
    archiver = None if archive is None else Archiver(
        games, archive, archive_grace, PlayerResults(history, players),
        None if kept is None else FinishedTables(tables, kept, archive_grace))
    tour = TourStore(client, None if engine is None else Cache.of_tour(client, engine))
    leaderboard = LeaderboardStore(client, game_ttl, None if engine is None else Cache.of_slot(
        client, engine, LEADERBOARD_TAG, game_ttl))
    ratings = RatingStore(client, loaded=None if engine is None else Cache.of_slot(
        client, engine, RATINGS_TAG, game_ttl))
    standings = Standings(games, players, history, tour, leaderboard, ratings)
    return Services(games=games, tables=tables, players=players, history=history, tour=tour,
                    leaderboard=leaderboard, ratings=ratings, queue=queue,
                    notifier=VersionWaiter(client),
                    after_save=Pipeline(standings, tables, players, archiver),
                    archiver=archiver)
