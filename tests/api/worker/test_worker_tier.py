"""The worker tier through the real queue: RQ on the session's redis-server, the session's
worker processes (``python -m api.worker.run``), the API over a real socket."""

from __future__ import annotations

import time
from typing import Any

import redis
import requests
from rq.job import Job, JobStatus

from api.clients.client import SixtySixClient
from api.games.service import new_game_id, prepare_game, request_computers, save_created
from api.games.spec import GameSettings, GameSpec, SeatSpec
from api.games.store import GameStore
from api.worker.queue import MOVE_JOB, SERIALIZER, Shard, TaskQueue, move_job_id
from engine.replay import replay
from tests.api.helpers import DECK

GAME_OVER = ("match_over", "aborted")
ASYNC = {"Prefer": "respond-async"}


def _play_out(me: SixtySixClient, game_id: str, view: dict[str, Any]) -> dict[str, Any]:
    """Post the first legal action until the match is over; the last view."""
    for _ in range(400):
        if view["status"] in GAME_OVER:
            return view
        if not view["legal_actions"]:  # only after a wait that ran out: poll on
            view = me.view(game_id, after_version=view["version"], wait=10)
            continue
        view = me.act(game_id, view["legal_actions"][0], if_match=view["version"])
    raise AssertionError("the match did not end in 400 requests")


def _post(url: str, path: str, token: str | None, body: dict[str, Any],
          headers: dict[str, str] | None = None) -> requests.Response:
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.post(f"{url}{path}", json=body, headers={**auth, **(headers or {})},
                         timeout=30)


def _forehand_game(url: str, level: str) -> tuple[SixtySixClient, str, str]:
    """A game of :data:`DECK` where the human (seat 0) leads against a ``level`` computer:
    the client, the game id and the human's token."""
    client = SixtySixClient(url)
    game = client.create_game(seats=[{"kind": "human"}, {"kind": "computer", "level": level}],
                              deck=DECK, first_dealer=1)
    return client, game["game_id"], game["seats"][0]["token"]


def _replays(url: str, game_id: str) -> None:
    """The finished game's record replays through the engine to the same result (a move
    applied twice would make it differ: ReplayMismatch)."""
    record = requests.get(f"{url}/v1/games/{game_id}/record", timeout=10).json()
    assert replay(record).state.over


def test_whole_matches_against_computers_through_the_queue(live_url: str,
                                                           redis_client: redis.Redis) -> None:
    """In three-hand the human (seat 1) deals first and sits out: the create answers after
    the computers' whole first hand, the human to acknowledge it. That match is to 7: a hand
    gives at most 3, so it cannot end in a hand the human sat out before the human plays
    (to 3 it could, and then no action would be legal, rightly)."""
    client = SixtySixClient(live_url)
    for variant, seats, first_dealer, points in (
            ("sixty-six", [{"kind": "human"}, {"kind": "computer", "level": "normal"}], None,
             3),
            ("three-hand", [{"kind": "computer", "level": "easy"}, {"kind": "human"},
                            {"kind": "computer", "level": "random"}], 1, 7)):
        game = client.create_game(variant, seats, match_points=points,
                                  first_dealer=first_dealer)
        token = next(s["token"] for s in game["seats"] if s["token"])
        me = client.with_token(token)
        view = me.view(game["game_id"])
        assert view["legal_actions"]  # the create answered after the computers' openings
        if first_dealer is not None:  # ... and after the whole hand they played
            assert view["status"] == "hand_over" and view["hand_no"] == 1
            assert view["legal_actions"] == [{"type": "continue"}]
        last = _play_out(me, game["game_id"], view)
        assert last["status"] == "match_over" and last["match"]["winner"] is not None
        _replays(live_url, game["game_id"])
        # every computer move came from a worker and was saved by itself
        stored = GameStore(redis_client, 60).load(game["game_id"])
        assert stored.version == last["version"]


def test_respond_async_answers_before_the_computer_moves(live_url: str,
                                                         redis_client: redis.Redis) -> None:
    client, game_id, token = _forehand_game(live_url, "strong")
    answer = _post(live_url, f"/v1/games/{game_id}/actions", token,
                   {"type": "play", "card": "AC"}, ASYNC)
    assert answer.status_code == 200
    assert answer.headers["Preference-Applied"] == "respond-async"
    view = answer.json()
    # the view right after the human's own save: the computer is still to answer
    assert view["version"] == 2 and answer.headers["ETag"] == '"2"'
    assert view["to_act"] == 1 and view["legal_actions"] == []
    assert [e["type"] for e in view["events"]] == ["card_played"]
    later = client.with_token(token).view(game_id, after_version=2, wait=20)
    assert later["version"] > 2
    assert any(e["type"] == "card_played" and e["seat"] == 1 for e in later["events"])


def test_prefer_wait_bounds_the_wait_and_is_applied(live_url: str,
                                                    redis_client: redis.Redis) -> None:
    _, game_id, token = _forehand_game(live_url, "random")
    waited = _post(live_url, f"/v1/games/{game_id}/actions", token,
                   {"type": "play", "card": "AC"}, {"Prefer": "wait=20"})
    assert waited.status_code == 200 and waited.headers["Preference-Applied"] == "wait=20"
    view = waited.json()
    assert view["version"] > 2 and view["legal_actions"]  # the reply came within the bound
    kinds = [(e["type"], e.get("seat")) for e in view["events"]]
    assert kinds[:2] == [("card_played", 0), ("card_played", 1)]  # the human's and the reply
    zero = _post(live_url, f"/v1/games/{game_id}/actions", token,
                 view["legal_actions"][0], {"Prefer": "wait=0"})
    assert zero.headers["Preference-Applied"] == "wait=0"


