"""Records of table games: a private table's needs a seat token or its invite code (else a
404, as for spectating), a public one's is anyone's after the match, only its seats' before."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import assert_problem, bearer
from tests.api.lobby_helpers import join, new_player, new_table, table

TWO: list[dict[str, str]] = [{"kind": "player"}, {"kind": "open"}]


def _started(client: FlaskClient, visibility: str) -> tuple[dict[str, Any], str, str, str]:
    """A started two-player table: the table, its game, Ann's and Bob's seat tokens."""
    _, ann = new_player(client, "Ann")
    _, bob = new_player(client, "Bob")
    made = new_table(client, ann, seats=TWO, visibility=visibility)
    joined = join(client, bob, made["table_id"], **(
        {"invite_code": made["invite_code"]} if made["invite_code"] else {}))
    ann_seat = table(client, made["table_id"], ann)["you"]["token"]
    return made, joined["game_id"], ann_seat, joined["you"]["token"]


def _record(client: FlaskClient, game_id: str, headers: dict[str, str] | None = None,
            **query: str) -> Any:
    return client.get(f"/v1/games/{game_id}/record", headers=headers or {},
                      query_string=query)


def _resign(client: FlaskClient, game_id: str, token: str) -> None:
    response = client.post(f"/v1/games/{game_id}/actions", json={"type": "resign"},
                           headers=bearer(token))
    assert response.status_code == 200 and response.json["status"] == "match_over"


def test_a_private_tables_record_needs_a_seat_token_or_the_invite_code(
        client: FlaskClient) -> None:
    made, game_id, ann, bob = _started(client, "private")
    code = made["invite_code"]
    # in play: a stranger without the code does not learn that the game exists
    for headers, query in (({}, {}), ({"X-Invite-Code": "wrong"}, {}),
                           ({}, {"invite_code": "wrong"})):
        assert_problem(_record(client, game_id, headers, **query), 404, "game-not-found")
    # with the code, as while spectating: only its seats read the record of a game in play
    assert_problem(_record(client, game_id, invite_code=code), 401, "unauthorized")
    running = _record(client, game_id, bearer(bob))
    assert running.status_code == 200 and running.json["hands"][0]["deck"] is None
    _resign(client, game_id, ann)
    for headers, query in (({}, {}), ({"X-Invite-Code": "wrong"}, {}),
                           ({}, {"invite_code": "wrong"}),
                           ({"X-Invite-Code": "wrong"}, {"format": "text"})):
        assert_problem(_record(client, game_id, headers, **query), 404, "game-not-found")
    by_query = _record(client, game_id, invite_code=code)
    by_header = _record(client, game_id, {"X-Invite-Code": code})
    by_seat = _record(client, game_id, bearer(ann))
    for response in (by_query, by_header, by_seat):
        assert response.status_code == 200, response.json
        assert response.json["hands"][0]["deck"] and response.json["result"]["reason"] == \
            "resigned"
    text = _record(client, game_id, {"X-Invite-Code": code}, format="text")
    assert text.status_code == 200 and "deck=" in text.get_data(as_text=True)


def test_a_public_tables_record_is_anyones_after_the_match(client: FlaskClient) -> None:
    _, game_id, ann, bob = _started(client, "public")
    assert_problem(_record(client, game_id), 401, "unauthorized")
    assert _record(client, game_id, bearer(ann)).status_code == 200
    _resign(client, game_id, bob)
    done = _record(client, game_id)
    assert done.status_code == 200 and done.json["hands"][0]["deck"]
    assert done.json["result"]["winners"] == [0]
