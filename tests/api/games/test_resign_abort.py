"""Resign and abort over HTTP (issue 15 D item 5): who may, when, and what the views say."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.games import play_move
from api.games.store import Game
from tests.api.helpers import DECK, HAND_0, act, assert_problem, create, two_humans, view

RESIGN = {"type": "resign"}
ABORT = {"type": "abort"}


def test_a_human_resigns_against_the_computer_and_the_computer_wins(
        client: FlaskClient) -> None:
    created = create(client, deck=DECK, first_dealer=1,
                     seats=[{"kind": "human"}, {"kind": "computer", "level": "random"}])
    game_id, token = created["game_id"], created["seats"][0]["token"]
    before = view(client, game_id, token)
    assert before["can_resign"] is True and before["can_abort"] is False
    assert {"type": "resign"} not in before["legal_actions"]
    response = act(client, game_id, token, RESIGN)
    assert response.status_code == 200, response.json
    body = response.json
    assert body is not None
    assert body["status"] == "match_over" and body["legal_actions"] == []
    assert body["can_resign"] is False
    assert body["match"]["winner"] == 1 and body["match"]["set_winner"] == 1
    assert body["match"]["result_reason"] == "resigned" and body["match"]["resigned_by"] == 0
    assert body["match"]["points"] == before["match"]["points"]
    assert [e["type"] for e in body["events"]] == ["resigned"]
    spectator = view(client, game_id)
    assert spectator["match"]["result_reason"] == "resigned"
    again = assert_problem(act(client, game_id, token, RESIGN), 409, "illegal-action")
    assert again["reason"] == "the game is over"


def test_four_hand_resignation_loses_for_the_partnership(client: FlaskClient) -> None:
    created = create(client, variant="four-hand", first_dealer=0, seats=[
        {"kind": "computer"}, {"kind": "human"}, {"kind": "computer"}, {"kind": "human"}])
    game_id = created["game_id"]
    token = created["seats"][3]["token"]
    body = act(client, game_id, token, RESIGN).json
    assert body is not None
    assert body["match"]["winner"] == 0 and body["status"] == "match_over"
    assert [e for e in body["events"] if e["type"] == "resigned"] == [
        {"seq": body["events"][-1]["seq"], "type": "resigned", "seat": 3, "winner_side": 0,
         "winners": [0, 2]}]


def test_abort_is_refused_against_computers_only(client: FlaskClient) -> None:
    created = create(client, deck=DECK, first_dealer=1,
                     seats=[{"kind": "human"}, {"kind": "computer", "level": "random"}])
    problem = assert_problem(act(client, created["game_id"], created["seats"][0]["token"],
                                 ABORT), 409, "illegal-action")
    assert "two or more human players" in problem["reason"]


def test_abort_while_the_other_human_has_not_moved(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    assert view(client, game_id, tokens[0])["can_abort"] is True
    assert view(client, game_id, tokens[1])["can_abort"] is True
    assert act(client, game_id, tokens[0], {"type": "play", "card": HAND_0[0]}).status_code \
        == 200
    # seat 0 has moved: seat 1 may no longer abort; seat 1 has not: seat 0 still may
    assert view(client, game_id, tokens[1])["can_abort"] is False
    problem = assert_problem(act(client, game_id, tokens[1], ABORT), 409, "illegal-action")
    assert problem["reason"] == ("every other player has made a move: the game can no longer "
                                 "be aborted, only resigned")
    response = act(client, game_id, tokens[0], ABORT)
    assert response.status_code == 200, response.json
    body = response.json
    assert body is not None
    assert body["status"] == "aborted" and body["match"]["winner"] is None
    assert body["match"]["result_reason"] == "aborted" and body["match"]["aborted_by"] == 0
    other = view(client, game_id, tokens[1])
    assert other["status"] == "aborted" and other["legal_actions"] == []
    assert other["can_resign"] is False and other["can_abort"] is False
    problem = assert_problem(act(client, game_id, tokens[1], RESIGN), 409, "illegal-action")
    assert problem["reason"] == "the game was aborted"


def test_after_both_humans_moved_only_resign(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    act(client, game_id, tokens[0], {"type": "play", "card": "AC"})
    seat1 = view(client, game_id, tokens[1])
    card = next(a for a in seat1["legal_actions"] if a["type"] == "play")
    assert act(client, game_id, tokens[1], card).status_code == 200
    for token in tokens:
        assert view(client, game_id, token)["can_abort"] is False
        problem = assert_problem(act(client, game_id, token, ABORT), 409, "illegal-action")
        assert "only resigned" in problem["reason"]
    body = act(client, game_id, tokens[1], RESIGN).json
    assert body is not None and body["match"]["winner"] == 0


def test_resign_needs_a_seat_token(client: FlaskClient) -> None:
    game_id, _ = two_humans(client)
    response = client.post(f"/v1/games/{game_id}/actions", json=RESIGN)
    assert_problem(response, 401, "unauthorized")
    assert view(client, game_id)["status"] != "match_over"


def _a_save_first(app: Flask, monkeypatch: pytest.MonkeyPatch, times: int) -> list[int]:
    """Make another writer save the game (a meta-only save, as a computer's move or a hint's
    mark would) right after the action's request loaded it, ``times`` times; the versions
    written."""
    store = app.extensions["sixtysix"].games
    written: list[int] = []
    real = play_move.clocked

    def clocked(svc: Any, game: Game, wait: float) -> Game:
        if len(written) < times:
            written.append(store.save(store.load(game.game_id), [], write_meta=True).version)
        return real(svc, game, wait)

    monkeypatch.setattr(play_move, "clocked", clocked)
    return written


def test_a_resignation_without_if_match_is_not_refused_for_a_save_made_meanwhile(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    written = _a_save_first(app, monkeypatch, 2)
    response = act(client, game_id, tokens[0], RESIGN)
    assert response.status_code == 200, response.json
    assert written == [2, 3] and response.json["version"] == 4  # type: ignore[index]
    assert response.json["match"]["result_reason"] == "resigned"  # type: ignore[index]


def test_an_action_with_if_match_is_still_stale_when_a_save_came_first(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, tokens = two_humans(client, deck=DECK, first_dealer=1)
    _a_save_first(app, monkeypatch, 1)
    assert_problem(act(client, game_id, tokens[0], RESIGN, **{"If-Match": '"1"'}), 412,
                   "stale-version")
    assert view(client, game_id, tokens[0])["status"] != "match_over"
