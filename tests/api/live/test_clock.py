"""Clocks (issue 16 L item 4) through the real queue: RQ's scheduler and the session's
worker processes run the delayed clock jobs; think, reading and pause times are shortened
with the test-only lower bound (``SIXTYSIX_MIN_THINK_TIME_S``) and their settings."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from rq.job import Job

from api.games.store import Game, GameStore
from api.live.clock import clock_job_id
from api.worker.queue import SERIALIZER, Shard, TaskQueue
from engine.replay import replay
from tests.api.helpers import DECK, act, assert_problem, bearer, create, view
from tests.api.lobby_helpers import new_player, new_table, table
from tests.waiting import PATIENCE, until

VS_COMPUTER = [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}]
TWO_HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture(autouse=True)
def short_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Think times down to 1 s, reading 1 s and a pause 3 s (for the games created here)."""
    monkeypatch.setenv("SIXTYSIX_MIN_THINK_TIME_S", "1")
    monkeypatch.setenv("SIXTYSIX_READING_S", "1")
    monkeypatch.setenv("SIXTYSIX_PAUSE_S", "3")


@pytest.fixture
def store(redis_client: redis.Redis) -> GameStore:
    return GameStore(redis_client, 600)


@pytest.fixture
def queue(redis_client: redis.Redis) -> Iterator[TaskQueue]:
    yield TaskQueue(redis_client)


def _game(client: FlaskClient, seats: list[dict[str, Any]], **settings: Any,
          ) -> tuple[str, list[str]]:
    """A game of :data:`DECK` where seat 0 leads, with a clock: its id and tokens."""
    made = create(client, seats=seats, deck=DECK, first_dealer=1,
                  settings={"think_time_s": 1, **settings})
    return made["game_id"], [s["token"] for s in made["seats"] if s["token"]]


def _events(store: GameStore, game_id: str) -> list[dict[str, Any]]:
    game = store.load(game_id)
    return [{"type": lg.event.type, **lg.event.data} for lg in store.all_events(game)]


#: Games tried for one whose clock job is taken away before the scheduler enqueues it.
TRIES = 5


def _lose_clock_job(store: GameStore, redis_client: redis.Redis, game_id: str) -> Game | None:
    """Take the game's clock job out of the schedule and wait past its deadline: the game,
    which only a request (or a sweep) can now move on. ``None`` when the session's scheduler
    enqueued the job first (it may, up to 1 s before a deadline 2 s off: a loaded machine)."""
    game = store.load(game_id)
    job_id = clock_job_id(game_id, game.version)  # scheduled just after the save: wait for it
    until(lambda: redis_client.exists(Job.key_for(job_id)), f"clock job {job_id}")
    if not redis_client.zrem(Shard(redis_client).moves.scheduled_job_registry.key, job_id):
        return None
    Job.fetch(job_id, connection=redis_client, serializer=SERIALIZER).delete()
    time.sleep(max(0.0, game.meta["clock"]["deadline"] - time.time()) + 0.1)
    assert store.load(game_id).version == game.version  # no job: nothing happened
    return game


def _overdue(client: FlaskClient, store: GameStore, redis_client: redis.Redis,
             **settings: Any) -> tuple[str, str, Game]:
    """A game against the computer whose clock job was lost (deleted) and whose deadline
    has passed, so that only a request can apply it: its id, Ann's token, the game."""
    for _ in range(TRIES):
        game_id, (ann,) = _game(client, VS_COMPUTER, **settings)
        lost = _lose_clock_job(store, redis_client, game_id)
        if lost is not None:
            return game_id, ann, lost
    raise AssertionError(f"the scheduler enqueued the clock job of each of {TRIES} games first")


