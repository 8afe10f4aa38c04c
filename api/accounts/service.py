"""A player's own account: everything held about him (``GET /v1/players/{id}/export``) and
its deletion (``DELETE /v1/players/{id}``), his token only.

Deleting a player removes his Redis keys (hash, token, name claims, game lists, history, tour,
open tables; his leaderboard, hands-won and rating entries, his pairs' rated games) and his
database rows (``players``, ``player_results``, and his standings: ratings, board points,
hands won, tour stamps; :func:`api.archive.forgotten.forget`). In order, so nothing brings him
back: his finished games are archived, the outboxes drained (every change noted so far is in
the database), then one transaction deletes his rows and notes him as deleted (an outbox's
entry naming him drained later writes nothing of him), and only then go his Redis keys (a
rebuild or a cache load reads the database, which no longer holds him). His finished games
stay, anonymised: each is archived first (:meth:`api.archive.sweep.Archiver.archive_one`; its
Redis keys then go, so every read comes from the archive), and in the archive the seats he
sat in get the name :data:`ANONYMOUS` and no player id (the ``seats`` column and the game's
meta in its body), as do those seats in the other players' results, in the finished tables
he sat at and in their results (``table_results``, his id ``null``). A player
sitting at a game in play or holding an open table is refused (409 ``player-busy``): finish or
resign first. Without a database only his Redis keys go; his finished games keep his name until
they expire.
"""

from __future__ import annotations

import bz2
import time
from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

from sqlalchemy import Connection, delete, select, update
from sqlalchemy.exc import SQLAlchemyError

from api.archive.durable import drain_now
from api.archive.forgotten import forget, stored
from api.archive.schema import finished_games, player_results, players
from api.archive.store import LEVEL, unreachable
from api.composition import Services
from api.errors import Conflict, Forbidden
from api.fastjson import dumps, loads
from api.games.store import GameNotFound, text
from api.keys import (
    LEADERBOARD_TAG,
    PAIRS_TAG,
    PREFIX,
    board_key,
    events_key,
    game_key,
    games_key,
    hands_key,
    history_key,
    listing_key,
    name_key,
    open_tables_key,
    player_key,
    ratings_key,
    results_key,
    skeleton_key,
    table_key,
    token_key,
    tour_key,
)
from api.players.store import Player
from api.profiles import full_profile
from api.tables.store import TableConflict
from api.tour.store import STAMP
from engine.hosted import is_over, rated_variants

T = TypeVar("T")

#: The name a deleted player's seats get.
ANONYMOUS: Final = "Anonymous"
#: Matches a history page reads at a time for an export.
PAGE: Final = 500
#: Attempts of a finished table's rewrite against concurrent changes.
RETRIES: Final = 10
#: Most drains of the outboxes before a deletion or an export (each up to 500 per outbox).
DRAINS: Final = 20


class NotYourPlayer(Forbidden):
    slug = "not-your-player"
    title = "Only the player's own token may do this"


def owned(player: Player, caller: Player) -> Player:
    """``player`` if ``caller`` (the token's player) is he; else :class:`NotYourPlayer`."""
    if caller.player_id != player.player_id:
        raise NotYourPlayer(f"this is player {player.player_id!r}'s own: send his player "
                            "token", player_id=player.player_id)
    return player


class PlayerBusy(Conflict):
    slug = "player-busy"
    title = "The player is at a game in play or holds an open table"


def export(svc: Services, player: Player) -> dict[str, Any]:
    """Everything held about ``player``: his profile (counts, hands won, ratings, ranks,
    tour stamps), every finished match of his history, his games and open tables, his tour's
    games, and what the database holds of his standings (``stored``, after the outboxes'
    drain; ``None`` without a database); never a token or a digest."""
    pid = player.player_id
    kept = None
    if svc.archiver is not None:
        _drain(svc)
        kept = _database(svc, lambda conn: stored(conn, pid))
    history = _all_history(svc, pid)
    progress = svc.tour.progress(pid)
    return {
        "profile": full_profile(svc.leaderboard, svc.ratings, svc.tour, player,
                                svc.history.stats(player)),
        "history": history,
        "games": {which: [m.partition(":")[2] for m in _all_games(svc, pid, which)]
                  for which in ("active", "finished")},
        "open_tables": [text(t) for t in cast(
            "list[bytes]", svc.tables.redis.zrange(open_tables_key(pid), 0, -1))],
        "tour_games": {k.partition(":")[2]: v for k, v in progress.items()
                       if k.startswith("game:")},
        "tour_stamped_at": {k[len(STAMP):]: int(v) for k, v in progress.items()
                            if k.startswith(STAMP)},
        "stored": kept,
    }


