"""An action's ``Idempotency-Key`` keeps a small record and replays a true answer: the view
as it was right after the action, rendered again from the game's log (api.games.as_of)."""

from __future__ import annotations

import random
from typing import Any, Final

import pytest
import redis
from flask.testing import FlaskClient

from api.keys import idem_key
from tests.api.helpers import DECK, act, create, two_humans, view

#: Most bytes an action's record may hold (docs/operations.md, "Storage and keys").
MOST_RECORD_BYTES: Final = 200
#: Sixty-six to 3 game points; Tausendeins to 200 without an auction: short whole matches.
MATCHES: Final = {
    "sixty-six": {"match_points": 3},
    "tausendeins": {"variant": "tausendeins", "rules": {"target_points": 200, "bidding": "none"}},
}


def _play_keyed(client: FlaskClient, game_id: str, tokens: list[str], rng: random.Random,
                ) -> list[dict[str, Any]]:
    """Both seats play random legal actions, each with a key of its own, to the match's end:
    per action its key, seat, body, first answer (status, ETag, body)."""
    sent = []
    for n in range(3000):
        views = [view(client, game_id, t) for t in tokens]
        if views[0]["status"] == "match_over":
            return sent
        seat = next(s for s, v in enumerate(views) if v["legal_actions"])
        action = rng.choice(views[seat]["legal_actions"])
        key = f"action-{n}"
        first = act(client, game_id, tokens[seat], action, **{"Idempotency-Key": key})
        assert first.status_code == 200, first.json
        sent.append({"key": key, "seat": seat, "action": action, "json": first.json,
                     "etag": first.headers["ETag"]})
    raise AssertionError(f"{game_id} did not end")


@pytest.mark.parametrize("match", sorted(MATCHES))
def test_every_replay_after_the_match_shows_the_view_right_after_its_action(
        client: FlaskClient, redis_client: redis.Redis, match: str) -> None:
    game_id, tokens = two_humans(client, **MATCHES[match])
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
    sizes = [redis_client.strlen(idem_key(game_id, s["key"])) for s in sent]
    assert 0 < max(sizes) <= MOST_RECORD_BYTES, max(sizes)


def rng_sample(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Some actions that won a trick or settled a hand, and a few others."""
    marked = [s for s in sent if {e["type"] for e in s["json"]["events"]}
              & {"trick_won", "hand_settled"}]
    return marked[:40:3] + marked[-3:] + random.Random(1).sample(sent, min(10, len(sent)))



def _without_remaining(body: Any) -> Any:
    """``body`` without the clock's ``remaining_ms``, which counts down to the same deadline."""
    return {**body, "clock": {k: v for k, v in body["clock"].items() if k != "remaining_ms"}}


def test_at_a_clock_a_replay_shows_the_action_s_view_or_after_later_moves_the_view_now(
        client: FlaskClient) -> None:
    """A clock's state of an earlier version is in no log: once the game moved on, a replay
    shows it as it is now (its ``ETag`` that version), which holds the action; never a view
    without it, never the action applied twice."""
    humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    made = create(client, seats=humans, deck=DECK, first_dealer=1,
                  settings={"think_time_s": 60})
    game_id, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    action, key = {"type": "play", "card": "AC"}, {"Idempotency-Key": "clocked-1"}
    first = act(client, game_id, tokens[0], action, **key)
    assert first.status_code == 200 and first.json is not None
    again = act(client, game_id, tokens[0], action, **key)
    assert again.headers["ETag"] == '"2"' and again.headers["Idempotent-Replayed"] == "true"
    assert _without_remaining(again.json) == _without_remaining(first.json)
    assert again.json["clock"]["remaining_ms"] <= first.json["clock"]["remaining_ms"]
    reply = view(client, game_id, tokens[1])["legal_actions"][0]
    assert act(client, game_id, tokens[1], reply).status_code == 200
    later = act(client, game_id, tokens[0], action, **key)
    assert later.status_code == 200 and later.headers["ETag"] == '"3"'
    assert later.headers["Idempotent-Replayed"] == "true"
    now = view(client, game_id, tokens[0])
    assert _without_remaining(later.json) == _without_remaining(now)
    assert now["version"] == 3 and "AC" not in now["hand"]  # the action, applied once
