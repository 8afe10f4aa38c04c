"""The stored table (:class:`api.tables.store.TableDoc`): the JSON it is read from is the JSON
it writes back, whatever this version knows of it."""

from __future__ import annotations

from typing import Any

from api.tables.store import TableDoc

#: A table as the service stored it before tables were typed (an open one, then finished).
OPEN: dict[str, Any] = {
    "table_id": "AbCdEfGhIjKl", "created_at": 1764600000, "created_ms": 1764600000123,
    "expires_at": 1764603600, "creator": "p1", "variant": "sixty-six",
    "rules": {"match_points": 7}, "settings": {"point_counter": False, "hint_66": False,
                                               "auto_continue": False, "think_time_s": None,
                                               "on_timeout": "computer",
                                               "timeout_level": "normal"},
    "visibility": "private", "rated": True, "invite_code": "secret", "status": "open",
    "seats": [{"kind": "player", "player_id": "p1", "name": "Ann", "bot": False},
              {"kind": "open"}],
    "games": [], "game_id": None, "started_ms": None, "rematch": [], "result": None,
}
FINISHED: dict[str, Any] = {**OPEN, "expires_at": None, "status": "finished",
                            "games": ["AbCdEfGhIjKl.1"], "game_id": "AbCdEfGhIjKl.1",
                            "started_ms": 1764600001000, "result": "points",
                            "finished_at": 1764600900}


def test_a_stored_table_is_written_back_as_it_was_read() -> None:
    for stored in (OPEN, FINISHED):
        assert TableDoc.from_dict(stored).to_dict() == stored
    assert "finished_at" not in TableDoc.from_dict(OPEN).to_dict()


def test_a_field_this_version_does_not_know_survives_a_save() -> None:
    newer = {**OPEN, "theme": "green"}
    doc = TableDoc.from_dict(newer)
    assert doc.extra == {"theme": "green"}
    assert doc.to_dict() == newer


def test_a_table_from_before_rated_tables_is_rated() -> None:
    older = {k: v for k, v in OPEN.items() if k not in ("rated", "result")}
    doc = TableDoc.from_dict(older)
    assert doc.rated is True and doc.result is None
