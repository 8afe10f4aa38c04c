"""The bare stack of an action, for ``python -m tests.bench.bench_http``'s ``bare`` phase.

A Flask app with redis-py and nothing else, served by gunicorn with
``deploy/gunicorn.conf.py`` (``gunicorn -c deploy/gunicorn.conf.py
'tests.bench.bench_bare_app:create_app()'``): the physical limit of the act path's own stack.
``POST /bare/<n>`` does only the storage work of one action, on a record the benchmark copied
from a real game (the action of a hand whose answer has the median size,
:func:`tests.bench.bench_http.bare_records`): one ``HGETALL`` of the game's hash
``sixtysix:game:{bare-<n>}`` (the same fields and sizes as the real one), the game store's own
compare-and-set save script (:data:`api.games.store.SAVE_SCRIPT`: version check, state, recent
events, event log, write record, TTLs, publish; no presence, which an action's save writes only
for a seat's first action in 5 s) writing the state it read back as the next
version with the real action's events, and a response of the real action's answer (the same
bytes, so the same size) with its ``ETag``. No JSON is parsed or built, no log line written.

``REDIS_URL`` names the Redis (the benchmark's); the record template is read from
:data:`TEMPLATE_KEY` on first use in each worker. Each load-generator connection has its own
``n``, so no two requests race on one record.
"""

from __future__ import annotations

import json
import os
from typing import Final

import redis
from flask import Flask, Response, request

from api.games.store import SAVE_SCRIPT, WRITE_TTL
from api.keys import events_key, game_key, notify_channel, write_key
from api.runtime.redis_connect import connect
from api.unique import new_id

#: Hash of the template: ``body`` (the real action's answer) and ``line:<i>`` (its events).
TEMPLATE_KEY: Final = "sixtysix:bench:bare-template"
#: Seconds the records live (a game's time to live, as the real save sets it).
TTL: Final = 7 * 24 * 3600

def store_records(client: redis.Redis, record: dict[bytes, bytes], answer: bytes,
                  copies: int) -> list[str]:
    """Make the bare stack's records from a real game's hash as it was after an action and
    that action's answer: the template and ``copies`` records ``bare-0``…; the action's event
    lines (as the store logged them)."""
    lines = [json.dumps(e, separators=(",", ":")) for e in json.loads(record[b"recent"])]
    client.delete(TEMPLATE_KEY)
    client.hset(TEMPLATE_KEY, mapping={"body": answer,
                                       **{f"line:{i}": line for i, line in enumerate(lines)}})
    for n in range(copies):
        client.hset(game_key(f"bare-{n}"), mapping=record)  # type: ignore[arg-type]
    return lines


def create_app() -> Flask:
    """The bare app on ``REDIS_URL``, with the game store's client settings."""
    app = Flask(__name__)
    client = connect(os.environ["REDIS_URL"], socket_timeout=5.0, socket_connect_timeout=5.0,
                     health_check_interval=30)
    save = client.register_script(SAVE_SCRIPT)
    template: list[tuple[bytes, list[bytes]]] = []

    def answer_and_lines() -> tuple[bytes, list[bytes]]:
        if not template:
            raw = client.hgetall(TEMPLATE_KEY)
            lines = [raw[k] for k in sorted((k for k in raw if k.startswith(b"line:")),
                                            key=lambda k: int(k[5:]))]
            template.append((raw[b"body"], lines))
        return template[0]

    @app.get("/healthz")
    def healthz() -> Response:
        """For the benchmark's wait until the server answers."""
        return Response(b"ok", mimetype="text/plain")

    @app.post("/bare/<int:n>")
    def act(n: int) -> Response:
        """One action's storage work on record ``n``; 409 if the version check failed."""
        request.get_data()
        body, lines = answer_and_lines()
        game_id = f"bare-{n}"
        key = game_key(game_id)
        raw = client.hgetall(key)
        version, count = int(raw[b"v"]), int(raw[b"n"])
        status, _ = save(
            keys=[key, events_key(game_id), write_key(game_id, new_id())],
            args=[version, version + 1, TTL, raw[b"state"], "", raw[b"recent"],
                  count + len(lines), notify_channel(game_id), "", 0, WRITE_TTL, count, "", "",
                  "", "", *lines])
        if status != 1:
            return Response(b"", status=409)
        return Response(body, status=200, headers={"ETag": f'"{version + 1}"'},
                        mimetype="application/json")

    return app
