"""The committed OpenAPI spec equals the generated one; the check reports drift."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api.http.openapi_check import SPEC_PATH, generated, main


def test_committed_spec_is_up_to_date() -> None:
    assert SPEC_PATH.read_text(encoding="utf-8") == generated(), (
        "openapi/openapi.json is stale: run `python -m api.http.openapi_check --write`")


def test_check_reports_drift_with_a_diff(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    stale = tmp_path / "openapi.json"
    stale.write_text(generated().replace('"title": "Sixty-Six"', '"title": "Old"'))
    assert main(["--path", str(stale)]) == 1
    out = capsys.readouterr().out
    assert '-    "title": "Old"' in out and '+    "title": "Sixty-Six"' in out
    assert main(["--path", str(stale), "--write"]) == 0
    assert main(["--path", str(stale)]) == 0


def test_served_spec_is_openapi_3_1_with_every_endpoint(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    assert spec is not None
    assert spec["openapi"] == "3.1.0" and spec["info"]["title"] == "Sixty-Six"
    assert set(spec["paths"]) == {
        "/v1/games", "/v1/games/{game_id}", "/v1/games/{game_id}/actions",
        "/v1/games/{game_id}/events", "/v1/games/{game_id}/hint",
        "/v1/games/{game_id}/record", "/v1/games/{game_id}/chat", "/v1/analysis",
        "/v1/rules", "/healthz", "/readyz", "/v1/players", "/v1/players/me",
        "/v1/players/me/games", "/v1/players/{player_id}", "/v1/tables", "/v1/tables/{table_id}",
        "/v1/tables/{table_id}/join", "/v1/tables/{table_id}/leave",
        "/v1/tables/{table_id}/rematch", "/v1/leaderboard", "/v1/ratings",
        "/v1/players/{player_id}/games", "/v1/players/{player_id}/export", "/v1/tour",
        "/v1/tour/{station}/start",
        "/v1/games/{game_id}/stream", "/v1/games/{game_id}/stream-ticket",
        "/v1/tables/{table_id}/stream"}
    error = spec["components"]["responses"]["DEFAULT_ERROR"]["content"]
    assert list(error) == ["application/problem+json"]
    assert spec["paths"]["/v1/games/{game_id}/actions"]["post"]["security"] == [
        {"seatToken": []}]
    assert spec["paths"]["/v1/tables/{table_id}/join"]["post"]["security"] == [
        {"playerToken": []}]
    assert "playerToken" in spec["components"]["securitySchemes"]
