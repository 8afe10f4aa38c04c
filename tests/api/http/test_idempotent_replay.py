"""An action's ``Idempotency-Key`` keeps a small record and replays a true answer: the view
as it was right after the action, rendered again from the game's log (api.games.as_of)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Final

import pytest
import redis
from flask.testing import FlaskClient

from api.games.store import MarkSlot
from api.games.tokens import digest
from api.keys import PREFIX, idem_key, mark_field, marks_key
from tests.api.helpers import DECK, act, bearer, create, view
from tests.waiting import until

#: Most bytes an action's record may hold, and most bytes of Redis (``MEMORY USAGE``) per
#: action its marks take (docs/operations.md, "Storage and keys"; issue K's target).
MOST_RECORD_BYTES: Final = 200
#: Sixty-six to 3 game points; Tausendeins to 200 without an auction: short whole matches.
MATCHES: Final = {
    "sixty-six": {"match_points": 3},
    "four-hand": {"variant": "four-hand", "match_points": 3},
    "tausendeins": {"variant": "tausendeins", "rules": {"target_points": 200, "bidding": "none"}},
}


def _play_keyed(client: FlaskClient, game_id: str, tokens: list[str], rng: random.Random,
                until_status: str = "match_over", most: int | None = None, first: int = 0,
                ) -> list[dict[str, Any]]:
    """The seats play random legal actions, each with a key of its own (``action-<n>`` from
    ``first`` on), until ``until_status`` (which must come within 3000) or ``most`` actions:
    per action its key, seat,
    body, first answer (its ETag and body)."""
    sent = []
    for n in range(first, first + (most or 3000)):
        views = [view(client, game_id, t) for t in tokens]
        if views[0]["status"] == until_status:
            return sent
        seat = next(s for s, v in enumerate(views) if v["legal_actions"])
        action = rng.choice(views[seat]["legal_actions"])
        key = f"action-{n}"
        answer = act(client, game_id, tokens[seat], action, **{"Idempotency-Key": key})
        assert answer.status_code == 200, answer.json
        sent.append({"key": key, "seat": seat, "action": action, "json": answer.json,
                     "etag": answer.headers["ETag"]})
    if most is None:
        raise AssertionError(f"{game_id} never reached {until_status}")
    return sent


@pytest.mark.parametrize("match", sorted(MATCHES))
def test_every_replay_after_the_match_shows_the_view_right_after_its_action(
        client: FlaskClient, redis_client: redis.Redis, match: str) -> None:
    players = 4 if match == "four-hand" else 2
    made = create(client, seats=[{"kind": "human", "name": f"P{i}"} for i in range(players)],
                  **MATCHES[match])
    game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    sent = _play_keyed(client, game_id, tokens, random.Random(66))
    final_version = view(client, game_id)["version"]
    kinds = {e["type"] for s in sent for e in s["json"]["events"]}
    assert {"trick_won", "hand_settled"} <= kinds, kinds  # the points covered
    assert sent[-1]["json"]["status"] == "match_over"
    for s in [sent[0], *rng_sample(sent), sent[-1]]:
        again = act(client, game_id, tokens[s["seat"]], s["action"],
                    **{"Idempotency-Key": s["key"]})
        assert again.status_code == 200, again.json
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.headers["ETag"] == s["etag"]
        assert again.json == s["json"], s["key"]  # as of then: not the view of now
        assert again.json["version"] < final_version or s is sent[-1]
    assert view(client, game_id)["version"] == final_version  # nothing applied again
    marks = marks_key(game_id)
    sizes = [redis_client.hstrlen(marks, mark_field(s["key"])) for s in sent]
    assert 0 < max(sizes) <= MOST_RECORD_BYTES, max(sizes)
    assert redis_client.hlen(marks) == len(sent)  # one field per key, no key of its own
    assert not list(redis_client.scan_iter(match=f"{PREFIX}:idem:*"))
    usage = redis_client.memory_usage(marks, samples=0) or 0
    # The hash's own cost (its key, its table) is the game's, paid once: an action's cost is
    # what its field adds, over a hash of the same name's length holding the first one alone.
    first = mark_field(sent[0]["key"])
    probe = marks_key("p" * len(game_id))
    redis_client.hset(probe, first, redis_client.hget(marks, first) or b"")
    base = redis_client.memory_usage(probe, samples=0) or 0
    redis_client.delete(probe)
    assert len(sent) > 1
    per_action = (usage - base) / (len(sent) - 1)
    assert 0 < per_action <= MOST_RECORD_BYTES, (usage, base, len(sent))
    assert 0 < redis_client.ttl(marks) <= 24 * 3600


def rng_sample(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Some actions that won a trick or settled a hand, and a few others."""
    marked = [s for s in sent if {e["type"] for e in s["json"]["events"]}
              & {"trick_won", "hand_settled"}]
    return marked[:40:3] + marked[-3:] + random.Random(1).sample(sent, min(10, len(sent)))



