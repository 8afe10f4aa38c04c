"""Server-Sent Events over real sockets: the app served by werkzeug in a thread on the session's
Redis (:class:`api.runtime.local.LocalServer`), read with ``requests`` as a client would."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import requests

from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import HEARTS_DECK
from tests.api.sse import DEADLINE, Message, Sse

HEARTBEAT = 0.2
WINDOW = 1.0


@pytest.fixture(scope="module")
def url(redis_server: EmbeddedRedis) -> Iterator[str]:
    with LocalServer(redis_server.url, {"SIXTYSIX_STREAM_HEARTBEAT": HEARTBEAT,
                                        "SIXTYSIX_PRESENCE_WINDOW": WINDOW}) as server:
        yield server.url


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _open(url: str, game_id: str, headers: dict[str, str] | None = None,
          query: str = "") -> Sse:
    return Sse(requests.get(f"{url}/v1/games/{game_id}/stream{query}", headers=headers,
                            stream=True, timeout=(5, 5)))


def _game(url: str) -> tuple[str, list[str]]:
    """Ann (seat 0, forehand: KH QH AS TS 9C JC) and Bob; hearts are trump."""
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            "deck": HEARTS_DECK, "first_dealer": 1}
    created = requests.post(f"{url}/v1/games", json=body, timeout=5).json()
    return created["game_id"], [s["token"] for s in created["seats"]]


def _act(url: str, game_id: str, token: str, action: dict[str, Any]) -> dict[str, Any]:
    response = requests.post(f"{url}/v1/games/{game_id}/actions", json=action,
                             headers=_bearer(token), timeout=5)
    assert response.status_code == 200, response.text
    out: dict[str, Any] = response.json()
    return out


def _view(url: str, game_id: str, token: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = requests.get(f"{url}/v1/games/{game_id}", timeout=5,
                                       headers=_bearer(token) if token else {}).json()
    return out


def _events(url: str, game_id: str, token: str | None, after: int = 0) -> list[dict[str, Any]]:
    page = requests.get(f"{url}/v1/games/{game_id}/events?after={after}&limit=500", timeout=5,
                        headers=_bearer(token) if token else {}).json()
    out: list[dict[str, Any]] = page["events"]
    return out


def _play_some(url: str, game_id: str, tokens: list[str], moves: int) -> None:
    """``moves`` actions, each the first legal non-declaring one of the seat to act."""
    for _ in range(moves):
        views = [_view(url, game_id, t) for t in tokens]
        seat = next(i for i, v in enumerate(views) if v["legal_actions"])
        legal = [a for a in views[seat]["legal_actions"] if a["type"] != "declare"]
        _act(url, game_id, tokens[seat], legal[0])


def _refused(url: str, headers: dict[str, str] | None = None) -> requests.Response:
    """A GET that must be refused; if it streams instead, it fails rather than reading on."""
    response = requests.get(url, headers=headers, stream=True, timeout=5)
    if response.headers.get("Content-Type", "").startswith("text/event-stream"):
        response.close()
        raise AssertionError(f"{url} streamed instead of refusing")
    return response


def _unauthorized(response: requests.Response) -> None:
    assert response.status_code == 401, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["type"] == "https://sixtysix.dev/problems/unauthorized"


def test_the_first_event_is_the_view_then_each_change_its_events_and_the_view(
        url: str, redis_client: redis.Redis) -> None:
    game_id, tokens = _game(url)
    bob = _open(url, game_id, _bearer(tokens[1]))
    try:
        first = bob.next()
        assert first.event == "view" and first.id is None
        assert first.data["seat"] == 1 and first.data["version"] == 1
        known = first.data["events"][-1]["seq"]
        _act(url, game_id, tokens[0], {"type": "meld", "suit": "H"})
        _act(url, game_id, tokens[0], {"type": "play", "card": "QH"})
        got: list[Message] = []
        while not got or got[-1].event != "view" or got[-1].data["version"] < 3:
            got += bob.until("view")  # one chunk per save, or one for both
        events = [m for m in got if m.event == "game_event"]
        for i, message in enumerate(got):  # a view follows the events of its save
            if message.event == "view":
                before = [m.id for m in got[:i] if m.event == "game_event"]
                assert before and before[-1] == message.data["events"][-1]["seq"]
        ids = [m.id for m in events]
        assert ids == list(range(known + 1, known + 1 + len(ids)))
        assert all(m.data["seq"] == m.id for m in events)
        assert [m.data["type"] for m in events][:2] == ["meld", "card_played"]
        assert got[-1].event == "view" and got[-1].data["version"] == 3
        assert got[-1].data["trick"] == [{"seat": 0, "card": "QH"}]
        assert [m.data for m in events] == _events(url, game_id, tokens[1], known)
    finally:
        bob.close()


def test_a_resumed_stream_loses_nothing_and_repeats_nothing(url: str,
                                                            redis_client: redis.Redis) -> None:
    game_id, tokens = _game(url)
    _play_some(url, game_id, tokens, 3)
    ann = _open(url, game_id, _bearer(tokens[0]), "?after=2")
    seen: list[int] = []
    try:
        first = ann.next()
        assert first.event == "view"
        last_seq = first.data["events"][-1]["seq"]
        while not seen or seen[-1] < last_seq:  # the events after 2, up to the view
            message = ann.next()
            assert message.event == "game_event"
            seen.append(message.id)  # type: ignore[arg-type]
        _play_some(url, game_id, tokens, 2)
        for message in ann.until("view"):
            if message.event == "game_event":
                seen.append(message.id)  # type: ignore[arg-type]
    finally:
        ann.close()  # a forced disconnect; the game goes on meanwhile
    _play_some(url, game_id, tokens, 3)
    # EventSource sends the last id it got; the URL keeps its old ?after=, which loses
    resumed = _open(url, game_id, {**_bearer(tokens[0]), "Last-Event-ID": str(seen[-1])},
                    "?after=2")
    try:
        first = resumed.next()
        assert first.event == "view"
        final = first.data["events"][-1]["seq"]
        while seen[-1] < final:
            message = resumed.next()
            assert message.event == "game_event"
            seen.append(message.id)  # type: ignore[arg-type]
    finally:
        resumed.close()
    assert seen == list(range(3, final + 1))
    assert final == _events(url, game_id, tokens[0])[-1]["seq"]


def test_a_seat_stream_carries_only_what_the_seat_may_see(url: str,
                                                          redis_client: redis.Redis) -> None:
    game_id, tokens = _game(url)
    ann = _open(url, game_id, _bearer(tokens[0]), "?after=0")
    try:
        got = [ann.next() for _ in range(1 + len(_events(url, game_id, tokens[0])))]
    finally:
        ann.close()
    assert [m.data for m in got[1:]] == _events(url, game_id, tokens[0])
    text = ann.raw.decode()
    bob_hand = _view(url, game_id, tokens[1])["hand"]
    assert bob_hand and not any(f'"{card}"' in text for card in bob_hand)
    assert tokens[0] not in text and tokens[1] not in text


def test_a_spectator_streams_a_public_game_and_no_hand(url: str,
                                                       redis_client: redis.Redis) -> None:
    game_id, tokens = _game(url)
    watcher = _open(url, game_id)
    try:
        first = watcher.next()
        assert first.data["seat"] is None and first.data["hand"] is None
        _act(url, game_id, tokens[0], {"type": "play", "card": "JC"})
        got = watcher.until("view")
    finally:
        watcher.close()
    hands = {c for t in tokens for c in _view(url, game_id, t)["hand"]}
    assert not any(f'"{card}"' in watcher.raw.decode() for card in hands)
    assert [m.data for m in got if m.event == "game_event"] == _events(
        url, game_id, None, first.data["events"][-1]["seq"])


def test_refusals_are_problems_before_the_stream_starts(url: str,
                                                        redis_client: redis.Redis) -> None:
    game_id, tokens = _game(url)
    other_id, other_tokens = _game(url)
    stream = f"{url}/v1/games/{game_id}/stream"
    _unauthorized(_refused(stream, _bearer(other_tokens[0])))
    _unauthorized(_refused(stream, {"Authorization": "Basic x"}))
    _unauthorized(_refused(f"{stream}?ticket=nonsense"))
    ticket = requests.post(f"{url}/v1/games/{game_id}/stream-ticket", headers=_bearer(tokens[1]),
                           timeout=5).json()
    assert ticket["expires_in"] == 60 and tokens[1] not in ticket["ticket"]
    # a ticket opens its own game's stream only
    _unauthorized(_refused(f"{url}/v1/games/{other_id}/stream?ticket={ticket['ticket']}"))
    bob = _open(url, game_id, query=f"?ticket={ticket['ticket']}")
    try:
        assert bob.next().data["seat"] == 1
    finally:
        bob.close()
    _unauthorized(_refused(f"{stream}?ticket={ticket['ticket']}"))  # used up
    _unauthorized(requests.post(f"{url}/v1/games/{game_id}/stream-ticket", timeout=5))
    bad = _refused(stream, {"Last-Event-ID": "x"})
    assert bad.status_code == 422 and "Last-Event-ID" in bad.json()["detail"]
    assert _refused(f"{url}/v1/games/nope/stream").status_code == 404


def test_heartbeat_comments_flow(url: str, redis_client: redis.Redis) -> None:
    game_id, _ = _game(url)
    watcher = _open(url, game_id)
    try:
        assert watcher.next().event == "view"
        assert [watcher.next().comment for _ in range(3)] == ["heartbeat"] * 3
    finally:
        watcher.close()


def _connected(url: str, game_id: str) -> list[bool]:
    return [s["connected"] for s in _view(url, game_id)["seats"]]


def _wait_for(url: str, game_id: str, wanted: list[bool]) -> None:
    deadline = time.monotonic() + DEADLINE
    while _connected(url, game_id) != wanted:
        assert time.monotonic() < deadline, f"presence never became {wanted}"
        time.sleep(0.05)


def test_a_seat_is_connected_while_its_stream_is_open_and_not_a_window_after(
        url: str, redis_client: redis.Redis) -> None:
    game_id, tokens = _game(url)
    assert _connected(url, game_id) == [False, False]
    bob = _open(url, game_id, _bearer(tokens[1]))
    ann = _open(url, game_id, _bearer(tokens[0]))
    try:
        bob.next()
        ann.next()
        assert _connected(url, game_id) == [True, True]
        # Bob's stream says so when Ann's presence changes, with no save
        presence = bob.until("presence")[-1]
        assert [s["connected"] for s in presence.data["seats"]] == [True, True]
        time.sleep(3 * WINDOW)  # longer than the window: the open stream keeps it fresh
        assert _connected(url, game_id) == [True, True]
        ann.close()
        _wait_for(url, game_id, [False, True])
        presence = bob.until("presence")[-1]
        assert [s["connected"] for s in presence.data["seats"]] == [False, True]
    finally:
        ann.close()
        bob.close()
    _wait_for(url, game_id, [False, False])
    requests.get(f"{url}/v1/games/{game_id}/events", headers=_bearer(tokens[0]), timeout=5)
    assert _connected(url, game_id) == [True, False]  # a request with the token counts too


def test_a_table_stream_shows_the_seats_filling_and_the_game_starting(
        url: str, redis_client: redis.Redis) -> None:
    players = [requests.post(f"{url}/v1/players", json={"name": name}, timeout=5).json()
               for name in ("Ann", "Bob")]
    table = requests.post(f"{url}/v1/tables", headers=_bearer(players[0]["token"]), timeout=5,
                          json={"variant": "sixty-six", "visibility": "public",
                                "seats": [{"kind": "player"}, {"kind": "open"}]}).json()
    watcher = Sse(requests.get(f"{url}/v1/tables/{table['table_id']}/stream", stream=True,
                               timeout=(5, 5)))
    try:
        first = watcher.next()
        assert first.event == "table" and first.id == table["version"]
        assert first.data["status"] == "open" and first.data["you"] is None
        requests.post(f"{url}/v1/tables/{table['table_id']}/join", json={}, timeout=5,
                      headers=_bearer(players[1]["token"])).raise_for_status()
        started = watcher.until("table")[-1]
    finally:
        watcher.close()
    assert started.id == table["version"] + 1
    assert started.data["status"] == "playing" and started.data["game_id"]
    assert started.data["seats"][1]["name"] == "Bob"
    assert players[0]["token"] not in watcher.raw.decode()
    missing = _refused(f"{url}/v1/tables/nosuchtable0/stream")
    assert missing.status_code == 404
    assert missing.headers["Content-Type"] == "application/problem+json"


def test_a_private_tables_game_streams_to_spectators_with_its_invite_code_only(
        url: str, redis_client: redis.Redis) -> None:
    ann = requests.post(f"{url}/v1/players", json={"name": "Ann"}, timeout=5).json()
    table = requests.post(f"{url}/v1/tables", headers=_bearer(ann["token"]), timeout=5, json={
        "variant": "sixty-six", "visibility": "private",
        "seats": [{"kind": "player"}, {"kind": "computer", "level": "random"}]}).json()
    assert table["status"] == "playing"
    stream = f"{url}/v1/games/{table['game_id']}/stream"
    hidden = _refused(stream)
    assert hidden.status_code == 404
    assert hidden.headers["Content-Type"] == "application/problem+json"
    assert _refused(f"{stream}?invite_code=wrong").status_code == 404
    watcher = _open(url, table["game_id"], query=f"?invite_code={table['invite_code']}")
    try:
        first = watcher.next()
    finally:
        watcher.close()
    assert first.event == "view" and first.data["seat"] is None and first.data["hand"] is None


@pytest.mark.parametrize("setting", ["SIXTYSIX_STREAM_HEARTBEAT", "SIXTYSIX_PRESENCE_WINDOW"])
def test_a_heartbeat_or_presence_window_of_no_time_is_refused_at_start(
        redis_server: EmbeddedRedis, setting: str) -> None:
    from api.app import create_app

    with pytest.raises(ValueError, match="positive"):
        create_app({"REDIS_URL": redis_server.url, setting: 0})


def test_a_chat_message_reaches_the_streams_at_once_without_a_move(url: str) -> None:
    """A chat message leaves the version alone; its notice still wakes every stream of the
    game, which sends the message (with its ``seq`` as id) and the unchanged view."""
    game_id, tokens = _game(url)
    bob, spectator = _open(url, game_id, _bearer(tokens[1])), _open(url, game_id)
    try:
        for stream in (bob, spectator):
            assert stream.next().event == "view"
        sent = requests.post(f"{url}/v1/games/{game_id}/chat", json={"text": "good luck"},
                             headers=_bearer(tokens[0]), timeout=5)
        assert sent.status_code == 201, sent.text
        for stream in (bob, spectator):
            got = stream.until("view")
            chats = [m for m in got if m.event == "game_event"]
            assert [(m.data["type"], m.data["text"], m.id) for m in chats] == [
                ("chat", "good luck", sent.json()["seq"])]
            assert got[-1].data["version"] == 1
    finally:
        bob.close()
        spectator.close()