def test_the_view_shows_the_clock_and_none_without_one(client: FlaskClient) -> None:
    game_id, (ann,) = _game(client, VS_COMPUTER, think_time_s=30)
    seen = view(client, game_id, ann)
    clock = seen["clock"]
    assert clock["for"] == "move" and clock["seat"] == 0 and clock["think_time_s"] == 30
    assert clock["on_timeout"] == "computer" and clock["timeout_level"] == "normal"
    deadline = datetime.fromisoformat(clock["deadline"])
    assert deadline.utcoffset() is not None and deadline.utcoffset().total_seconds() == 0
    assert 0 < clock["remaining_ms"] <= 30_000
    assert clock["can_pause"] is False and clock["expiries"] == [0, 0]
    assert seen["settings"]["think_time_s"] == 30
    plain = create(client, seats=VS_COMPUTER)
    assert view(client, plain["game_id"], plain["seats"][0]["token"])["clock"] is None


@pytest.mark.parametrize(("settings", "field"), [
    ({"think_time_s": 0}, "settings.think_time_s"),
    ({"think_time_s": 121}, "settings.think_time_s"),
    ({"think_time_s": "30"}, "settings.think_time_s"),
    ({"think_time_s": 10, "on_timeout": "wait"}, "settings.on_timeout"),
    ({"think_time_s": 10, "timeout_level": "grandmaster"}, "settings.timeout_level"),
])
def test_bad_clock_settings_are_422_naming_the_field(client: FlaskClient,
                                                     settings: dict[str, Any],
                                                     field: str) -> None:
    body = assert_problem(client.post("/v1/games", json={"seats": VS_COMPUTER,
                                                         "settings": settings}),
                          422, "validation-error")
    assert field in str(body)


