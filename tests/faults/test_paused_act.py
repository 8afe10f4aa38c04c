"""Redis paused (SIGSTOP) at each step of a write: every answer must be true.

The redis-server of the test's own is stopped by a signal just before (or just after) one
command the request's thread sends (:class:`Trap`: a wrapper of the client's
``execute_command`` in this process, where :class:`~api.runtime.local.LocalServer` serves), and
held stopped until the answer arrives; then it goes on (SIGCONT) and the answer is compared
with what Redis holds:

* ``store-unavailable`` (retry later) must mean nothing was applied;
* a success must hold the saved version (Redis may hold later ones: the computers');
* ``outcome-unknown`` must be settled by the way its problem names: the same
  ``Idempotency-Key`` (applied once) or a fresh read.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from api.clients import lobby_terminal
from api.clients.client import SixtySixClient, TableView
from api.games.store import SAVE_SCRIPT
from api.http.examples_lobby import LOBBY_ERRORS, TABLE_ID
from api.keys import game_key
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from api.tables.store import _COMMIT
from tests.faults.integrity import logged_lines, stored_version
from tests.faults.play import TIMEOUT, UNLIMITED

#: Socket timeout of the server's Redis connections, seconds (the store's settle wait too).
REDIS_TIMEOUT = 0.5
SAVE_SHA = hashlib.sha1(SAVE_SCRIPT.encode()).hexdigest()
COMMIT_SHA = hashlib.sha1(_COMMIT.encode()).hexdigest()
#: The threads of werkzeug's threaded server, which answer the requests.
REQUEST_THREAD = "process_request_thread"
PROBLEM = "https://sixtysix.dev/problems/"


@dataclass
class Trap:
    """Stop Redis (``pid``) once, when a request's thread sends a command ``matches`` accepts:
    before it is sent, or with ``after`` once its answer is read; with ``resume_after``
    (seconds) let it go on that long after the stop."""

    pid: int
    matches: Callable[[tuple[Any, ...]], bool] = lambda args: False
    after: bool = False
    resume_after: float | None = None
    sprung: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def arm(self, matches: Callable[[tuple[Any, ...]], bool], *, after: bool = False,
            resume_after: float | None = None) -> None:
        self.matches, self.after, self.resume_after = matches, after, resume_after
        self.sprung.clear()

    def hit(self, args: tuple[Any, ...]) -> bool:
        if REQUEST_THREAD not in threading.current_thread().name:
            return False
        with self._lock:
            if self.sprung.is_set() or not self.matches(args):
                return False
            self.sprung.set()
            return True

    def stop(self) -> None:
        os.kill(self.pid, signal.SIGSTOP)
        if self.resume_after is not None:
            threading.Timer(self.resume_after, self.resume).start()

    def resume(self) -> None:
        os.kill(self.pid, signal.SIGCONT)


def command(name: str, first: str) -> Callable[[tuple[Any, ...]], bool]:
    """Commands named ``name`` whose first argument starts with ``first``."""
    return lambda args: (str(args[0]).upper() == name and len(args) > 1
                         and str(args[1]).startswith(first))


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis(tmp_path / "redis", appendonly=False) as server:
        yield server


@pytest.fixture
def admin(own_redis: EmbeddedRedis) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(own_redis.url)
    yield client
    client.close()


@pytest.fixture
def trap(admin: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> Iterator[Trap]:
    trap = Trap(int(admin.info("server")["process_id"]))
    original = redis.Redis.execute_command

    def execute_command(self: redis.Redis, *args: Any, **options: Any) -> Any:
        hit = trap.hit(args)
        if hit and not trap.after:
            trap.stop()
        try:
            out = original(self, *args, **options)
        except redis.exceptions.NoScriptError:
            if hit:  # a fresh Redis: the script is loaded and sent again, meet that one
                trap.sprung.clear()
            raise
        if hit and trap.after:
            trap.stop()
        return out

    original_pipeline = redis.client.Pipeline.execute

    def execute(self: redis.client.Pipeline, raise_on_error: bool = True) -> list[Any]:
        """A pipeline's commands go out together: met by any of them."""
        hit = any(trap.hit(args) for args, _ in self.command_stack)
        if hit and not trap.after:
            trap.stop()
        out = original_pipeline(self, raise_on_error)
        if hit and trap.after:
            trap.stop()
        return out

    monkeypatch.setattr(redis.Redis, "execute_command", execute_command)
    monkeypatch.setattr(redis.client.Pipeline, "execute", execute)
    try:
        yield trap
    finally:
        trap.resume()


