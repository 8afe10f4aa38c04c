"""How a table's match ends: an abort finishes the table counted for nobody (rematch allowed,
listed as finished), a resignation is won by the other side in both players' stats."""

from __future__ import annotations

from typing import Any

import redis
from flask.testing import FlaskClient

from api.games.store import GameStore
from engine import Action, apply
from tests.api.helpers import bearer
from tests.api.lobby_helpers import join, new_player, new_table, table

TWO: list[dict[str, str]] = [{"kind": "player"}, {"kind": "open"}]


def _started(client: FlaskClient) -> tuple[dict[str, str], dict[str, str], str, str]:
    """A public two-player table started: player ids, player tokens, table id, game id."""
    ann_id, ann = new_player(client, "Ann")
    bob_id, bob = new_player(client, "Bob")
    made = new_table(client, ann, seats=TWO, match_points=3)
    joined = join(client, bob, made["table_id"])
    return ({"ann": ann_id, "bob": bob_id}, {"ann": ann, "bob": bob}, made["table_id"],
            joined["game_id"])


def _stats(client: FlaskClient, player_id: str) -> dict[str, int]:
    out: dict[str, int] = client.get(f"/v1/players/{player_id}").json["stats"]["sixty-six"]
    return out


def _mine(client: FlaskClient, token: str, status: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = client.get("/v1/players/me/games", headers=bearer(token),
                                           query_string={"status": status}).json["games"]
    return out


def _act(client: FlaskClient, game_id: str, token: str, kind: str) -> dict[str, Any]:
    response = client.post(f"/v1/games/{game_id}/actions", json={"type": kind},
                           headers=bearer(token))
    assert response.status_code == 200, response.json
    out: dict[str, Any] = response.json  # type: ignore[assignment]
    return out


def _check_aborted(client: FlaskClient, ids: dict[str, str], tokens: dict[str, str],
                   table_id: str, game_id: str) -> None:
    seen = table(client, table_id, tokens["ann"])
    assert seen["status"] == "finished" and seen["result"] == "aborted", seen
    for name in ("ann", "bob"):
        assert _stats(client, ids[name]) == {"played": 0, "won": 0}
        assert _mine(client, tokens[name], "active") == []
        finished = _mine(client, tokens[name], "finished")
        assert [(g["game_id"], g["status"]) for g in finished] == [(game_id, "aborted")]
    listed = client.get("/v1/tables", query_string={"status": "playing"}).json["tables"]
    assert table_id not in [t["table_id"] for t in listed]
    for name in ("ann", "bob"):
        response = client.post(f"/v1/tables/{table_id}/rematch", headers=bearer(tokens[name]))
        assert response.status_code == 200, response.json
    again = table(client, table_id, tokens["bob"])
    assert again["status"] == "playing" and again["result"] is None
    assert again["games"] == [game_id, f"{table_id}.2"] and again["you"]["token"]


def test_an_aborted_table_game_finishes_the_table_for_nobody(client: FlaskClient) -> None:
    ids, tokens, table_id, game_id = _started(client)
    ann_seat = table(client, table_id, tokens["ann"])["you"]["token"]
    assert _act(client, game_id, ann_seat, "abort")["status"] == "aborted"
    _check_aborted(client, ids, tokens, table_id, game_id)


def test_an_abort_whose_table_step_was_lost_is_recorded_by_the_next_view(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    """The game saved aborted without the table's step (as if the process died between):
    the next view of the table finishes it."""
    ids, tokens, table_id, game_id = _started(client)
    store = GameStore(redis_client, 3600)
    game = store.load(game_id)
    store.save(game, apply(game.state, 0, Action.from_dict({"type": "abort"})))
    assert client.get("/v1/tables?status=playing").json["tables"][0]["table_id"] == table_id
    _check_aborted(client, ids, tokens, table_id, game_id)


def test_a_resignation_at_a_table_is_won_by_the_other_side(client: FlaskClient) -> None:
    ids, tokens, table_id, game_id = _started(client)
    bob_seat = table(client, table_id, tokens["bob"])["you"]["token"]
    view = _act(client, game_id, bob_seat, "resign")
    assert view["status"] == "match_over" and view["match"]["set_winner"] == 0
    seen = table(client, table_id)
    assert seen["status"] == "finished" and seen["result"] == "resigned"
    assert _stats(client, ids["ann"]) == {"played": 1, "won": 1}
    assert _stats(client, ids["bob"]) == {"played": 1, "won": 0}
    for name in ("ann", "bob"):
        assert [g["game_id"] for g in _mine(client, tokens[name], "finished")] == [game_id]
        assert _mine(client, tokens[name], "active") == []
