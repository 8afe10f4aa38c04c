"""What every stored game must satisfy, read straight from Redis: all or nothing of a save."""

from __future__ import annotations

import json
import os
import signal

import redis

from api.games.packed import unpack
from api.games.store import PACKED_FIELD
from api.keys import events_key, game_key
from engine import from_json


def stored_version(client: redis.Redis, game_id: str) -> int:
    """The game's stored version, after checking that its save was whole: the hash's event
    count is the log's length, the log is numbered 1..n, the last save's events are the log's
    tail, and the state loads."""
    raw = client.hgetall(game_key(game_id))
    assert raw, f"game {game_id} is gone"
    count = int(raw[b"n"])
    lines = logged_lines(client, game_id)
    assert len(lines) == count, (game_id, len(lines), count)
    seqs = [json.loads(line)["seq"] for line in lines]
    assert seqs == list(range(1, count + 1))
    recent = [e["seq"] for e in json.loads(raw[b"recent"])]
    assert recent == seqs[len(seqs) - len(recent):]
    from_json(raw[b"state"])
    return int(raw[b"v"])


def logged_lines(client: redis.Redis, game_id: str) -> list[bytes]:
    """The game's log one event a line, its packed hands unpacked (each pack checked to end
    at the ``seq`` the game hash says)."""
    packed = client.hget(game_key(game_id), PACKED_FIELD)
    ends = [int(end) for end in packed.split(b",")] if packed else []
    items = client.lrange(events_key(game_id), 0, -1)
    lines: list[bytes] = []
    for end, item in zip(ends, items, strict=False):
        events = unpack(item)
        assert events[-1]["seq"] == end, (game_id, events[-1]["seq"], end)
        lines += [json.dumps(e, separators=(",", ":")).encode() for e in events]
    return lines + items[len(ends):]


def kill9(url: str) -> None:
    """SIGKILL the redis-server at ``url``: no shutdown, no last write of its files."""
    client = redis.Redis.from_url(url)
    try:
        pid = int(client.info("server")["process_id"])
    finally:
        client.close()
    os.kill(pid, signal.SIGKILL)