def _without_remaining(body: Any) -> Any:
    """``body`` without the clock's ``remaining_ms``, which counts down to the same deadline."""
    return {**body, "clock": {k: v for k, v in body["clock"].items() if k != "remaining_ms"}}


def test_at_a_clock_a_replay_shows_the_clock_of_then_and_the_time_left_now(
        client: FlaskClient, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The mark keeps the clock of its save (its deadline, expiries, pauses): a replay after
    later saves, a move the clock made among them, shows the view of then, its
    ``remaining_ms`` counted to that deadline now."""
    monkeypatch.setenv("SIXTYSIX_MIN_THINK_TIME_S", "1")
    monkeypatch.setenv("SIXTYSIX_READING_S", "1")
    humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    made = create(client, seats=humans, deck=DECK, first_dealer=1,
                  settings={"think_time_s": 1, "on_timeout": "forfeit"})
    game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    action, key = {"type": "play", "card": "AC"}, {"Idempotency-Key": "clocked-1"}
    first = act(client, game_id, tokens[0], action, **key)
    assert first.status_code == 200 and first.json is not None
    assert first.json["clock"]["seat"] == 1 and first.json["clock"]["deadline"] is not None
    again = act(client, game_id, tokens[0], action, **key)
    assert again.headers["ETag"] == '"2"' and again.headers["Idempotent-Replayed"] == "true"
    assert _without_remaining(again.json) == _without_remaining(first.json)
    assert again.json["clock"]["remaining_ms"] <= first.json["clock"]["remaining_ms"]
    timed_out = until(lambda: any(e.get("timeout") for e in _events(client, game_id, tokens[0])),
                      "the clock's move for seat 1")
    assert timed_out
    later = act(client, game_id, tokens[0], action, **key)
    assert later.status_code == 200 and later.headers["ETag"] == '"2"'
    assert _without_remaining(later.json) == _without_remaining(first.json)
    assert later.json["clock"]["remaining_ms"] == 0  # that deadline has passed
    assert view(client, game_id, tokens[0])["version"] > 2
    assert redis_client.hstrlen(marks_key(game_id), mark_field("clocked-1")) <= MOST_RECORD_BYTES


def _events(client: FlaskClient, game_id: str, token: str) -> list[dict[str, Any]]:
    """The game's events as the seat sees them (a request that applies a passed deadline)."""
    view(client, game_id, token)
    log = client.get(f"/v1/games/{game_id}/events?after=0&limit=500", headers=bearer(token))
    assert log.json is not None
    out: list[dict[str, Any]] = log.json["events"]
    return out


def test_a_replay_shows_the_view_before_the_computers_replies_and_chat(
        client: FlaskClient) -> None:
    """Against a computer (its moves saved by a worker) with chat messages logged between
    the saves, a replay shows the view right after the action, as ``respond-async`` did."""
    made = create(client, deck=DECK, first_dealer=1, seats=[
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}])
    game_id, token = made["game_id"], made["seats"][0]["token"]
    sent = []
    for n in range(8):
        current = view(client, game_id, token)
        if not current["legal_actions"]:  # the computer is to move: wait for it
            client.get(f"/v1/games/{game_id}?after_version={current['version']}&wait=10",
                       headers=bearer(token))
            continue
        chat = client.post(f"/v1/games/{game_id}/chat", json={"text": f"move {n}"},
                           headers=bearer(token))
        assert chat.status_code == 201, chat.json
        action, key = current["legal_actions"][0], {"Idempotency-Key": f"vs-computer-{n}"}
        first = act(client, game_id, token, action, Prefer="respond-async", **key)
        assert first.status_code == 200, first.json
        sent.append((action, key, first.json, first.headers["ETag"]))
    assert len(sent) >= 3
    assert view(client, game_id, token)["version"] > int(sent[-2][3].strip('"'))
    for action, key, body, tag in sent:
        again = act(client, game_id, token, action, **key)
        assert again.status_code == 200 and again.headers["ETag"] == tag
        assert again.json == body


