"""The typed client against the real app on a real socket, backed by the real Redis."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
import redis

from api.clients.client import ApiError, SixtySixClient, action_dict, action_text
from engine import InvalidAction

# Seat 0 is forehand (seat 1 deals): KH QH AS TS 9C JC; seat 1: AH TH KS QS 9D JD; 9H trump.
DECK = ["KH", "QH", "AS", "AH", "TH", "KS", "TS", "9C", "JC", "QS", "9D", "JD", "9H",
        "AC", "TC", "KC", "QC", "JS", "9S", "AD", "TD", "KD", "QD", "JH"]
HUMANS: list[Any] = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture
def client(live_url: str, redis_client: redis.Redis) -> SixtySixClient:
    return SixtySixClient(live_url)


def _two_humans(client: SixtySixClient, **kwargs: Any) -> tuple[str, SixtySixClient,
                                                                 SixtySixClient]:
    game = client.create_game(seats=HUMANS, **kwargs)
    ann, bob = (client.with_token(s["token"]) for s in game["seats"])
    return game["game_id"], ann, bob


def test_health_and_rules(client: SixtySixClient) -> None:
    assert client.health()
    rules = client.rules()
    variants = {v["name"]: v["players"] for v in rules["variants"]}
    assert variants["sixty-six"] == 2
    assert variants["four-hand"] == 4
    assert "random" in str(rules)


def test_create_view_and_act(client: SixtySixClient) -> None:
    game = client.create_game(seats=HUMANS, deck=DECK, first_dealer=1)
    assert [(s["seat"], s["kind"], s["name"]) for s in game["seats"]] == [
        (0, "human", "Ann"), (1, "human", "Bob")]
    assert all(s["token"] for s in game["seats"])
    game_id = game["game_id"]
    ann = client.with_token(game["seats"][0]["token"])
    bob = client.with_token(game["seats"][1]["token"])

    view = ann.view(game_id)
    assert view["game_id"] == game_id
    assert view["version"] == game["version"]
    assert (view["seat"], view["status"], view["to_act"]) == (0, "playing", 0)
    assert sorted(view["hand"]) == sorted(["KH", "QH", "AS", "TS", "9C", "JC"])
    assert (view["trump_suit"], view["trump_card"], view["talon_size"]) == ("H", "9H", 12)
    assert {"type": "meld", "suit": "H"} in view["legal_actions"]

    view = ann.act(game_id, "meld:H")  # text form
    view = ann.act(game_id, {"type": "play", "card": "QH"}, if_match=view["version"])
    assert view["trick"] == [{"seat": 0, "card": "QH"}]
    assert view["legal_actions"] == []
    seen = bob.view(game_id)
    assert seen["known_cards"] == {"0": ["KH"]}
    assert seen["to_act"] == 1
    view = bob.act(game_id, "play:AH")
    assert view["last_trick"] == {"leader": 0, "winner": 1,
                                  "cards": [{"seat": 0, "card": "QH"}, {"seat": 1, "card": "AH"}]}
    assert len(view["hand"]) == 6  # drew from the talon

    spectator = client.view(game_id)
    assert spectator["seat"] is None and spectator["hand"] is None
    assert spectator["legal_actions"] == []

    events = ann.all_events(game_id)
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1))
    won = next(e for e in events if e["type"] == "trick_won")
    assert (won["seat"], won["cards"], won["points"], won["reason"]) == (
        1, ["QH", "AH"], 14, "higher_card")
    assert ann.all_events(game_id, after=seqs[-2]) == events[-1:]
    page = ann.events(game_id, after=0, limit=2)
    assert [e["seq"] for e in page["events"]] == [1, 2]
    assert page["last_seq"] == seqs[-1]


def test_long_poll_answers_when_the_other_seat_moves(client: SixtySixClient) -> None:
    game_id, ann, bob = _two_humans(client, deck=DECK, first_dealer=1)
    version = bob.view(game_id)["version"]
    assert bob.view(game_id, after_version=version - 1, wait=5)["version"] == version
    answers: list[dict[str, Any]] = []
    waiter = threading.Thread(
        target=lambda: answers.append(bob.view(game_id, after_version=version, wait=30)))
    waiter.start()
    ann.act(game_id, "play:AS")
    waiter.join(60)
    assert not waiter.is_alive()
    assert answers[0]["version"] > version
    assert answers[0]["trick"] == [{"seat": 0, "card": "AS"}]


def test_errors_carry_the_problem_fields(client: SixtySixClient) -> None:
    game_id, ann, bob = _two_humans(client, deck=DECK, first_dealer=1)

    with pytest.raises(ApiError) as info:
        ann.view("no-such-game")
    assert info.value.status == 404
    assert info.value.type.endswith("/game-not-found")
    assert info.value.title and info.value.detail

    with pytest.raises(ApiError) as info:
        client.with_token("not-a-token").view(game_id)
    assert info.value.status == 401

    with pytest.raises(ApiError) as info:
        bob.act(game_id, "play:AH")  # not Bob's turn
    assert info.value.status == 409
    assert info.value.detail
    assert info.value.legal_actions == []

    with pytest.raises(ApiError) as info:
        ann.act(game_id, "play:AH")  # Bob holds it
    assert info.value.status == 409
    assert info.value.legal_actions is not None
    assert {"type": "play", "card": "AS"} in info.value.legal_actions

    version = ann.view(game_id)["version"]
    with pytest.raises(ApiError) as info:
        ann.act(game_id, "play:AS", if_match=version - 1)
    assert info.value.status == 412

    with pytest.raises(ApiError) as info:
        ann.act(game_id, {"type": "fly"})
    assert info.value.status in (400, 422)
    assert "type" in info.value.detail or "type" in str(info.value.body)

    with pytest.raises(ApiError) as info:
        client.create_game("no-such-variant")
    assert info.value.status in (400, 422)

    assert ann.view(game_id)["version"] == version  # nothing was applied
    with pytest.raises(InvalidAction):
        ann.act(game_id, "fly:away")  # refused by the client before sending


def test_idempotent_act_is_applied_once(client: SixtySixClient) -> None:
    game_id, ann, _ = _two_humans(client, deck=DECK, first_dealer=1)
    first = ann.act(game_id, "play:AS", idempotency_key="move-1")
    again = ann.act(game_id, "play:AS", idempotency_key="move-1")
    assert again["version"] == first["version"]
    assert ann.view(game_id)["version"] == first["version"]


def test_action_text_round_trip() -> None:
    for text in ("play:QH", "meld:H", "exchange", "close", "declare", "continue"):
        assert action_text(action_dict(text)) == text


def test_two_human_clients_play_a_whole_match(client: SixtySixClient) -> None:
    game_id, ann, bob = _two_humans(client, match_points=3)
    seats = {0: ann, 1: bob}
    rng = random.Random(66)
    view = ann.view(game_id)
    for _ in range(1000):
        if view["status"] == "match_over":
            break
        player = next(c for c in seats.values() if c.view(game_id)["legal_actions"])
        view = player.view(game_id)
        action = rng.choice(view["legal_actions"])
        view = player.act(game_id, action, if_match=view["version"])
    assert view["status"] == "match_over"
    match = view["match"]
    assert max(match["points"]) >= 3
    assert sorted(match["bummerl"]) in ([0, 1], [0, 2])
    assert view["settlement"]["winners"] == [match["points"].index(max(match["points"]))]
    events = ann.all_events(game_id)
    assert events[-1]["type"] in ("match_won", "set_won")
    won = [0, 0]
    for event in events:
        if event["type"] == "hand_settled":
            for seat in event["settlement"]["winners"]:
                won[seat] += event["settlement"]["game_points"]
    assert won == match["points"]
