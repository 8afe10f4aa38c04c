"""Archiving finished games: noted by the after-save pipeline, written by the workers' sweep.

Every save of a finished game (``match_over`` or ``aborted``) adds its id to the set
:data:`~api.keys.ARCHIVE_PENDING` (:meth:`Archiver.note`: one ``SADD`` on the request's path,
nothing more); each worker's sweep (:meth:`Archiver.drain`, every few seconds) writes the
noted games to the archive, gives their Redis keys ``grace`` seconds more (no more than they
had) and only then takes them out of the set. So a game is archived once whatever happens
between: a crash or a database down leaves it noted and the next sweep writes it, and a
write that happened before is found and kept (:meth:`api.archive.store.Archive.put`). A chat
message on a finished game notes it again, so the archive keeps it too. With ``results``
the game's players' results go into the database in the game's own transaction and then
leave their Redis histories (:mod:`api.archive.results`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Final

from api.archive.results import PlayerResults, Result
from api.archive.store import Archive, ArchiveUnavailable
from api.games.store import Game, GameNotFound, GameStore
from api.keys import ARCHIVE_PENDING, events_key, game_key

log = logging.getLogger(__name__)

#: Most games one sweep archives.
DRAIN_LIMIT: Final = 100


@dataclass(frozen=True, slots=True)
class Archiver:
    """Finished games of ``games`` into ``archive``; their Redis keys then live ``grace``
    seconds (at most: a shorter time left is kept)."""

    games: GameStore
    archive: Archive
    grace: int
    results: PlayerResults | None = None

    def note(self, game: Game) -> None:
        """Note a saved game for the archive if it is over (a repeat is harmless)."""
        if game.state.over and game.log is None:  # one read from the archive is there
            self.games.redis.sadd(ARCHIVE_PENDING, game.game_id)

    def drain(self, limit: int = DRAIN_LIMIT) -> int:
        """Archive up to ``limit`` noted games; the number written now. A database that
        cannot be reached stops the sweep (the games stay noted: the next sweep retries)."""
        written = 0
        for raw in self.games.redis.srandmember(ARCHIVE_PENDING, limit) or []:
            game_id = raw.decode() if isinstance(raw, bytes) else str(raw)
            try:
                written += self.archive_one(game_id)
            except ArchiveUnavailable as exc:
                log.warning("archive unavailable, %s waits for the next sweep: %s", game_id, exc)
                break
        return written

    def archive_one(self, game_id: str) -> bool:
        """Archive one noted game and shorten its keys' lives; whether it was written now."""
        try:
            game = self.games.load(game_id)
        except GameNotFound:  # gone from Redis and from the archive: nothing left to keep
            log.error("finished game %s expired before it was archived", game_id)
            self.games.redis.srem(ARCHIVE_PENDING, game_id)
            return False
        wrote = False
        results = self._results(game)
        if game.log is None:  # still in Redis
            wrote = self.archive.put(game, self.games.all_events(game),
                                     [r.row for r in results])
            left = self.games.redis.ttl(game_key(game_id))
            if not 0 <= left <= self.grace:  # EXPIRE's LT needs Redis 7; saves are over
                pipe = self.games.redis.pipeline(transaction=False)
                pipe.expire(game_key(game_id), self.grace)
                pipe.expire(events_key(game_id), self.grace)
                pipe.execute()
        elif results:
            self.archive.put_results([r.row for r in results])
        self._forget(results)
        self.games.redis.srem(ARCHIVE_PENDING, game_id)
        return wrote

    def _results(self, game: Game) -> list[Result]:
        """The players' results to write with the game (none without ``results``)."""
        return [] if self.results is None else self.results.of(game)

    def _forget(self, results: list[Result]) -> None:
        """Remove written results from the Redis histories."""
        if self.results is not None:
            self.results.forget(results)
