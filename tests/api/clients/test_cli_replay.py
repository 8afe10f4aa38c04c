"""``sixtysix replay RECORD``: a record fetched over HTTP replays; a changed one does not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api.cli import main
from tests.api.games.test_record import random_match


def test_sixtysix_replay_checks_a_fetched_record(client: FlaskClient, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    game_id = random_match(client, "three-hand", seed=3)
    record = client.get(f"/v1/games/{game_id}/record").json
    assert record is not None
    text = client.get(f"/v1/games/{game_id}/record?format=text").get_data(as_text=True)
    (tmp_path / "game.json").write_text(json.dumps(record))
    (tmp_path / "game.txt").write_text(text)
    assert main(["replay", str(tmp_path / "game.json"), "--show"]) == 0
    out = capsys.readouterr().out
    assert "hand 1, dealer" in out and "settlements and result identical" in out
    assert main(["replay", str(tmp_path / "game.txt")]) == 0
    assert "every action legal" in capsys.readouterr().out
    record["hands"][-1]["settlement"]["game_points"] += 1
    (tmp_path / "changed.json").write_text(json.dumps(record))
    assert main(["replay", str(tmp_path / "changed.json")]) == 1
    err = capsys.readouterr().err
    assert f"MISMATCH at hand {len(record['hands'])}: settlement game_points" in err
