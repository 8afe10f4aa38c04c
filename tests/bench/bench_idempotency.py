"""Bytes Redis keeps per idempotent action: ``python -m tests.bench.bench_idempotency``.

Plays ``--matches`` matches of two human seats per variant (Sixty-Six to 7 game points,
Tausendeins to 1001 without an auction; random legal actions) through the app on an embedded
Redis, every action and the create with an ``Idempotency-Key``, and prints per variant:

* ``before``: the bytes of the record an action's key kept until it was made a mark, the whole
  answer (``{"fingerprint", "status", "body", "headers"}``, a 64-digit fingerprint), as its
  JSON for the answer each action got;
* ``after``: ``HSTRLEN`` of the record the key keeps now (its field in the game's marks hash),
  and ``MEMORY USAGE`` per action: of a key of its own holding it (the layout before the
  hash, measured by writing each record there once), and of the game's marks hash (``SAMPLES
  0``: every field) over its actions;
* per match: the same summed over its actions, against ``MEMORY USAGE`` of the game's hash and
  event log at its end; and ``STRLEN`` of the create's record (its sealed seat tokens).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

import redis

from api.keys import events_key, game_key, idem_key, mark_field, marks_key
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import act, bearer, configured

MATCHES = {
    "sixty-six": {"match_points": 7},
    "tausendeins": {"variant": "tausendeins", "rules": {"bidding": "none"}},
}


def _old_record_bytes(answer: Any, etag: str) -> int:
    """The size of the record kept before: the whole answer with a 64-digit fingerprint."""
    record = {"fingerprint": "0" * 64, "status": 200, "body": answer, "headers": {"ETag": etag}}
    return len(json.dumps(record, separators=(",", ":")))


def _match(client: Any, store: redis.Redis, body: dict[str, Any], seed: int
           ) -> dict[str, Any]:
    """One keyed match: per action the old and new record bytes; the game's bytes at its end."""
    create_key = f"bench-create-key-{seed:08d}-abcdef"
    created = client.post("/v1/games", json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], **body},
        headers={"Idempotency-Key": create_key})
    assert created.status_code == 201, created.json
    game_id, tokens = created.json["game_id"], [s["token"] for s in created.json["seats"]]
    rng = random.Random(seed)
    before, after, keys = [], [], []
    for n in range(20000):
        views = [client.get(f"/v1/games/{game_id}", headers=bearer(t)).json for t in tokens]
        if views[0]["status"] == "match_over":
            break
        seat = next(s for s, v in enumerate(views) if v["legal_actions"])
        key = f"bench-{seed}-{n}"
        answer = act(client, game_id, tokens[seat], rng.choice(views[seat]["legal_actions"]),
                     **{"Idempotency-Key": key})
        assert answer.status_code == 200, answer.json
        before.append(_old_record_bytes(answer.json, answer.headers["ETag"]))
        after.append(store.hstrlen(marks_key(game_id), mark_field(key)))
        keys.append(key)
    usage = [_own_key_usage(store, game_id, key) for key in keys]
    hashed = (store.memory_usage(marks_key(game_id), samples=0) or 0) / len(keys)
    game = sum(store.memory_usage(k) or 0 for k in (game_key(game_id), events_key(game_id)))
    create = store.strlen(next(store.scan_iter(match="sixtysix:idem:{create}:*")))
    store.delete(*store.keys("sixtysix:idem:{create}:*"))
    return {"before": before, "after": after, "usage": usage, "hashed": [hashed] * len(keys),
            "game": game, "create": create}


def _own_key_usage(store: redis.Redis, game_id: str, key: str) -> int:
    """``MEMORY USAGE`` of the record of ``key`` under a key of its own (the layout before the
    marks hash), written for the measure and deleted."""
    legacy = idem_key(game_id, key)
    store.set(legacy, store.hget(marks_key(game_id), mark_field(key)) or b"", ex=600)
    try:
        return store.memory_usage(legacy) or 0
    finally:
        store.delete(legacy)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="matches per variant")
    args = parser.parse_args(argv)
    logging.disable(logging.INFO)  # the app's request log lines
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp)) as server, \
            configured(server.url) as client:
        store = redis.Redis.from_url(server.url)
        print("variant       actions/match  before B/action  after B/action (MEMORY USAGE:"
              " own key -> marks hash)  before KB/match  after KB/match  game KB  create B")
        for name, body in MATCHES.items():
            runs = [_match(client, store, body, seed) for seed in range(args.matches)]
            actions = [len(r["before"]) for r in runs]
            flat = {k: [x for r in runs for x in r[k]]
                    for k in ("before", "after", "usage", "hashed")}
            print(f"{name:13} {statistics.mean(actions):13.0f} "
                  f"{statistics.mean(flat['before']):16.0f} "
                  f"{statistics.mean(flat['after']):10.0f} (max {max(flat['after'])}; "
                  f"{statistics.mean(flat['usage']):.0f} -> {statistics.mean(flat['hashed']):.0f}) "
                  f"{statistics.mean(sum(r['before']) for r in runs) / 1024:16.1f} "
                  f"{statistics.mean(sum(r['hashed']) for r in runs) / 1024:15.1f} "
                  f"{statistics.mean(r['game'] for r in runs) / 1024:8.1f} "
                  f"{max(r['create'] for r in runs):9}")


if __name__ == "__main__":
    main()
