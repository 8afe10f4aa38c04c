"""The error examples of the lobby, tour, leaderboard, ratings and players operations are real
answers: each is replayed against the app and compared (only the ids and the request id of
the run put in); every such operation documents its errors through its own components, never
the generic DEFAULT_ERROR; and their links name real operations."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from api.http.examples_lobby import LOBBY_ERRORS, PLAYER_ID, TABLE_ID
from api.http.openapi_docs import LINKS, LOBBY_PREFIXES, RESPONSES
from tests.api.helpers import bearer
from tests.api.lobby_helpers import same_problem


def test_lobby_problem_examples_are_what_the_server_answers(client: FlaskClient) -> None:
    ann = client.post("/v1/players", json={"name": "Ann"}).json
    bob = client.post("/v1/players", json={"name": "Bob"}).json
    assert ann is not None and bob is not None
    a, b = bearer(ann["token"]), bearer(bob["token"])
    created = client.post("/v1/tables", headers=a,
                          json={"seats": [{"kind": "player"}, {"kind": "open"}]}).json
    assert created is not None
    table = {TABLE_ID: created["table_id"]}
    same_problem(client.get("/v1/players/me"), "missing_player_token")
    same_problem(client.get("/v1/tour", headers=bearer("nope")), "unknown_player_token")
    same_problem(client.get(f"/v1/players/{PLAYER_ID}"), "player_not_found")
    ann_id = {PLAYER_ID: ann["player_id"]}
    same_problem(client.get(f"/v1/players/{ann['player_id']}/export", headers=b),
                 "not_your_player", **ann_id)
    same_problem(client.delete(f"/v1/players/{ann['player_id']}", headers=a), "player_busy",
                 **ann_id)
    same_problem(client.post("/v1/players", json={"name": "ann"}), "name_taken")
    same_problem(client.post("/v1/players", json={"name": "A"}), "invalid_name")
    same_problem(client.get(f"/v1/tables/{TABLE_ID}"), "table_not_found")
    base = f"/v1/tables/{created['table_id']}"
    same_problem(client.post(f"{base}/join", headers=a, json={}), "already_seated", **table)
    same_problem(client.post(f"{base}/leave", headers=b), "no_seat", **table)
    same_problem(client.post(f"{base}/rematch", headers=a), "no_rematch_yet", **table)
    same_problem(client.post(f"{base}/join", headers=b, json={"seat": 7}), "no_such_seat",
                  **table)
    same_problem(client.post("/v1/tables", headers=a, json={"seats": [
        {"kind": "player"}, {"kind": "computer", "level": "genius"}]}), "unknown_level")
    same_problem(client.post("/v1/tour/route-67/start", headers=a), "station_not_found")
    same_problem(client.post("/v1/tour/st-louis/start", headers=a), "station_not_open")
    same_problem(client.get("/v1/ratings?kind=robot"), "invalid_kind")
    same_problem(client.get("/v1/leaderboard?period=week"), "invalid_period")
    same_problem(client.get("/v1/tables?status=gone"), "invalid_status")


def _ref(response: Any) -> str:
    return str(response.get("$ref", "")).rsplit("/", 1)[-1] if isinstance(response, dict) else ""


def test_lobby_operations_document_their_errors_with_their_own_examples(
        client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    assert spec is not None
    lobby = {(path, method): op for path, ops in spec["paths"].items() if
             path.startswith(LOBBY_PREFIXES) for method, op in ops.items()
             if isinstance(op, dict) and "responses" in op}
    assert len(lobby) == 18
    components = spec["components"]["responses"]
    for (path, method), op in lobby.items():
        for status, response in op["responses"].items():
            if status.startswith(("4", "5")):
                name = _ref(response)
                assert name in components and name != "DEFAULT_ERROR", (path, method, name)
                media = components[name]["content"]["application/problem+json"]
                shown = ([e["value"] for e in media["examples"].values()]
                         if "examples" in media else [media["example"]])
                assert shown and all(e["status"] == int(status) for e in shown), (path, status)
    errors = {n for r in RESPONSES.values() for m in r["content"].values() for n in m["examples"]}
    assert set(LOBBY_ERRORS) <= errors  # every lobby example is in a component
    for path in ("/v1/players/me", "/v1/tour", "/v1/tables/{table_id}/join"):
        method = "get" if path != "/v1/tables/{table_id}/join" else "post"
        assert _ref(lobby[(path, method)]["responses"]["401"]) == "PlayerUnauthorized"


def test_lobby_links_and_headers_name_real_operations(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    assert spec is not None
    ids = {op["operationId"] for ops in spec["paths"].values() for op in ops.values()
           if isinstance(op, dict) and "operationId" in op}
    operations = [op for ops in spec["paths"].values() for op in ops.values()
                  if isinstance(op, dict) and "responses" in op]
    assert all("operationId" in op for op in operations)  # every operation is named
    for (path, method, status), links in LINKS.items():
        answer = spec["paths"][path][method]["responses"][str(status)]
        assert answer["links"] == links
        assert {link["operationId"] for link in links.values()} <= ids
    created = spec["paths"]["/v1/players"]["post"]["responses"]["201"]
    assert created["headers"]["Location"] == {"$ref": "#/components/headers/PlayerLocation"}
    tour = spec["paths"]["/v1/tour/{station}/start"]["post"]["responses"]["201"]
    assert set(tour["headers"]) == {"ETag", "Location"}


def test_the_documented_lobby_headers_are_sent(client: FlaskClient) -> None:
    created = client.post("/v1/players", json={"name": "Ann"})
    assert created.headers["Location"] == f"/v1/players/{created.json['player_id']}"  # type: ignore[index]
    token = created.json["token"]  # type: ignore[index]
    table = client.post("/v1/tables", headers=bearer(token),
                        json={"seats": [{"kind": "player"}, {"kind": "open"}]})
    assert table.headers["Location"] == f"/v1/tables/{table.json['table_id']}"  # type: ignore[index]
