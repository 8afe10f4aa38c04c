"""Request ids, JSON request logs and the Prometheus metrics, on the Flask app and real Redis."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import threading
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter

from api.app import close_app, create_app
from api.clients.client import SixtySixClient
from api.http.metrics import ActiveGames, Metrics
from api.http.observability import (
    REQUEST_LOGGER,
    Answered,
    JsonFormatter,
    TextFormatter,
    request_line,
    request_text,
)
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.api.helpers import act, assert_problem, bearer, create, two_humans
from tests.api.serving import PATIENCE


def _log_lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in capsys.readouterr().err.splitlines() if line]


def _sample(client: FlaskClient, name: str, **labels: str) -> float:
    """The value of one sample of /metrics (0 when absent)."""
    text = client.get("/metrics").get_data(as_text=True)
    for line in text.splitlines():
        metric, _, value = line.rpartition(" ")
        if metric.partition("{")[0] != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', metric))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(value)
    return 0.0


def test_a_valid_request_id_is_kept_and_echoed(client: FlaskClient) -> None:
    response = client.get("/v1/games/nope", headers={"X-Request-Id": "req-42.a:b"})
    assert response.headers["X-Request-Id"] == "req-42.a:b"
    assert assert_problem(response, 404, "game-not-found")["request_id"] == "req-42.a:b"


@pytest.mark.parametrize("given", ["", "has space", "x" * 129, "nl\u00e9"])
def test_an_invalid_request_id_is_replaced(client: FlaskClient, given: str) -> None:
    response = client.get("/healthz", headers={"X-Request-Id": given})
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-Id"])


def test_fresh_request_ids_differ_within_and_across_processes(client: FlaskClient) -> None:
    """Made from a per-process prefix and a counter: a forked child draws its own prefix."""
    ids = [client.get("/healthz").headers["X-Request-Id"] for _ in range(50)]
    assert len(set(ids)) == 50 and len({i[:16] for i in ids}) == 1
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a request id of its own, to the parent through the pipe
        try:
            os.write(writer, client.get("/healthz").headers["X-Request-Id"].encode())
        finally:
            os._exit(0)
    os.close(writer)
    os.waitpid(pid, 0)
    child = os.read(reader, 100).decode()
    os.close(reader)
    assert re.fullmatch(r"[0-9a-f]{32}", child) and child[:16] != ids[0][:16]


def test_one_json_line_per_request(client: FlaskClient,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    game_id, tokens = two_humans(client)
    capsys.readouterr()
    act(client, game_id, tokens[0], {"type": "continue"}, **{"X-Request-Id": "abc"})
    lines = _log_lines(capsys)
    assert len(lines) == 1
    line = lines[0]
    assert line["msg"] == "request" and line["logger"] == "api.requests"
    assert line["method"] == "POST"
    assert line["path"] == "/v1/games/<game_id>/actions"
    assert line["status"] == 409
    assert line["request_id"] == "abc"
    assert line["game_id"] == game_id
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert tokens[0] not in json.dumps(line)


@pytest.mark.parametrize(("rid", "route", "game_id"), [
    ("rid-1", "/v1/games/<game_id>/actions", 'a"b\u00e9'),
    ("0123456789abcdef0123456789abcdef", "/v1/games/<game_id>/actions", "q3V9k2xR0aLmT7wZ"),
    ("rid-1", "unmatched", None), ("a\\b", "/healthz", None), ("rid", "/x", "t.1"),
    ("rid", "/x", "ctl\x01"), ("rid", "/x\x7f", "g")])
@pytest.mark.parametrize("seconds", [0.0, 0.001234, 12.5, 1e-07])
def test_the_direct_request_line_is_the_line_logging_writes(rid: str, route: str,
                                                            game_id: str | None,
                                                            seconds: float) -> None:
    """Plain texts (filled into the template) and others (encoded) alike."""
    answered = Answered("POST", route, 200, seconds, game_id)
    record = request_line(rid, answered)
    assert request_text(rid, answered, record.created) == JsonFormatter().format(record)


#: A readable request line: gunicorn's time, the method, the path, the status, milliseconds.
TEXT_LINE = r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\] %s %s %d \d+\.\d ms"


def test_text_logs_are_one_readable_line_per_request(
        app: Flask, capsys: pytest.CaptureFixture[str]) -> None:
    """``SIXTYSIX_LOG_FORMAT=text`` (``sixtysix serve``'s): gunicorn's look, not JSON; a game's
    id in its path, no token, no query."""
    text_app = create_app({**app.config, "SIXTYSIX_LOG_FORMAT": "text"})
    try:
        client = text_app.test_client()
        game_id, tokens = two_humans(client)
        capsys.readouterr()
        act(client, game_id, tokens[0], {"type": "continue"})
        client.get("/v1/games/nope?invite_code=secret")
        client.get("/healthz")
        text_app.logger.warning("a %s line", "warning")
        lines = capsys.readouterr().err.splitlines()
    finally:
        close_app(text_app)
    assert len(lines) == 4, lines
    assert re.fullmatch(TEXT_LINE % ("POST", re.escape(f"/v1/games/{game_id}/actions"), 409),
                        lines[0]), lines[0]
    assert re.fullmatch(TEXT_LINE % ("GET", re.escape("/v1/games/<game_id>"), 404), lines[1])
    assert re.fullmatch(TEXT_LINE % ("GET", "/healthz", 200), lines[2])
    assert re.fullmatch(r"\[[^]]+\] \[WARNING\] api: a warning line", lines[3]), lines[3]
    assert "secret" not in "".join(lines) and tokens[0] not in "".join(lines)


def test_the_direct_text_line_is_the_line_logging_writes() -> None:
    answered = Answered("GET", "/v1/games/<game_id>", 200, 0.00315, "q3V9k2xR0aLmT7wZ")
    record = request_line("rid", answered)
    line = TextFormatter().request_text("rid", answered, record.created)
    assert line == TextFormatter().format(record)
    assert line.endswith("] GET /v1/games/q3V9k2xR0aLmT7wZ 200 3.1 ms")


def test_an_unknown_log_format_is_refused(app: Flask) -> None:
    with pytest.raises(ValueError, match="SIXTYSIX_LOG_FORMAT must be json or text; got 'xml'"):
        create_app({**app.config, "SIXTYSIX_LOG_FORMAT": "xml"})


def test_a_handler_of_anyone_else_gets_the_request_line_through_logging(
        client: FlaskClient, capsys: pytest.CaptureFixture[str]) -> None:
    """With a handler added to the request logger the line goes through :mod:`logging`: the
    added handler gets the record and standard error still gets the JSON line."""
    seen: list[logging.LogRecord] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    requests_log = logging.getLogger(REQUEST_LOGGER)
    added = Collect()
    requests_log.addHandler(added)
    try:
        capsys.readouterr()
        client.get("/healthz", headers={"X-Request-Id": "through-logging"})
    finally:
        requests_log.removeHandler(added)
    assert [(r.getMessage(), getattr(r, "request_id", None)) for r in seen] == [
        ("request", "through-logging")]
    assert [line["request_id"] for line in _log_lines(capsys)] == ["through-logging"]


def test_a_creation_logs_its_new_game_and_a_404_no_game_id(
        client: FlaskClient, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    game_id = create(client)["game_id"]
    client.get("/v1/games/SOMETHING-A-CLIENT-TYPED")
    created, missing = _log_lines(capsys)
    assert (created["status"], created["game_id"]) == (201, game_id)
    assert (missing["status"], missing["game_id"], missing["path"]) == (
        404, None, "/v1/games/<game_id>")


def test_request_lines_can_be_turned_off(app: Flask, capsys: pytest.CaptureFixture[str]) -> None:
    quiet = create_app({**app.config, "SIXTYSIX_LOG_REQUESTS": 0})
    capsys.readouterr()
    quiet.test_client().get("/healthz")
    assert _log_lines(capsys) == []
    close_app(quiet)


def test_request_counter_and_latency(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client)
    client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0]))
    act(client, game_id, tokens[0], {"type": "continue"})
    assert _sample(client, "sixtysix_http_requests_total", endpoint="/v1/games",
                   method="POST", status="201") == 1
    assert _sample(client, "sixtysix_http_requests_total", endpoint="/v1/games/<game_id>/actions",
                   method="POST", status="409") == 1
    assert _sample(client, "sixtysix_http_request_duration_seconds_count",
                   endpoint="/v1/games/<game_id>", method="GET") == 1
    client.get("/no/such/page")
    assert _sample(client, "sixtysix_http_requests_total", endpoint="unmatched",
                   status="404") == 1


def test_computer_think_time_is_the_workers(tmp_path: Path) -> None:
    """The web tier thinks no more: the think time is observed where the move is played, by
    a worker (threads of this process here, so the app's /metrics shows them)."""
    with EmbeddedRedis(tmp_path, appendonly=False) as own, LocalServer(own.url) as server:
        def think_count() -> float:
            text = requests.get(f"{server.url}/metrics", timeout=5).text
            found = re.search(r'^sixtysix_computer_think_seconds_count\{level="random"\} (\S+)$',
                              text, re.M)
            return float(found.group(1)) if found else 0.0

        before = think_count()
        client = SixtySixClient(server.url)
        # the computer leads the first trick of a game where it is forehand
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "computer"}],
                                  first_dealer=0)
        assert game["version"] > 1  # the answer came after the worker's move
        assert think_count() >= before + 1


