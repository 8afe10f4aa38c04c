"""The end of a table's match: the players' counts and lists, the table's status.

:func:`after_save` is the last step of the pipeline after every save of a game
(:class:`api.composition.Pipeline`): it records the match whenever a save leaves a table's game
over (``match_over`` however it got there: the last hand, a resignation, which the other side
wins; or ``aborted``). The table and "my games" views run that pipeline again for a finished
game still listed as active, so a result lost to a crash between the game's save and this step
is recorded later. Every step is idempotent: the game moves to each player's finished list
(:meth:`api.players.store.PlayerStore.finish_game`; his counts are written with his history,
once, by the standings), and the table moves to
``finished``, with the game's ``result`` (``points``, ``resigned`` or ``aborted``), only from
``playing`` with that game current; a rematch may follow either way. The pipeline's first step
has counted the game's standings (:mod:`api.standings`: leaderboard, ratings, history).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Final

import redis

from api.games.meta import GameMeta, TableInfo
from api.games.store import Game
from api.outbox import FACTS, push
from api.players.store import PlayerStore
from api.tables.store import Table, TableConflict, TableStore
from engine.hosted import HostedState, end_reason, is_over, variant_of

log = logging.getLogger(__name__)

#: Attempts of the table's status change against concurrent changes.
RETRIES: Final = 20


def table_of(meta: GameMeta) -> TableInfo | None:
    """The ``table`` member of a game's meta, for a game started at a table."""
    return meta.get("table")


def result_of(state: HostedState) -> str:
    """How a game that is over ended: ``points``, ``resigned`` or ``aborted``."""
    return end_reason(state) or "points"


def record_match(tables: TableStore, players: PlayerStore, game: Game) -> None:
    """Record a table game's finished match (no-op for another game or one still running)."""
    info = table_of(game.meta)
    if info is None or not is_over(game.state):
        return
    state = game.state
    variant = variant_of(state)
    for player_id in info["players"]:
        if player_id is not None:
            players.finish_game(player_id, info["started_ms"], game.game_id)
    for _ in range(RETRIES):
        table = tables.load(info["table_id"])
        if table is None or not finishes(table, game.game_id):
            if table is not None and table.doc.game_id == game.game_id:
                note_result(tables, table, info["players"])  # a note lost is made again
            return
        table.doc.status = "finished"
        table.doc.finished_at = int(time.time())
        table.doc.result = result_of(state)
        try:
            tables.commit(table, tables.game_ttl)
        except TableConflict:
            continue
        if table.doc.visibility == "public":
            tables.unindex(table.table_id, table.doc.created_ms, "playing", variant)
        note_result(tables, table, info["players"])
        return


def note_result(tables: TableStore, table: Table, players: list[str | None]) -> None:
    """With a database, note a finished table's result for it (:mod:`api.outbox`)."""
    if not tables.noted or table.doc.status != "finished" or table.doc.game_id is None:
        return
    push(tables.redis, FACTS, json.dumps(
        {"t": "table", "game_id": table.doc.game_id, "table_id": table.table_id,
         "variant": table.doc.variant, "result": table.doc.result,
         "finished_at": table.doc.finished_at, "players": players}, separators=(",", ":")))


def finishes(table: Table, game_id: str) -> bool:
    return bool(table.doc.status == "playing" and table.doc.game_id == game_id)


def after_save(tables: TableStore, players: PlayerStore, game: Game) -> None:
    """Record a table match that is over (won, resigned or aborted), after a save.

    A failure here is logged, not raised: the game is saved and its answer must say so; the
    next view of the table or of the player's games records the match.
    """
    if not is_over(game.state) or table_of(game.meta) is None:
        return
    try:
        record_match(tables, players, game)
    except redis.RedisError as exc:
        log.warning("match %s saved but its result not yet recorded: %s", game.game_id,
                    type(exc).__name__)