def _all_history(svc: Services, player_id: str) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = []
    cursor = None
    while True:
        page, cursor = svc.history.page(player_id, cursor, PAGE)
        history += page
        if cursor is None:
            return history


def _all_games(svc: Services, player_id: str, which: str) -> list[str]:
    members: list[str] = []
    while True:
        page = svc.players.games(player_id, which, members[-1] if members else None, PAGE)
        members += page
        if len(page) < PAGE:
            return members


def delete_player(svc: Services, player: Player) -> None:
    """Delete ``player`` (see the module docstring); :class:`PlayerBusy`,
    :class:`~api.archive.errors.ArchiveUnavailable`."""
    pid = player.player_id
    _check_idle(svc, pid)
    history = _all_history(svc, pid)
    game_ids = {m.partition(":")[2] for m in _all_games(svc, pid, "finished")}
    game_ids |= {item["game_id"] for item in history}
    tables = {item["table_id"] for item in history if item.get("table_id")}
    for game_id in sorted(game_ids):
        try:
            game = svc.games.load(game_id)
        except GameNotFound:
            continue
        info = game.meta.get("table")
        if info is not None:
            tables.add(info["table_id"])
        if svc.archiver is not None and game.log is None and is_over(game.state):
            svc.archiver.archive_one(game_id)  # its players' results too
            svc.games.redis.delete(game_key(game_id), events_key(game_id))
    if svc.archiver is not None:
        _drain(svc)
        _delete_rows(svc, pid, game_ids)
    for table_id in sorted(tables):
        _anonymise_table(svc, table_id, pid)
    _delete_keys(svc, player)


def _check_idle(svc: Services, player_id: str) -> None:
    """:class:`PlayerBusy` if he sits at a table's or the tour's game in play, or holds an
    open table."""
    tour = [v for k, v in svc.tour.progress(player_id).items() if k.startswith("game:")]
    for game_id in [m.partition(":")[2] for m in _all_games(svc, player_id, "active")] + tour:
        try:
            game = svc.games.load(game_id)
        except GameNotFound:
            continue
        if not is_over(game.state):
            raise PlayerBusy(f"player {player_id!r} sits at the game {game.game_id!r}, in "
                             "play: finish or resign it first", game_id=game.game_id)
    if svc.tables.redis.zcount(open_tables_key(player_id), int(time.time()), "+inf"):
        raise PlayerBusy(f"player {player_id!r} holds an open table: leave it first")


def anonymised_seats(seats: list[dict[str, Any]], player_id: str) -> list[dict[str, Any]]:
    """``seats`` (each with ``player_id``) with the player's named :data:`ANONYMOUS`."""
    return [{**s, "name": ANONYMOUS, "player_id": None} if s.get("player_id") == player_id
            else s for s in seats]


def anonymised_body(body: bytes, player_id: str) -> bytes:
    """An archived game's body with the player's seats anonymous in its meta."""
    data = loads(bz2.decompress(body))
    meta = data["meta"]
    for part in ("table", "tour", "player"):
        info = meta.get(part)
        if info is None:
            continue
        mine = [i for i, p in enumerate(info["players"]) if p == player_id]
        for seat in mine:
            meta["seats"][seat]["name"] = ANONYMOUS
        info["players"] = [None if p == player_id else p for p in info["players"]]
        if info.get("player_id") == player_id:
            info["player_id"] = None
    return bz2.compress(dumps(data), LEVEL)


def _database(svc: Services, work: Callable[[Connection], T]) -> T:
    """``work`` in one transaction of the archive's database;
    :class:`~api.archive.errors.ArchiveUnavailable` if it cannot be reached."""
    assert svc.archiver is not None
    try:
        with svc.archiver.archive.engine.begin() as conn:
            return work(conn)
    except SQLAlchemyError as exc:
        raise unreachable(exc) from exc


