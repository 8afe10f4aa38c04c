"""``Prefer`` sent as several header lines counts as one list (RFC 9110 §5.3), over a real
socket: the WSGI server joins the lines and the app reads the joined value."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import redis


def test_every_prefer_line_is_read(live_url: str, redis_client: redis.Redis) -> None:
    address = urlsplit(live_url)
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=30)
    body = json.dumps({"seats": [{"kind": "human"}, {"kind": "human"}]}).encode()
    try:
        connection.putrequest("POST", "/v1/games")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(len(body)))
        connection.putheader("Prefer", "respond-async")
        connection.putheader("Prefer", "wait=0")  # with both, wait bounds the wait
        connection.endheaders(body)
        answer = connection.getresponse()
        answer.read()
    finally:
        connection.close()
    assert answer.status == 201
    assert answer.getheader("Preference-Applied") == "wait=0"
