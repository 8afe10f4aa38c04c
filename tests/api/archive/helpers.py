"""Finished games over HTTP, and the answers a finished game gives its readers."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import act, bearer, two_humans, view


def finished_match(client: FlaskClient) -> tuple[str, list[str]]:
    """A two-human match played to its end (each seat's first legal action, hands
    acknowledged): its id and the seats' tokens."""
    game_id, tokens = two_humans(client, first_dealer=1)
    while True:
        views = [view(client, game_id, t) for t in tokens]
        if views[0]["status"] in ("match_over", "aborted"):
            return game_id, tokens
        seat = next(i for i, v in enumerate(views) if v["legal_actions"])
        chosen = views[seat]["legal_actions"][0]
        response = act(client, game_id, tokens[seat], chosen,
                       **{"If-Match": f'"{views[seat]["version"]}"'})
        assert response.status_code == 200, response.json


def answers(client: FlaskClient, game_id: str, tokens: list[str]) -> list[Any]:
    """What each seat and a spectator read of a game: view, record (JSON and text), events;
    but the view's ``connected`` flags, which are live presence (each read of a seat marks it
    seen), not part of the game."""
    out: list[Any] = []
    for token in [*tokens, None]:
        headers = bearer(token) if token else {}
        for path in ("", "/record", "/record?format=text", "/events?limit=500"):
            response = client.get(f"/v1/games/{game_id}{path}", headers=headers)
            assert response.status_code == 200, (path, response.get_data(as_text=True))
            body: Any = response.get_data(as_text=True)
            if path == "":
                body = response.json
                for seat in body["seats"]:
                    del seat["connected"]
            out.append((path, token, body, response.headers.get("ETag")))
    return out
