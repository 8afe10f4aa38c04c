"""A leak scan over the lobby: every players and tables endpoint, the records of its games in
play (JSON and text), the spectator and invite paths, right and wrong, at every step of a
match at a public and at a private table.

Each caller may see only its own secrets: a player his player token (at creation) and his
seat token (in the table view), a seated player of a private table its invite code. No answer
may contain another token, any digest, another's invite code or a hidden card; no log line
may contain any token, digest or invite code; no value in Redis any token.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from api.games.tokens import digest
from api.keys import table_key
from tests.api.helpers import bearer
from tests.api.http.test_leak_scan import Scan, _hidden
from tests.api.lobby_helpers import stored_values


def _post(client: FlaskClient, path: str, token: str | None = None, **body: Any) -> Any:
    return client.post(path, json=body, headers=bearer(token) if token else {})


def test_no_secret_in_any_lobby_answer_or_log_line(
        client: FlaskClient, redis_client: redis.Redis,
        capsys: pytest.CaptureFixture[str]) -> None:
    created = {n: _post(client, "/v1/players", name=n) for n in ("Ann", "Bob", "Eve")}
    player = {n: r.json["token"] for n, r in created.items()}
    pid = {n: r.json["player_id"] for n, r in created.items()}
    public = _post(client, "/v1/tables", player["Ann"], match_points=3,
                   seats=[{"kind": "player"}, {"kind": "open"}])
    private = _post(client, "/v1/tables", player["Bob"], match_points=3, visibility="private",
                    settings={"point_counter": True, "hint_66": True, "auto_continue": False},
                    seats=[{"kind": "open"}, {"kind": "player"}])
    tables = {"public": public.json["table_id"], "private": private.json["table_id"]}
    code = private.json["invite_code"]
    _post(client, f"/v1/tables/{tables['public']}/join", player["Bob"])
    _post(client, f"/v1/tables/{tables['private']}/join", player["Ann"], invite_code=code)
    seat_token: dict[tuple[str, str], str] = {}
    games = {}
    for kind, table_id in tables.items():
        for name in ("Ann", "Bob"):
            you = client.get(f"/v1/tables/{table_id}", headers=bearer(player[name])).json["you"]
            seat_token[(kind, name)] = you["token"]
            games[kind] = you["game_id"]
    tokens = [*player.values(), *seat_token.values()]
    everything = [*tokens, *(digest(t) for t in tokens), code, digest(code)]

    def scan_for(own: list[str]) -> Scan:
        return Scan([s for s in everything if s not in own])

    for name, response in created.items():
        scan_for([player[name]]).check(response, set())
    scan_for([player["Ann"]]).check(public, set())
    scan_for([player["Bob"], code]).check(private, set())
    seat_of = {(kind, name): client.get(f"/v1/games/{games[kind]}", headers=bearer(
        seat_token[(kind, name)])).json["seat"] for kind in games for name in ("Ann", "Bob")}

    rng = random.Random(9)
    responses = 0
    for _ in range(12):
        for kind, table_id in tables.items():
            game = games[kind]
            t = f"/v1/tables/{table_id}"
            for name in ("Ann", "Bob", "Eve", None):
                auth = bearer(player[name]) if name else {}
                seat = seat_of.get((kind, name or ""))
                hidden = _hidden(redis_client, game, seat)
                own = [player[name]] if name else []
                if seat is not None:
                    own.append(seat_token[(kind, name or "")])
                    if kind == "private":
                        own.append(code)
                scan = scan_for(own)
                stranger = scan_for([])  # no secret of the caller's appears in these
                mine = [client.get(f"/v1/games/{game}/record", headers=bearer(
                    seat_token[(kind, name or "")]), query_string={"format": f})
                    for f in ("json", "text")] if seat is not None else []
                for response in (
                    client.get(t, headers=auth),
                    client.get(t, headers=auth, query_string={"invite_code": code}),
                    client.get(t, headers={**auth, "X-Invite-Code": "wrong"}),
                    *mine,
                ):
                    scan.check(response, hidden)
                for response in (
                    _post(client, f"{t}/join", player.get(name or "")),
                    _post(client, f"{t}/join", player.get(name or ""), invite_code="x"),
                    _post(client, f"{t}/leave", player.get(name or "")),
                    _post(client, f"{t}/rematch", player.get(name or "")),
                    client.get("/v1/tables"), client.get("/v1/tables?status=playing"),
                    client.get("/v1/players/me", headers=auth),
                    client.get("/v1/players/me/games", headers=auth),
                    client.get("/v1/players/me/games?status=finished", headers=auth),
                    client.get(f"/v1/players/{pid['Ann']}"),
                    client.get("/v1/players/nosuchplayer"),
                    _post(client, "/v1/players", name="Ann"),
                    _post(client, "/v1/players", name="A\x07nn"),
                    _post(client, "/v1/tables", player.get(name or ""), seats=[]),
                    client.get(f"/v1/games/{game}", query_string={"invite_code": code}),
                    client.get(f"/v1/games/{game}", headers={"X-Invite-Code": "wrong"}),
                    client.get(f"/v1/games/{game}/events", query_string={
                        "after": 0, "limit": 500, "invite_code": code}),
                    client.get(f"/v1/games/{game}", headers=auth),
                    client.get(f"/v1/games/{game}/record", headers=auth),
                    client.get(f"/v1/games/{game}/record", query_string={"invite_code": code}),
                    client.get(f"/v1/games/{game}/record?format=text",
                               headers={"X-Invite-Code": "wrong"}),
                ):
                    (stranger if name is None else scan).check(response, _hidden(
                        redis_client, game, None))
                responses += 25 + len(mine)
        for kind, game in games.items():
            views = {name: client.get(f"/v1/games/{game}", headers=bearer(
                seat_token[(kind, name)])).json for name in ("Ann", "Bob")}
            if views["Ann"]["status"] == "match_over":
                continue
            name = next(n for n, v in views.items() if v["legal_actions"])
            legal = views[name]["legal_actions"]
            action = rng.choice([a for a in legal if a["type"] != "declare"] or legal)
            assert client.post(f"/v1/games/{game}/actions", json=action, headers=bearer(
                seat_token[(kind, name)])).status_code == 200
    assert responses > 1700
    log = capsys.readouterr().err
    for secret in everything:
        assert secret not in log
    # Redis holds no token readable: not in the tables' hashes, the games', or anywhere
    stored = stored_values(redis_client)
    assert all(table_key(t) in stored for t in tables.values())
    for key, value in stored.items():
        for secret in tokens:
            assert secret not in value, key
