"""GET /v1/games/{id}/events: sequence numbers, pagination, per-seat visibility."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.helpers import DECK, HAND_0, HAND_1, act, assert_problem, bearer, two_humans


def test_events_are_numbered_and_paginated(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    act(client, game_id, tokens[0], {"type": "play", "card": "AC"})
    act(client, game_id, tokens[1], {"type": "play", "card": "QC"})
    everything = client.get(f"/v1/games/{game_id}/events").json
    assert everything is not None
    seqs = [e["seq"] for e in everything["events"]]
    assert seqs == list(range(1, len(seqs) + 1))
    assert everything["last_seq"] == everything["next_after"] == seqs[-1]
    collected: list[dict[str, object]] = []
    after = 0
    while True:
        page = client.get(f"/v1/games/{game_id}/events?after={after}&limit=2").json
        assert page is not None and len(page["events"]) <= 2
        collected += page["events"]
        if page["next_after"] == page["last_seq"]:
            break
        after = page["next_after"]
    assert collected == everything["events"]
    beyond = client.get(f"/v1/games/{game_id}/events?after=999").json
    assert beyond == {"events": [], "next_after": everything["last_seq"],
                      "last_seq": everything["last_seq"]}


def test_a_seat_sees_its_own_cards_only(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    dealt = {}
    for seat, token in enumerate(tokens):
        page = client.get(f"/v1/games/{game_id}/events", headers=bearer(token)).json
        assert page is not None
        dealt[seat] = {e["seat"]: e.get("cards") for e in page["events"]
                       if e["type"] == "cards_dealt"}
    assert sorted(dealt[0][0]) == sorted(HAND_0) and dealt[0][1] is None
    assert sorted(dealt[1][1]) == sorted(HAND_1) and dealt[1][0] is None
    spectator = client.get(f"/v1/games/{game_id}/events").json
    assert spectator is not None
    assert all("cards" not in e for e in spectator["events"])


def test_event_errors(client: FlaskClient) -> None:
    game_id, _ = two_humans(client)
    problem = assert_problem(client.get(f"/v1/games/{game_id}/events?limit=501"), 422,
                             "validation-error")
    assert "limit" in problem["errors"]
    assert_problem(client.get(f"/v1/games/{game_id}/events?after=-1"), 422, "validation-error")
    assert_problem(client.get("/v1/games/nope/events"), 404, "game-not-found")
    assert_problem(client.get(f"/v1/games/{game_id}/events", headers=bearer("forged")), 401,
                   "unauthorized")