def test_the_lower_bound_is_ten_seconds_by_default(client: FlaskClient,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIXTYSIX_MIN_THINK_TIME_S")
    assert_problem(client.post("/v1/games", json={"settings": {"think_time_s": 9}}), 422,
                   "validation-error")
    create(client, settings={"think_time_s": 10})


def test_with_no_request_a_computer_moves_for_the_absent_seat(
        client: FlaskClient, store: GameStore) -> None:
    game_id, _ = _game(client, VS_COMPUTER, timeout_level="random")

    def moved() -> list[dict[str, Any]]:
        return [e for e in _events(store, game_id) if e.get("timeout")]

    timed = until(moved, "timeout move")
    assert timed[0]["type"] in ("card_played", "meld", "close", "exchange")
    assert timed[0]["seat"] == 0
    game = until(lambda: (g := store.load(game_id)).meta["clock"]["seat"] == 0 and g,
                  "computer's reply")  # the computer answered: Ann to act, timed again
    assert game.meta["clock"]["expiries"][0] >= 1


def test_with_no_request_the_forfeit_loses_the_hand_and_the_settlement_moves_on(
        client: FlaskClient, store: GameStore) -> None:
    game_id, _ = _game(client, VS_COMPUTER, on_timeout="forfeit")
    settled = until(lambda: [e for e in _events(store, game_id)
                              if e["type"] == "hand_settled"], "settlement")
    settlement = settled[0]["settlement"]
    assert settlement["reason"] == "timeout" and settlement["timed_out"] == 0
    assert settlement["winners"] == [1] and settlement["game_points"] == 3
    kinds = [(e["type"], e.get("timeout")) for e in _events(store, game_id)]
    assert ("timeout", True) in kinds
    # the reading time ran out too: Ann was continued for, and the next hand dealt
    until(lambda: store.load(game_id).state.hand_no == 2, "next hand")
    assert ("continue", True) in [(e["type"], e.get("timeout"))
                                  for e in _events(store, game_id)]


def test_a_get_after_the_deadline_applies_the_forfeit(client: FlaskClient, store: GameStore,
                                                      redis_client: redis.Redis) -> None:
    game_id, ann, game = _overdue(client, store, redis_client, on_timeout="forfeit")
    seen = view(client, game_id, ann)
    assert seen["version"] > game.version
    assert seen["settlement"]["reason"] == "timeout"
    assert seen["status"] == "hand_over" and seen["clock"]["for"] == "settlement"


def test_a_get_after_the_deadline_has_the_computer_move_made_by_a_worker(
        client: FlaskClient, store: GameStore, redis_client: redis.Redis) -> None:
    game_id, ann, game = _overdue(client, store, redis_client, timeout_level="random")
    seen = view(client, game_id, ann)
    assert seen["version"] > game.version
    assert any(e.get("timeout") for e in _events(store, game_id))


def test_an_action_after_the_deadline_is_refused_once_the_timeout_is_applied(
        client: FlaskClient, store: GameStore, redis_client: redis.Redis) -> None:
    game_id, ann, _ = _overdue(client, store, redis_client, on_timeout="forfeit")
    body = assert_problem(act(client, game_id, ann, {"type": "play", "card": DECK[0]}), 409,
                          "illegal-action")
    assert body["legal_actions"] == [{"type": "continue"}]


def test_stale_and_duplicate_clock_jobs_are_no_ops(client: FlaskClient, store: GameStore,
                                                   queue: TaskQueue) -> None:
    game_id, (ann,) = _game(client, VS_COMPUTER, think_time_s=30)
    first = store.load(game_id)
    moved = act(client, game_id, ann, view(client, game_id, ann)["legal_actions"][0]).json
    assert moved is not None and moved["version"] > first.version
    now = store.load(game_id)
    # the job of the first version, run now (as a redelivery would): dropped
    stale = queue.enqueue_at(datetime.now().astimezone(), "api.worker.jobs.clock_expired",
                             game_id, first.version, job_id="stale-clock-job")
    assert queue.result(stale, PATIENCE) == "stale"
    # the job of the current version, run before its deadline and twice: nothing applied
    for n in range(2):
        early = queue.enqueue_at(datetime.now().astimezone(),
                                 "api.worker.jobs.clock_expired", game_id, now.version,
                                 job_id=f"early-clock-job-{n}")
        assert queue.result(early, PATIENCE) == "stale"
    assert store.load(game_id).version == now.version
    assert not any(e.get("timeout") for e in _events(store, game_id))


def test_three_expiries_in_a_row_forfeit_the_match_and_the_record_replays(
        client: FlaskClient, store: GameStore) -> None:
    game_id, (ann,) = _game(client, VS_COMPUTER, timeout_level="random")
    until(lambda: store.load(game_id).state.over, "forfeited match", patience=60)
    seen = view(client, game_id, ann)
    assert seen["status"] == "match_over"
    assert seen["match"]["result_reason"] == "timeout"
    assert seen["match"]["timed_out_by"] == 0 and seen["match"]["winner"] == 1
    assert seen["clock"]["deadline"] is None
    record = client.get(f"/v1/games/{game_id}/record").json
    assert record is not None and record["clock"]["think_time_s"] == 1
    actions = [a for h in record["hands"] for a in h["actions"]]
    marked = [a for a in actions if a.get("timeout")]
    assert [a["seat"] for a in marked if a["type"] != "continue"] == [0, 0, 0]
    assert marked[-1]["type"] == "forfeit"
    assert record["result"]["reason"] == "timeout" and record["result"]["by"] == 0
    assert replay(record).state.ended == ("timeout", 0)


def test_a_move_of_the_seat_ends_its_run_of_expiries(client: FlaskClient,
                                                     store: GameStore) -> None:
    game_id, (ann,) = _game(client, VS_COMPUTER, timeout_level="random", think_time_s=3)
    until(lambda: store.load(game_id).meta["clock"]["expiries"][0] == 1, "first expiry")
    game = until(lambda: (g := store.load(game_id)).meta["clock"]["seat"] == 0 and (
        g.meta["clock"]["expiries"][0] == 1) and g, "Ann to act after it")
    seen = view(client, game_id, ann)
    if seen["version"] != game.version or not seen["legal_actions"]:
        pytest.fail("the clock ran out again before the test could move")
    act(client, game_id, ann, seen["legal_actions"][0])
    assert store.load(game_id).meta["clock"]["expiries"][0] == 0


def test_pause_holds_the_settlement_longer_once_per_hand(client: FlaskClient,
                                                         store: GameStore) -> None:
    game_id, (ann, bob) = _game(client, TWO_HUMANS, on_timeout="forfeit", think_time_s=5)
    lead = view(client, game_id, ann)["legal_actions"][0]
    assert act(client, game_id, ann, lead).status_code == 200  # Bob runs out of time
    until(lambda: store.load(game_id).state.status == "hand_over", "Bob's forfeit")
    held = store.load(game_id).meta["clock"]
    assert held["kind"] == "settlement"
    seen = view(client, game_id, ann)
    assert seen["clock"]["can_pause"] is True and seen["clock"]["for"] == "settlement"
    paused = act(client, game_id, ann, {"type": "pause"})
    assert paused.status_code == 200, paused.json
    after = store.load(game_id).meta["clock"]
    assert after["deadline"] == pytest.approx(held["deadline"] + 3)
    assert paused.json is not None and paused.json["clock"]["can_pause"] is False
    assert paused.json["events"][0]["type"] == "paused"
    assert_problem(act(client, game_id, ann, {"type": "pause"}), 409, "illegal-action")
    # Bob continues; the settlement stays open for Ann until the held deadline
    assert act(client, game_id, bob, {"type": "continue"}).status_code == 200
    assert store.load(game_id).meta["clock"]["deadline"] == after["deadline"]
    assert store.load(game_id).state.status == "hand_over"
    assert_problem(act(client, game_id, bob, {"type": "pause"}), 409, "illegal-action")
    until(lambda: store.load(game_id).state.hand_no == 2, "next hand")
    continued = [e for e in _events(store, game_id) if e["type"] == "continue"]
    assert [(e["seat"], e.get("timeout")) for e in continued] == [(1, None), (0, True)]


def test_pause_without_a_clock_is_refused(client: FlaskClient) -> None:
    made = create(client, seats=TWO_HUMANS)
    body = assert_problem(act(client, made["game_id"], made["seats"][0]["token"],
                              {"type": "pause"}), 409, "illegal-action")
    assert "no clock" in body["detail"]


def test_a_table_with_a_clock_starts_its_game_with_one(client: FlaskClient,
                                                       store: GameStore) -> None:
    _, ann = new_player(client, "Ann")
    made = new_table(client, ann, seats=[{"kind": "player"},
                                         {"kind": "computer", "level": "random"}],
                     settings={"think_time_s": 20, "on_timeout": "forfeit"})
    assert made["settings"]["think_time_s"] == 20
    seen = view(client, made["game_id"], made["you"]["token"])
    if not seen["legal_actions"]:  # the computer leads: Ann's clock starts after its move
        seen = until(lambda: (v := view(client, made["game_id"], made["you"]["token"]))[
            "legal_actions"] and v, "Ann to act")
    assert seen["clock"]["on_timeout"] == "forfeit" and seen["clock"]["seat"] == 0
    assert 0 < seen["clock"]["remaining_ms"] <= 20_000
    game = store.load(made["game_id"])
    assert game.meta["clock"]["deadline"] is not None
    # its job is scheduled, whoever leads (a human leading: by the join that started it)
    Job.fetch(clock_job_id(game.game_id, game.version), connection=store.redis,
              serializer=SERIALIZER)


def test_the_rules_list_the_clock_settings(client: FlaskClient) -> None:
    rules = client.get("/v1/rules").json
    assert rules is not None
    by_name = {s["name"]: s for s in rules["settings"]}
    assert by_name["think_time_s"]["allowed"] == {"min": 1, "max": 120, "or": None}
    assert by_name["on_timeout"]["allowed"] == ["computer", "forfeit"]
    assert by_name["timeout_level"]["default"] == "normal"


def test_events_and_record_after_the_deadline_apply_it(client: FlaskClient, store: GameStore,
                                                       redis_client: redis.Redis) -> None:
    for path in ("events", "record"):
        game_id, ann, _ = _overdue(client, store, redis_client, on_timeout="forfeit")
        answer = client.get(f"/v1/games/{game_id}/{path}", headers={
            "Authorization": f"Bearer {ann}"})
        assert answer.status_code == 200
        assert "timeout" in answer.get_data(as_text=True)
        assert store.load(game_id).state.settlement is not None


def _touch(client: FlaskClient, game_id: str, token: str, what: str) -> None:
    """One request of kind ``what`` touching the game, as Ann; asserts its answer."""
    auth = bearer(token)
    if what == "stream":
        response = client.get(f"/v1/games/{game_id}/stream", headers=auth, buffered=False)
        assert response.status_code == 200
        first = b"".join(itertools.islice(response.response, 1)).decode()
        response.close()
        assert '"reason":"timeout"' in first  # the first view already shows it
    elif what == "chat":
        response = client.post(f"/v1/games/{game_id}/chat", json={"text": "hi"}, headers=auth)
        assert response.status_code == 201, response.json
    elif what == "stream-ticket":
        response = client.post(f"/v1/games/{game_id}/stream-ticket", headers=auth)
        assert response.status_code == 200, response.json
    else:  # the hint: the hand was forfeited first, so there is no decision left to advise
        assert_problem(client.post(f"/v1/games/{game_id}/hint?budget_ms=50", headers=auth),
                       409, "no-decision")


@pytest.mark.parametrize("what", ["hint", "chat", "stream-ticket", "stream"])
def test_hint_chat_ticket_and_stream_after_the_deadline_apply_it(
        client: FlaskClient, store: GameStore, redis_client: redis.Redis, what: str) -> None:
    game_id, ann, game = _overdue(client, store, redis_client, on_timeout="forfeit")
    _touch(client, game_id, ann, what)
    settled = store.load(game_id)
    assert settled.version > game.version
    assert settled.state.settlement is not None
    assert settled.state.settlement["reason"] == "timeout"


@pytest.mark.parametrize("what", ["view", "stream", "my-games"])
def test_a_table_view_stream_or_my_games_after_the_deadline_applies_it(
        client: FlaskClient, store: GameStore, redis_client: redis.Redis, what: str) -> None:
    _, ann = new_player(client, "Ann")
    for _ in range(TRIES):
        made = new_table(client, ann, seats=[{"kind": "player"},
                                             {"kind": "computer", "level": "random"}],
                         settings={"think_time_s": 1, "on_timeout": "forfeit"})
        game_id = made["game_id"]
        # Ann to act (after the computer's lead, if it leads) and her clock job lost
        until(lambda g=game_id: store.load(g).meta["clock"]["seat"] == 0, "Ann to act")
        game = _lose_clock_job(store, redis_client, game_id)
        if game is not None:
            break
    else:
        raise AssertionError(f"the scheduler enqueued the clock job of {TRIES} tables first")
    if what == "view":
        assert table(client, made["table_id"], ann)["status"] == "playing"
    elif what == "my-games":  # the listing shows the turn after the timeout, not before
        listed = client.get("/v1/players/me/games", headers=bearer(ann)).get_json()["games"]
        assert [item["game_id"] for item in listed] == [game_id]
        assert listed[0]["version"] > game.version
    else:
        response = client.get(f"/v1/tables/{made['table_id']}/stream", headers=bearer(ann),
                              buffered=False)
        assert response.status_code == 200
        first = b"".join(itertools.islice(response.response, 1)).decode()
        response.close()
        assert "event: table" in first
    settled = store.load(game_id)
    assert settled.version > game.version and settled.state.settlement is not None
    assert settled.state.settlement["reason"] == "timeout"


def test_a_lost_clock_job_is_found_by_the_workers_sweep_with_no_request(
        client: FlaskClient, store: GameStore, redis_client: redis.Redis) -> None:
    game_id, _, game = _overdue(client, store, redis_client, timeout_level="random")
    moved = until(lambda: [e for e in _events(store, game_id) if e.get("timeout")],
                   "the swept clock's move")
    assert moved[0]["seat"] == 0
    assert Job.fetch(clock_job_id(game_id, game.version) + "-swept",
                     connection=redis_client, serializer=SERIALIZER).args == [
                         game_id, game.version]