def test_create_waits_for_the_computers_opening_moves(live_url: str,
                                                      redis_client: redis.Redis) -> None:
    body = {"seats": [{"kind": "computer", "level": "random"}, {"kind": "human"}],
            "deck": DECK, "first_dealer": 1}  # seat 0, the computer, leads
    created = _post(live_url, "/v1/games", None, body)
    assert created.status_code == 201 and created.json()["version"] > 1
    assert created.headers["ETag"] == f'"{created.json()["version"]}"'
    at_once = _post(live_url, "/v1/games", None, body, ASYNC)
    assert at_once.status_code == 201 and at_once.json()["version"] == 1
    assert at_once.headers["Preference-Applied"] == "respond-async"


def _result(queue: Shard, job_id: str) -> Any:
    return queue.result(job_id, wait=20)


def test_a_job_for_another_version_is_dropped(live_url: str, redis_client: redis.Redis,
                                              redis_server: Any) -> None:
    client, game_id, token = _forehand_game(live_url, "random")
    me = client.with_token(token)
    view = me.act(game_id, {"type": "play", "card": "AC"})
    assert view["legal_actions"]  # the human is to act at view["version"]
    queue = Shard(redis.Redis.from_url(redis_server.url))
    store = GameStore(redis_client, 60)
    before = store.load(game_id)
    for old in (1, 2, view["version"] - 1):  # redelivered or duplicated jobs of the past
        job = f"dup-{old}-{time.monotonic_ns()}"
        queue.moves.enqueue(MOVE_JOB, game_id, old, job_id=job)
        assert _result(queue, job) == "stale"
    queue.enqueue_move(game_id, view["version"])  # no computer is to move: nothing
    assert _result(queue, move_job_id(game_id, view["version"])) == "done"
    after = store.load(game_id)
    assert (after.version, after.event_count) == (before.version, before.event_count)


def test_duplicate_jobs_of_one_version_move_once(live_url: str, redis_client: redis.Redis,
                                                 redis_server: Any) -> None:
    """Two workers given the same move at once: one saves, the other's save is refused by
    the version check and it drops the job; the record replays (no move was doubled)."""
    _, game_id, token = _forehand_game(live_url, "strong")
    answer = _post(live_url, f"/v1/games/{game_id}/actions", token,
                   {"type": "play", "card": "AC"}, ASYNC).json()
    queue = Shard(redis.Redis.from_url(redis_server.url))
    jobs = [f"twin-{i}-{time.monotonic_ns()}" for i in range(3)]
    for job in jobs:
        queue.moves.enqueue(MOVE_JOB, game_id, answer["version"], job_id=job)
    results = sorted(_result(queue, job) for job in jobs)
    assert results.count("stale") >= 2 and set(results) <= {"done", "stale"}
    me = SixtySixClient(live_url, token)
    view = me.view(game_id)
    deadline = time.monotonic() + 30
    while not view["legal_actions"] and time.monotonic() < deadline:
        view = me.view(game_id, view["version"], wait=5)
    played = requests.get(f"{live_url}/v1/games/{game_id}/events?after=0",
                          headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    replies = [e for e in played["events"] if e["type"] == "card_played" and e["seat"] == 1]
    tricks = [e for e in played["events"] if e["type"] == "trick_won"]
    # the computer answered the trick once, and led at most once after winning it
    assert len(tricks) == 1 and len(replies) == 1 + (tricks[0]["seat"] == 1)


def test_a_delayed_job_runs_when_due(live_url: str, redis_client: redis.Redis,
                                     redis_server: Any) -> None:
    """``enqueue_in`` (what a clock's deadline move will use): the job waits in RQ's
    scheduled registry, then the pool's scheduler moves it to the queue and a worker plays."""
    spec = GameSpec(deck=tuple(DECK), first_dealer=1, settings=GameSettings(point_counter=True),
                    seats=(SeatSpec("computer", level="random"), SeatSpec("human")))
    new = prepare_game(spec)  # seat 0, the computer, leads: saved with no job enqueued
    store = GameStore(redis_client, 60)
    store.create("delayed", new.state, new.meta, new.events)
    queue = Shard(redis.Redis.from_url(redis_server.url))
    job_id = queue.enqueue_in(1.0, MOVE_JOB, "delayed", 1, job_id="delayed-move")
    job = Job.fetch(job_id, connection=queue.redis, serializer=SERIALIZER)
    assert job.get_status() == JobStatus.SCHEDULED
    assert _result(queue, job_id) == "done"
    assert store.version("delayed") > 1


def test_a_stored_game_of_a_level_no_longer_offered_loads_and_plays(
        live_url: str, redis_client: redis.Redis, redis_server: Any) -> None:
    """A game stored with an ``expert`` seat (offered until docs/strength.md showed it no
    stronger than ``strong``) reads with its level as stored, and its computer plays (as
    ``strong``, engine.ai.RETIRED)."""
    new = prepare_game(GameSpec(seats=(SeatSpec("human"), SeatSpec("computer", level="strong")),
                                first_dealer=0))
    new.meta["seats"][1]["level"] = "expert"  # as the game was stored before
    game = save_created(GameStore(redis_client, 60), new_game_id(), new)
    assert request_computers(TaskQueue(redis.Redis.from_url(redis_server.url)), game)
    me = SixtySixClient(live_url, new.tokens[0])
    view = me.view(game.game_id)
    deadline = time.monotonic() + 30
    while not view["legal_actions"] and time.monotonic() < deadline:
        view = me.view(game.game_id, view["version"], wait=5)
    assert view["legal_actions"] and view["version"] > game.version
    assert [s["level"] for s in view["seats"]] == [None, "expert"]