def _drain(svc: Services) -> None:
    """Drain the outboxes into the database until they are empty (:data:`DRAINS` times at
    most: what comes in later waits for the sweep, and is kept out of a deleted player's
    rows there); :class:`~api.archive.errors.ArchiveUnavailable`."""
    assert svc.archiver is not None
    archive = svc.archiver.archive
    archive.ready()
    for _ in range(DRAINS):
        try:
            if not any(drain_now(svc.games.redis, archive.engine).values()):
                return
        except SQLAlchemyError as exc:
            raise unreachable(exc) from exc


def _delete_rows(svc: Services, player_id: str, game_ids: set[str]) -> None:
    """In one transaction: his archived games anonymised, the other players' results of
    them too, his results, standings and row deleted, he noted as deleted."""
    def work(conn: Connection) -> None:
        forget(conn, player_id)  # first: it waits for the standings' writes under way
        ids = game_ids | set(conn.execute(select(player_results.c.game_id).where(
            player_results.c.player_id == player_id)).scalars())
        for row in conn.execute(select(finished_games.c.game_id, finished_games.c.seats,
                                       finished_games.c.body).where(
                finished_games.c.game_id.in_(ids))).all():
            conn.execute(update(finished_games).where(
                finished_games.c.game_id == row.game_id).values(
                seats=anonymised_seats(row.seats, player_id),
                body=anonymised_body(row.body, player_id)))
        for row in conn.execute(select(player_results.c.player_id, player_results.c.game_id,
                                       player_results.c.entry).where(
                player_results.c.game_id.in_(ids),
                player_results.c.player_id != player_id)).all():
            if "seats" in row.entry:
                entry = {**row.entry, "seats": anonymised_seats(row.entry["seats"],
                                                                player_id)}
                conn.execute(update(player_results).where(
                    player_results.c.player_id == row.player_id,
                    player_results.c.game_id == row.game_id).values(entry=entry))
        conn.execute(delete(player_results).where(player_results.c.player_id == player_id))
        conn.execute(delete(players).where(players.c.player_id == player_id))

    _database(svc, work)


def _anonymise_table(svc: Services, table_id: str, player_id: str) -> None:
    """A finished table he sat at, its seats (and creator) no longer naming him."""
    for _ in range(RETRIES):
        table = svc.tables.load(table_id)
        if table is None:
            return
        doc = table.doc
        doc.seats = [{**s, "player_id": None, "name": ANONYMOUS}
                     if s.get("player_id") == player_id else s for s in doc.seats]
        if doc.creator == player_id:
            doc.creator = ""
        left = svc.tables.redis.ttl(table_key(table_id))
        if table.restored:  # Redis let it go: back until the database keeps it anonymised
            left = svc.tables.game_ttl
        try:
            svc.tables.commit(table, max(1, left))
        except TableConflict:
            continue
        if svc.tables.archived is not None and doc.status == "finished" and doc.game_id:
            svc.tables.note_finished(doc.game_id)  # its doc in the database, anonymised too
        return


def _delete_keys(svc: Services, player: Player) -> None:
    """His Redis keys and his entries in the shared ones."""
    pid = player.player_id
    redis = svc.players.redis
    for key in (name_key(player.name), skeleton_key(player.name)):
        svc.players.release(key, pid)
    redis.delete(player_key(pid), token_key(player.token_sha256), games_key(pid, "active"),
                 games_key(pid, "finished"), history_key(pid), results_key(pid), tour_key(pid),
                 open_tables_key(pid))
    redis.hdel(hands_key(), *[f"{pid}:{v}" for v in rated_variants()])
    for variant in (*rated_variants(), None):
        redis.zrem(board_key(player.kind, "all", variant), pid)
    months = f"{PREFIX}:leaderboard:{LEADERBOARD_TAG}:{player.kind}:month:*"
    for key in redis.scan_iter(match=months, count=1000):
        redis.zrem(key, pid)
    for variant in rated_variants():
        redis.hdel(ratings_key(variant), f"{player.kind}:{pid}")
        redis.zrem(listing_key(variant, player.kind), pid)
    for raw in redis.scan_iter(match=f"{PREFIX}:rated-pairs:{PAIRS_TAG}:*", count=1000):
        if pid in text(raw).split(":")[-2:]:  # his pairs' rated games (a day's)
            redis.delete(raw)