@pytest.fixture
def url(own_redis: EmbeddedRedis) -> Iterator[str]:
    config = {**UNLIMITED, "SIXTYSIX_REDIS_TIMEOUT": REDIS_TIMEOUT}
    with LocalServer(own_redis.url, config) as server:
        yield server.url


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _paused(trap: Trap, send: Callable[[], requests.Response]) -> requests.Response:
    """``send``'s answer, Redis held stopped from the trap until it arrives; then resumed."""
    try:
        answer = send()
    finally:
        trap.resume()
    assert trap.sprung.is_set(), "the trap never met its command"
    return answer


def _kind(answer: requests.Response) -> str:
    if answer.ok:
        return "ok"
    assert answer.headers["Content-Type"] == "application/problem+json", answer.text
    kind = str(answer.json()["type"]).removeprefix(PROBLEM)
    assert kind in ("store-unavailable", "outcome-unknown"), answer.text
    assert ("Retry-After" in answer.headers) == (kind == "store-unavailable"), answer.headers
    return kind


def _played(admin: redis.Redis, game_id: str, seat: int, card: str) -> int:
    """How often the log holds ``seat`` playing ``card`` (once at most, if true)."""
    lines = [line for line in logged_lines(admin, game_id)
             if b'"card_played"' in line and f'"card":"{card}"'.encode() in line
             and f'"seat":{seat},'.encode() in line]
    return len(lines)


#: Where the act path is paused: (name, the trap's command, after it).
STEPS = [
    ("before-the-load", command("HGETALL", game_key("")[:-2]), False),
    ("between-load-and-save", command("HGET", "sixtysix:marks:"), False),
    ("during-the-save", command("EVALSHA", SAVE_SHA), False),
    ("while-waiting-for-replies", command("EVALSHA", SAVE_SHA), True),
]


@pytest.mark.parametrize(("step", "matches", "after"), STEPS, ids=[s[0] for s in STEPS])
def test_an_action_paused_at_each_step_is_answered_truly(
        url: str, admin: redis.Redis, trap: Trap, step: str,
        matches: Callable[[tuple[Any, ...]], bool], after: bool) -> None:
    with requests.Session() as session:
        created = session.post(f"{url}/v1/games", json={
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}],
            "first_dealer": 1}, timeout=TIMEOUT).json()  # Ann leads; the computer replies
        game_id, token = created["game_id"], created["seats"][0]["token"]
        view = session.get(f"{url}/v1/games/{game_id}", headers=_bearer(token),
                           timeout=TIMEOUT).json()
        before, move = view["version"], view["legal_actions"][0]
        assert move["type"] == "play"
        act = {"json": move, "timeout": TIMEOUT,
               "headers": {**_bearer(token), "Idempotency-Key": f"paused-{step}"}}
        trap.arm(matches, after=after)
        answer = _paused(trap, lambda: session.post(f"{url}/v1/games/{game_id}/actions",
                                                    **act))
        kind = _kind(answer)
        stored = stored_version(admin, game_id)
        if kind == "store-unavailable":  # nothing was applied: retry later
            assert stored == before, (step, answer.text)
            assert _played(admin, game_id, 0, move["card"]) == 0
        elif kind == "ok":
            assert answer.json()["version"] == before + 1, (step, answer.text)
            assert stored >= before + 1
        # whatever it said, the key's repeat tells (and makes) the truth: applied once
        again = session.post(f"{url}/v1/games/{game_id}/actions", **act)
        assert again.status_code == 200, (step, again.text)
        assert _played(admin, game_id, 0, move["card"]) == 1
        if kind == "ok":  # the first answer, again
            assert again.headers["Idempotent-Replayed"] == "true"
            assert again.json()["version"] == before + 1
        else:  # applied now (with the computer's replies), or the first answer
            assert again.json()["version"] >= before + 1
    expected = {"before-the-load": "store-unavailable",
                "between-load-and-save": "store-unavailable",
                "during-the-save": "outcome-unknown", "while-waiting-for-replies": "ok"}
    assert kind == expected[step], answer.text


