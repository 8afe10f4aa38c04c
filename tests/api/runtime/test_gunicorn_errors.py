"""What gunicorn itself refuses is problem+json too; a chunked body over the cap is a 413.

Against a real ``sixtysix serve`` (gunicorn with deploy/gunicorn.conf.py) on the session's
Redis, with raw sockets: these requests are malformed on purpose.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from api.runtime.redis_server import HOST, EmbeddedRedis
from tests.api.serving import sixtysix_serve

MAX_BODY = 4096


@pytest.fixture(scope="module")
def gunicorn_port(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
                  ) -> Iterator[int]:
    log = tmp_path_factory.mktemp("gunicorn") / "stderr.log"
    with sixtysix_serve(redis_server.url, log, SIXTYSIX_MAX_BODY=str(MAX_BODY)) as port:
        yield port


def exchange(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` as it is and read the answer until the server closes or it is complete."""
    with socket.create_connection((HOST, port), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < int(
                _headers(answer).get("content-length", "0")):
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, _headers(answer), body


def _headers(answer: bytes) -> dict[str, str]:
    lines = answer.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}


def _problem(answer: tuple[int, dict[str, str], bytes], status: int, slug: str) -> None:
    got, headers, body = answer
    assert got == status, body
    assert headers["content-type"] == "application/problem+json", headers
    problem = json.loads(body)
    assert problem["type"] == f"https://sixtysix.dev/problems/{slug}"
    assert problem["status"] == status and problem["title"] and problem["detail"]


GET = b"GET /healthz HTTP/1.1\r\nHost: x\r\n"


@pytest.mark.parametrize(("request_bytes", "status", "slug"), [
    (GET + b"X-A: a\x00b\r\n\r\n", 400, "bad-request"),                 # NUL in a header
    (GET + b"Authorization: Bearer " + b"t" * 9000 + b"\r\n\r\n", 431, "http-431"),
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "http-414"),
    (GET + b"Bad Header: x\r\n\r\n", 400, "bad-request"),               # space in a name
    (b"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", 400, "bad-request"),
], ids=["nul", "long-header", "long-line", "header-name", "version"])
def test_gunicorn_rejections_are_problems(gunicorn_port: int, request_bytes: bytes,
                                          status: int, slug: str) -> None:
    _problem(exchange(gunicorn_port, request_bytes), status, slug)


def _chunked(path: str, body: bytes, chunk: int = 1000) -> bytes:
    parts = [body[i:i + chunk] for i in range(0, len(body), chunk)]
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode() + b"".join(
        b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


def test_a_chunked_body_over_the_cap_is_a_413(gunicorn_port: int) -> None:
    over = b'{"seats": [' + b" " * MAX_BODY + b"]}"
    _problem(exchange(gunicorn_port, _chunked("/v1/games", over)), 413, "payload-too-large")
    exactly = b"{}" + b" " * (MAX_BODY - 2)  # at the cap: accepted, as with Content-Length
    assert exchange(gunicorn_port, _chunked("/v1/games", exactly))[0] == 201


def test_a_malformed_chunk_is_a_400(gunicorn_port: int) -> None:
    broken = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
    _problem(exchange(gunicorn_port, broken), 400, "bad-request")