def test_active_games_estimate(app: Flask, client: FlaskClient) -> None:
    assert _sample(client, "sixtysix_active_games") == 0
    ids = {two_humans(client)[0] for _ in range(3)}
    client.get("/v1/games/unknown-game")  # a 404 is no game
    metrics: Metrics = app.extensions["sixtysix_metrics"]
    # a flush that fell due meanwhile (every FLUSH_EVERY s: on a loaded machine these requests
    # take that long) writes the ids it took in a thread of its own; a scrape flushes the rest
    in_flight = metrics.active.flushing()
    if in_flight is not None:
        in_flight.join()
    assert _sample(client, "sixtysix_active_games") == len(ids)
    assert metrics.active.count() == len(ids)


def test_redis_errors_are_counted(app: Flask, client: FlaskClient) -> None:
    app.extensions["sixtysix"].games.redis.connection_pool.connection_kwargs["port"] = 1
    app.extensions["sixtysix"].games.redis.connection_pool.disconnect()
    assert_problem(client.get("/v1/games/abc"), 503, "store-unavailable")
    text = client.get("/metrics").get_data(as_text=True)
    assert 'sixtysix_redis_errors_total{error="ConnectionError"}' in text
    assert "sixtysix_active_games " not in text  # unknown while Redis is away


def test_metrics_name_their_content_type_once(client: FlaskClient) -> None:
    content_type = client.get("/metrics").headers["Content-Type"]
    assert content_type == CONTENT_TYPE_LATEST
    assert content_type.count("charset") == 1


