"""The benchmark's bare stack (:mod:`tests.bench.bench_bare_app`) does an action's storage work on a
copy of a real game's record: the version moves on, the events are logged, the state is
written back, and the answer is the real action's."""

from __future__ import annotations

import json

import pytest
import redis
from flask.testing import FlaskClient

from api.keys import events_key, game_key
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import act, two_humans, view
from tests.bench.bench_bare_app import create_app, store_records


def test_a_bare_action_saves_as_the_store_does(client: FlaskClient, redis_server: EmbeddedRedis,
                                               redis_client: redis.Redis,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, tokens = two_humans(client, first_dealer=0)
    seat = next(s for s in (0, 1) if view(client, game_id, tokens[s])["legal_actions"])
    answer = act(client, game_id, tokens[seat], view(client, game_id, tokens[seat])[
        "legal_actions"][0])
    record = redis_client.hgetall(game_key(game_id))
    lines = store_records(redis_client, record, answer.get_data(), 1)
    assert lines and all(json.loads(line)["seq"] for line in lines)
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    bare = create_app().test_client()
    for step in (1, 2):
        done = bare.post("/bare/0", data=b'{"type":"play","card":"QH"}',
                         content_type="application/json")
        assert done.status_code == 200 and done.get_data() == answer.get_data()
        assert done.headers["ETag"] == f'"{int(record[b"v"]) + step}"'
    saved = redis_client.hgetall(game_key("bare-0"))
    assert int(saved[b"v"]) == int(record[b"v"]) + 2
    assert int(saved[b"n"]) == int(record[b"n"]) + 2 * len(lines)
    assert saved[b"state"] == record[b"state"]
    assert redis_client.lrange(events_key("bare-0"), 0, -1) == [line.encode()
                                                               for line in lines * 2]