@pytest.mark.parametrize("keyed", [False, True], ids=["no-key", "keyed"])
def test_a_creation_paused_while_the_computer_opens_is_answered_created(
        url: str, admin: redis.Redis, trap: Trap, keyed: bool) -> None:
    """The game is saved, then Redis stops while the answer waits for the computer's opening
    moves (and, with a key, before the key's record is stored): a 201 with the tokens."""
    headers = {"Idempotency-Key": "a-paused-creation-key-0001"} if keyed else {}
    trap.arm(command("EVALSHA", SAVE_SHA), after=True)
    answer = _paused(trap, lambda: requests.post(f"{url}/v1/games", json={
        "seats": [{"kind": "human"}, {"kind": "computer", "level": "random"}],
        "first_dealer": 0}, headers=headers, timeout=TIMEOUT))  # the computer leads
    assert answer.status_code == 201, answer.text
    created = answer.json()
    assert created["version"] == 1
    assert stored_version(admin, created["game_id"]) >= 1
    view = requests.get(f"{url}/v1/games/{created['game_id']}",
                        headers=_bearer(created["seats"][0]["token"]), timeout=TIMEOUT)
    assert view.status_code == 200, view.text
    if keyed:  # its record was not stored: the repeat finds the game by the key's marker
        again = requests.post(f"{url}/v1/games", json={
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "random"}],
            "first_dealer": 0}, headers=headers, timeout=TIMEOUT)
        assert again.status_code == 201, again.text
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.json()["game_id"] == created["game_id"]
        assert again.json()["seats"] == created["seats"]  # the tokens too
        assert len(admin.keys("sixtysix:game:*")) == 1


def _lobby_table(session: requests.Session, url: str) -> tuple[str, str, str]:
    """A table Ann opened with one open seat: its id and Ann's and Bob's player tokens."""
    tokens = []
    for name in ("Ann", "Bob"):
        made = session.post(f"{url}/v1/players", json={"name": name}, timeout=TIMEOUT)
        assert made.status_code == 201, made.text
        tokens.append(made.json()["token"])
    table = session.post(f"{url}/v1/tables", json={"seats": [{"kind": "player"},
                                                             {"kind": "open"}]},
                         headers=_bearer(tokens[0]), timeout=TIMEOUT)
    assert table.status_code == 201, table.text
    return table.json()["table_id"], tokens[0], tokens[1]


def _seated(session: requests.Session, url: str, table_id: str, token: str) -> bool:
    view = session.get(f"{url}/v1/tables/{table_id}", headers=_bearer(token), timeout=TIMEOUT)
    assert view.status_code == 200, view.text
    return view.json()["you"] is not None


@pytest.mark.parametrize("back_in_time", [False, True], ids=["held", "back-in-time"])
def test_a_join_paused_in_its_commit_is_answered_truly(
        url: str, admin: redis.Redis, trap: Trap, back_in_time: bool) -> None:
    with requests.Session() as session:
        table_id, _, bob = _lobby_table(session, url)
        # back in time: after the commit's timeout, within the store's settle wait
        trap.arm(command("EVALSHA", COMMIT_SHA),
                 resume_after=REDIS_TIMEOUT * 1.5 if back_in_time else None)
        answer = _paused(trap, lambda: session.post(
            f"{url}/v1/tables/{table_id}/join", json={}, headers=_bearer(bob),
            timeout=TIMEOUT))
        kind = _kind(answer)
        seated = _seated(session, url, table_id, bob)
        if kind == "store-unavailable":
            assert not seated, answer.text
        elif kind == "ok":
            assert seated
        else:
            assert answer.json() == _example("table_outcome_unknown", answer, table_id)
    # held, nothing is known; back in time, the store settles the commit itself (applied, or
    # fenced off before it ran), unless the machine is too slow for the settle wait: whatever
    # it says must be true (above)
    if not back_in_time:
        assert kind == "outcome-unknown", answer.text


def test_a_join_paused_after_its_commit_says_it_was_saved(
        url: str, trap: Trap) -> None:
    """The seat is taken (and the game started), then Redis stops before the answer is read:
    never "retry later" (a retry would be a 409: already seated)."""
    with requests.Session() as session:
        table_id, _, bob = _lobby_table(session, url)
        trap.arm(command("EVALSHA", COMMIT_SHA), after=True)
        answer = _paused(trap, lambda: session.post(
            f"{url}/v1/tables/{table_id}/join", json={}, headers=_bearer(bob),
            timeout=TIMEOUT))
        assert answer.status_code == 503, answer.text
        assert "Retry-After" not in answer.headers
        assert answer.json() == _example("saved_view_unavailable", answer, table_id)
        assert _seated(session, url, table_id, bob)