def test_a_replay_after_a_hint_shows_the_hinted_hands_of_then(client: FlaskClient) -> None:
    """A hint saves the game (a new version, no event) with the hand marked as hinted: a
    replay of an action before it shows the marks of then, of an action after it the mark."""
    made = create(client, deck=DECK, first_dealer=1,
                  seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    before = act(client, game_id, tokens[0], {"type": "play", "card": "AC"},
                 **{"Idempotency-Key": "before-hint"})
    hinted = client.post(f"/v1/games/{game_id}/hint?budget_ms=40", headers=bearer(tokens[1]))
    assert hinted.status_code == 200, hinted.json
    reply = view(client, game_id, tokens[1])["legal_actions"][0]
    after = act(client, game_id, tokens[1], reply, **{"Idempotency-Key": "after-hint"})
    assert before.json is not None and after.json is not None
    assert before.json["hinted_hands"] == [] and after.json["hinted_hands"] != []
    views = [view(client, game_id, t) for t in tokens]
    leader = next(s for s, v in enumerate(views) if v["legal_actions"])  # the trick's winner
    assert act(client, game_id, tokens[leader],
               views[leader]["legal_actions"][0]).status_code == 200
    for token, body, key in ((tokens[0], {"type": "play", "card": "AC"}, "before-hint"),
                             (tokens[1], reply, "after-hint")):
        again = act(client, game_id, token, body, **{"Idempotency-Key": key})
        first = before if key == "before-hint" else after
        assert again.status_code == 200 and again.json == first.json, key


def test_a_replay_after_a_pause_shows_the_views_of_then(client: FlaskClient) -> None:
    """A pause logs an event of the service's own (no engine action) and moves the clock's
    deadline: replays of the actions before it, of the pause and after it show each view as
    it was, the clock's ``remaining_ms`` aside."""
    humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    made = create(client, seats=humans, settings={"think_time_s": 60, "auto_continue": False})
    game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    sent = _play_keyed(client, game_id, tokens, random.Random(3),
                       until_status="hand_over")
    pause = {"type": "pause"}
    paused = act(client, game_id, tokens[0], pause, **{"Idempotency-Key": "pause"})
    assert paused.status_code == 200 and paused.json is not None, paused.json
    assert paused.json["events"][0]["type"] == "paused"
    sent.append({"key": "pause", "seat": 0, "action": pause, "json": paused.json,
                 "etag": paused.headers["ETag"]})
    sent += _play_keyed(client, game_id, tokens, random.Random(4), most=4, first=len(sent))
    for s in sent:
        again = act(client, game_id, tokens[s["seat"]], s["action"],
                    **{"Idempotency-Key": s["key"]})
        assert again.status_code == 200 and again.headers["ETag"] == s["etag"]
        assert _without_remaining(again.json) == _without_remaining(s["json"]), s["key"]


def test_a_record_kept_whole_before_the_marks_is_still_replayed(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    """A key stored by the server before records were marks (the whole answer, a 64-digit
    fingerprint) is still honoured for its day: the same request gets that answer."""
    made = create(client, deck=DECK, first_dealer=1,
                  seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    game_id, token = made["game_id"], made["seats"][0]["token"]
    action = {"type": "play", "card": "AC"}
    first = act(client, game_id, token, action, **{"Idempotency-Key": "whole"})
    path = f"/v1/games/{game_id}/actions"
    text = json.dumps(["POST", path, digest(token), action], sort_keys=True)
    whole = {"fingerprint": hashlib.sha256(text.encode()).hexdigest(), "status": 200,
             "body": {**first.json, "marker": "kept whole"}, "headers": {"ETag": '"2"'}}
    redis_client.hdel(marks_key(game_id), mark_field("whole"))  # a server before kept it:
    redis_client.set(idem_key(game_id, "whole"), json.dumps(whole), ex=600)
    again = act(client, game_id, token, action, **{"Idempotency-Key": "whole"})
    assert again.status_code == 200 and again.json == whole["body"]
    assert again.headers["ETag"] == '"2"' and again.headers["Idempotent-Replayed"] == "true"
    other = act(client, game_id, token, {"type": "play", "card": "TC"},
                **{"Idempotency-Key": "whole"})
    assert other.status_code == 422


def test_a_mark_kept_under_its_own_key_before_the_marks_hash_is_still_replayed(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    """A mark a server wrote under a key of its own (``sixtysix:idem:{game}:<sha256>``, the
    layout before the game's marks hash) is honoured for its day: the same request, after
    later actions, gets the view right after it; another request under the key a 422."""
    made = create(client, deck=DECK, first_dealer=1,
                  seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    action, key = {"type": "play", "card": "AC"}, {"Idempotency-Key": "legacy"}
    first = act(client, game_id, tokens[0], action, **key)
    assert first.status_code == 200
    slot = MarkSlot.of(game_id, "legacy")
    record = redis_client.hget(slot.key, slot.field)
    assert record is not None and b'"mark"' in record
    redis_client.hdel(slot.key, slot.field)  # where the server before kept it
    redis_client.set(idem_key(game_id, "legacy"), record, ex=600)
    _play_keyed(client, game_id, tokens, random.Random(5), most=4, first=100)
    again = act(client, game_id, tokens[0], action, **key)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"] and again.json == first.json
    assert view(client, game_id)["version"] == 6  # nothing applied again
    other = act(client, game_id, tokens[0], {"type": "play", "card": "TC"}, **key)
    assert other.status_code == 422
    assert redis_client.hget(slot.key, slot.field) is None  # a legacy key is never rewritten