def test_a_paused_redis_holds_no_request_for_the_active_games_estimate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The estimate's flush runs beside the request: touch() returns while Redis is stopped,
    and the games it noted reach the HyperLogLog once Redis runs again."""
    monkeypatch.setattr("api.http.metrics.FLUSH_EVERY", 0.0)
    with EmbeddedRedis(tmp_path, appendonly=False) as server:
        client = redis.Redis.from_url(server.url)  # no socket timeout: a blocked read waits
        active = ActiveGames(client, Counter("errors", "errors", ["error"],
                                             registry=CollectorRegistry()))
        assert server.pid is not None
        os.kill(server.pid, signal.SIGSTOP)
        try:
            toucher = threading.Thread(target=active.touch, args=("g1",))
            toucher.start()
            toucher.join(PATIENCE)
            assert not toucher.is_alive(), "touch() waited on the stopped Redis"
            flushing = active.flushing()
            assert flushing is not None and flushing.is_alive()  # blocked on Redis, not us
        finally:
            os.kill(server.pid, signal.SIGCONT)
        flushing.join(PATIENCE)
        assert active.count() == 1
        client.close()


def test_closing_the_estimate_waits_for_its_flush_and_starts_no_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """close() returns only once the running flush is done (closing the client under it
    raised in the flush's thread), and a touch after it adds nothing."""
    monkeypatch.setattr("api.http.metrics.FLUSH_EVERY", 0.0)
    with EmbeddedRedis(tmp_path, appendonly=False) as server:
        client = redis.Redis.from_url(server.url)
        active = ActiveGames(client, Counter("errors", "errors", ["error"],
                                             registry=CollectorRegistry()))
        assert server.pid is not None
        os.kill(server.pid, signal.SIGSTOP)
        try:
            active.touch("g1")
            closer = threading.Thread(target=active.close)
            closer.start()
            closer.join(0.5)
            assert closer.is_alive(), "close() did not wait for the flush"
        finally:
            os.kill(server.pid, signal.SIGCONT)
        closer.join(PATIENCE)
        assert not closer.is_alive()
        flushed = active.flushing()
        active.touch("g2")
        assert active.flushing() is flushed  # no flush started after close()
        assert active.count() == 1
        client.close()
