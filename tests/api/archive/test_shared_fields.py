"""A history item's fields every player of the game shares are kept once, in the game's
``finished_games`` row, not in each player's ``player_results`` row (SQLite and PostgreSQL);
revision 0004 moves those of rows written before, and back on a downgrade."""

from __future__ import annotations

import random
from typing import Any

from alembic import command
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, String, cast, select

from api.archive.migrations import config
from api.archive.schema import finished_games, player_results
from api.archive.shared import SHARED
from api.archive.sweep import Archiver
from tests.api.helpers import bearer
from tests.api.lobby_helpers import join, new_player, new_table, play_to_end, seat_tokens


def _played(client: FlaskClient) -> list[tuple[str, str]]:
    players = [new_player(client, name) for name in ("Ann", "Bob")]
    table_id = new_table(client, players[0][1], match_points=3,
                         seats=[{"kind": "player"}, {"kind": "open"}])["table_id"]
    join(client, players[1][1], table_id)
    game_id, seats = seat_tokens(client, table_id, [t for _, t in players])
    play_to_end(client, game_id, seats, random.Random(7))
    return players


def _histories(client: FlaskClient, players: list[tuple[str, str]]) -> list[Any]:
    return [client.get(f"/v1/players/{player_id}/games", headers=bearer(token)).json
            for player_id, token in players]


def _entries(engine: Engine) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        return [dict(e) for e in conn.execute(select(player_results.c.entry)).scalars()]


def test_the_shared_fields_are_kept_once_a_game_and_move_with_the_migration(
        db_app: Flask) -> None:
    client = db_app.test_client()
    archiver: Archiver = db_app.extensions["sixtysix"].archiver
    engine = archiver.archive.engine
    players = _played(client)
    before = _histories(client, players)
    assert archiver.drain() == 1
    assert _histories(client, players) == before
    entries = _entries(engine)
    assert len(entries) == 2 and all(set(e) == {"seat"} for e in entries)
    with engine.connect() as conn:
        shared = conn.execute(select(finished_games.c.shared)).scalar_one()
        stored = conn.execute(select(cast(finished_games.c.shared, String))).scalar_one()
    assert set(shared) == set(SHARED)
    assert ", " not in stored and ": " not in stored  # compact JSON: no blank to store

    command.downgrade(config(engine), "0004_forgotten")  # the layout of rows written before
    assert all(set(SHARED) <= set(e) for e in _entries(engine))
    command.upgrade(config(engine), "head")
    assert all(set(e) == {"seat"} for e in _entries(engine))
    assert _histories(client, players) == before