def _example(name: str, answer: requests.Response, table_id: str) -> dict[str, Any]:
    """The OpenAPI document's example ``name`` with this run's table id and request id."""
    text = json.dumps(LOBBY_ERRORS[name]).replace(TABLE_ID, table_id)
    return {**json.loads(text), "request_id": answer.json()["request_id"]}


def test_the_lobby_terminal_says_a_saved_join_may_be_done_and_reloads(
        url: str, trap: Trap) -> None:
    """The join is saved and its answer lost: the terminal neither fails nor repeats it; it
    says so and reads the table again, which holds the seat."""
    with requests.Session() as session:
        table_id, _, bob = _lobby_table(session, url)
    said: list[str] = []
    with SixtySixClient(url, token=bob) as me:

        def join() -> TableView:
            try:
                return me.join_table(table_id)
            finally:
                trap.resume()  # back for the reload

        trap.arm(command("EVALSHA", COMMIT_SHA), after=True)
        table = lobby_terminal._changed(me, join, None, said.append)
    assert trap.sprung.is_set()
    assert said == ["The server could not confirm that: it may have been done. Reloading the "
                    "table."]
    assert table["you"] is not None and table["you"]["seat"] == 1


def test_a_creation_of_unknown_outcome_is_settled_by_its_key(
        url: str, admin: redis.Redis, trap: Trap) -> None:
    """Redis stops as the creation is saved and stays stopped past the store's wait: the
    answer is outcome-unknown naming the game; once Redis is back the key's repeat answers
    that game, tokens included (it was created), or says the first is still under way (it
    was not): never a second game."""
    headers = {"Idempotency-Key": "an-unknown-creation-key-0001"}
    body = {"seats": [{"kind": "human"}, {"kind": "human"}]}
    trap.arm(command("EVALSHA", SAVE_SHA))
    answer = _paused(trap, lambda: requests.post(f"{url}/v1/games", json=body, headers=headers,
                                                 timeout=TIMEOUT))
    assert _kind(answer) == "outcome-unknown", answer.text
    game_id = answer.json()["game_id"]
    again = requests.post(f"{url}/v1/games", json=body, headers=headers, timeout=TIMEOUT)
    exists = bool(admin.exists(game_key(game_id)))
    assert len(admin.keys("sixtysix:game:*")) == int(exists)
    if not exists:
        assert again.status_code == 409, again.text
        assert again.json()["type"] == PROBLEM + "request-in-progress"
        return
    assert again.status_code == 201, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    created = again.json()
    assert created["game_id"] == game_id
    view = requests.get(f"{url}/v1/games/{game_id}",
                        headers=_bearer(created["seats"][0]["token"]), timeout=TIMEOUT)
    assert view.status_code == 200 and view.json()["seat"] == 0, view.text


@pytest.fixture
def clock_url(own_redis: EmbeddedRedis, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A server without workers (the request applies a passed deadline) and 1 s clocks."""
    monkeypatch.setenv("SIXTYSIX_MIN_THINK_TIME_S", "1")
    config = {**UNLIMITED, "SIXTYSIX_REDIS_TIMEOUT": REDIS_TIMEOUT}
    with LocalServer(own_redis.url, config, workers=0) as server:
        yield server.url


def test_an_action_behind_a_clock_save_of_unknown_outcome_is_not_applied(
        clock_url: str, admin: redis.Redis, trap: Trap) -> None:
    """The seat's time ran out: its action's request first saves the clock's forfeit, and
    that save's outcome is unknown. The action itself was never tried: store-unavailable
    (retry later), not outcome-unknown, and not applied."""
    url = clock_url
    created = requests.post(f"{url}/v1/games", json={
        "seats": [{"kind": "human"}, {"kind": "human"}], "first_dealer": 1,
        "settings": {"think_time_s": 1, "on_timeout": "forfeit"}}, timeout=TIMEOUT).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    view = requests.get(f"{url}/v1/games/{game_id}", headers=_bearer(token),
                        timeout=TIMEOUT).json()
    move = view["legal_actions"][0]
    time.sleep(view["clock"]["remaining_ms"] / 1000 + 0.2)  # seat 0's time runs out
    trap.arm(command("EVALSHA", SAVE_SHA))  # the request's first save: the clock's
    answer = _paused(trap, lambda: requests.post(
        f"{url}/v1/games/{game_id}/actions", json=move,
        headers={**_bearer(token), "Idempotency-Key": "behind-the-clock"}, timeout=TIMEOUT))
    assert _kind(answer) == "store-unavailable", answer.text
    assert _played(admin, game_id, 0, move["card"]) == 0
