"""Chat in the game's event log: saves renumber after messages, concurrency, notices, record."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import redis
import requests
from flask import Flask
from flask.testing import FlaskClient

from api.games.service import act
from api.games.store import GameNotFound, GameStore
from api.keys import events_key, game_key, notify_channel
from api.live.chat import chat_event
from api.live.notify import Subscriber
from engine import Action
from engine.replay import replay
from tests.api.helpers import HEARTS_DECK, assert_problem, bearer, two_humans, view
from tests.api.live.test_chat import chat, events
from tests.api.lobby_helpers import new_player, new_table

THREADS = 20


def _contiguous(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    """The whole log; its seqs are 1..last_seq, each once, and n matches the list."""
    page = events(client, game_id)
    assert [e["seq"] for e in page["events"]] == list(range(1, page["last_seq"] + 1))
    return list(page["events"])


def test_a_save_loaded_before_a_message_numbers_its_events_after_it(
        app: Flask, client: FlaskClient, redis_client: redis.Redis) -> None:
    game_id, tokens = two_humans(client, first_dealer=1)
    store: GameStore = app.extensions["sixtysix"].games
    loaded = store.load(game_id)  # a request that loaded the game, then a chat came in
    assert chat(client, game_id, tokens[1], "think fast").status_code == 201
    saved = act(store, loaded, 0, Action.from_text("close"),
                after_save=app.extensions["sixtysix"].after_save)
    assert saved.version == loaded.version + 1
    log = _contiguous(client, game_id)
    kinds = [e["type"] for e in log]
    assert kinds.index("chat") < kinds.index("close")
    assert [e.seq for e in saved.recent] == [e["seq"] for e in log[-len(saved.recent):]]
    assert int(redis_client.hget(game_key(game_id), "n") or 0) == redis_client.llen(
        events_key(game_id))
    assert view(client, game_id, tokens[0])["events"] == [
        e for e in log if e["seq"] in {r.seq for r in saved.recent}]


def test_concurrent_messages_get_distinct_numbers_and_leave_the_game_alone(
        live_url: str, redis_client: redis.Redis) -> None:
    session = requests.Session()
    created = session.post(f"{live_url}/v1/games", json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "deck": HEARTS_DECK, "first_dealer": 1}, timeout=10).json()
    game_id = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    state = redis_client.hget(game_key(game_id), "state")
    version = redis_client.hget(game_key(game_id), "v")
    start = threading.Barrier(THREADS)
    answers: list[requests.Response] = []
    lock = threading.Lock()

    def send(i: int) -> None:
        start.wait()
        response = requests.post(f"{live_url}/v1/games/{game_id}/chat", json={"text": f"m{i}"},
                                 headers=bearer(tokens[i % 2]), timeout=30)
        with lock:
            answers.append(response)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.status_code for r in answers] == [201] * THREADS
    seqs = sorted(r.json()["seq"] for r in answers)
    assert len(set(seqs)) == THREADS
    log = session.get(f"{live_url}/v1/games/{game_id}/events?limit=500", timeout=10).json()
    chats = [e for e in log["events"] if e["type"] == "chat"]
    assert sorted(e["seq"] for e in chats) == seqs
    assert sorted(e["text"] for e in chats) == sorted(f"m{i}" for i in range(THREADS))
    assert [e["seq"] for e in log["events"]] == list(range(1, log["last_seq"] + 1))
    assert redis_client.hget(game_key(game_id), "state") == state
    assert redis_client.hget(game_key(game_id), "v") == version


def test_messages_racing_an_action_lose_nothing(live_url: str, redis_client: redis.Redis,
                                                ) -> None:
    created = requests.post(f"{live_url}/v1/games", json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "deck": HEARTS_DECK, "first_dealer": 1}, timeout=10).json()
    game_id = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    start = threading.Barrier(THREADS + 1)
    codes: list[int] = []

    def send(i: int) -> None:
        start.wait()
        codes.append(requests.post(f"{live_url}/v1/games/{game_id}/chat",
                                   json={"text": f"m{i}"}, headers=bearer(tokens[1]),
                                   timeout=30).status_code)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    start.wait()
    acted = requests.post(f"{live_url}/v1/games/{game_id}/actions",
                          json={"type": "meld", "suit": "H"},
                          headers={**bearer(tokens[0]), "If-Match": '"1"'}, timeout=30)
    for thread in threads:
        thread.join()
    assert acted.status_code == 200, acted.text
    assert codes == [201] * THREADS
    log = requests.get(f"{live_url}/v1/games/{game_id}/events?limit=500", timeout=10).json()
    assert [e["seq"] for e in log["events"]] == list(range(1, log["last_seq"] + 1))
    assert sum(e["type"] == "chat" for e in log["events"]) == THREADS
    assert [e["type"] for e in log["events"]].count("meld") == 1
    assert int(redis_client.hget(game_key(game_id), "n") or 0) == log["last_seq"]


def test_a_message_publishes_the_unchanged_version_and_its_number(
        app: Flask, client: FlaskClient, redis_client: redis.Redis) -> None:
    game_id, tokens = two_humans(client)
    subscriber = Subscriber(redis_client)
    subscriber.add(notify_channel(game_id))
    assert subscriber.read() == ("subscribe", subscriber.own, "1")  # the listener's own
    assert (subscriber.read() or ("",))[0] in ("subscribe", "ssubscribe")  # confirmed
    sent = chat(client, game_id, tokens[0], "ping")
    assert sent.status_code == 201
    notice = subscriber.read()
    subscriber.close()
    assert notice is not None
    assert notice[2] == f"{view(client, game_id)['version']}:{sent.json['seq']}"


def test_the_store_logs_nothing_for_a_game_that_is_gone(app: Flask, client: FlaskClient,
                                                       redis_client: redis.Redis) -> None:
    game_id, _ = two_humans(client)
    store: GameStore = app.extensions["sixtysix"].games
    meta = store.meta(game_id)
    redis_client.delete(game_key(game_id), events_key(game_id))
    response = client.post(f"/v1/games/{game_id}/chat", json={"text": "anyone?"},
                           headers=bearer("x"))
    assert response.status_code == 404
    with pytest.raises(GameNotFound):
        store.chat(game_id, chat_event(meta, 0, "anyone?"), 10)
    assert not redis_client.exists(events_key(game_id))


def test_the_record_lists_the_chat_apart_and_replays_as_without_it(
        client: FlaskClient) -> None:
    records = []
    for talk in (True, False):
        game_id, tokens = two_humans(client, deck=HEARTS_DECK, first_dealer=1)
        sent = []
        if talk:
            sent.append(chat(client, game_id, tokens[1], "have fun").json)
        for seat, action in ((0, {"type": "meld", "suit": "H"}),
                             (0, {"type": "play", "card": "QH"})):
            assert client.post(f"/v1/games/{game_id}/actions", json=action,
                               headers=bearer(tokens[seat])).status_code == 200
            if talk:
                sent.append(chat(client, game_id, tokens[seat], "forty!").json)
        running = client.get(f"/v1/games/{game_id}/record", headers=bearer(tokens[0])).json
        assert running is not None
        assert running["chat"] == [{k: m[k] for k in ("seq", "seat", "text", "at")}
                                   for m in sent]
        assert client.post(f"/v1/games/{game_id}/actions", json={"type": "resign"},
                           headers=bearer(tokens[1])).status_code == 200
        record = client.get(f"/v1/games/{game_id}/record").json
        assert record is not None and record["chat"] == running["chat"]
        assert replay(record).actions == 3
        text = client.get(f"/v1/games/{game_id}/record?format=text").get_data(as_text=True)
        assert "forty" not in text
        records.append(record)
    talked, quiet = ({k: v for k, v in r.items() if k not in ("game_id", "chat")}
                     for r in records)
    assert talked == quiet
    assert len(records[0]["chat"]) == 3 and records[1]["chat"] == []


def test_a_private_tables_chat_and_record_need_its_invite_code(client: FlaskClient) -> None:
    _, bob = new_player(client, "Bob")
    private = new_table(client, bob, seats=[{"kind": "player"},
                                            {"kind": "computer", "level": "random"}],
                        visibility="private")
    game_id, code, seat_token = private["game_id"], private["invite_code"], private["you"]["token"]
    assert chat(client, game_id, seat_token, "secret plans").status_code == 201
    seen = client.get(f"/v1/games/{game_id}", headers=bearer(seat_token)).json
    assert seen is not None
    if not seen["legal_actions"]:  # the computer leads: let its worker move first
        client.get(f"/v1/games/{game_id}?after_version={seen['version']}&wait=10",
                   headers=bearer(seat_token))
    assert client.post(f"/v1/games/{game_id}/actions", json={"type": "resign"},
                       headers=bearer(seat_token)).status_code == 200
    for path in ("events", "record"):
        for query in ({}, {"invite_code": code[::-1]}):
            refused = client.get(f"/v1/games/{game_id}/{path}", query_string=query)
            assert_problem(refused, 404, "game-not-found")
            assert "secret plans" not in refused.get_data(as_text=True)
        seen = client.get(f"/v1/games/{game_id}/{path}", query_string={"invite_code": code})
        assert seen.status_code == 200 and "secret plans" in seen.get_data(as_text=True)
