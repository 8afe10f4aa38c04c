"""The ``sixtysix`` command: ``play`` driven by scripted input, ``serve`` as a real process."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
import requests

from api.cli import build_parser, main, play_against_computer
from api.client import SixtySixClient
from api.redis_server import EmbeddedRedis

#: Attempts, 0.1 s apart, to reach a starting server (a bound, not a performance limit).
START_ATTEMPTS = 300


def _scripted(answers: list[str]) -> tuple[Callable[[str], str], list[str]]:
    """An ``input`` giving ``answers`` in turn, then end of input; and the prompts it saw."""
    queue = list(answers)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if not queue:
            raise EOFError
        return queue.pop(0)

    return ask, prompts


def test_parser_knows_serve_and_play() -> None:
    args = build_parser().parse_args(
        ["serve", "--host", "0.0.0.0", "--port", "9000", "--workers", "2", "--data-dir", "d"])
    assert (args.command, args.host, args.port, args.workers, args.data_dir) == (
        "serve", "0.0.0.0", 9000, 2, Path("d"))
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.workers, args.data_dir) == (None, None, None, Path("var"))
    args = build_parser().parse_args(["play"])
    assert (args.level, args.variant, args.url, args.match_points) == (
        "random", "sixty-six", None, None)
    with pytest.raises(SystemExit):
        build_parser().parse_args([])


def test_play_a_whole_match_with_scripted_input(live_url: str, redis_client: redis.Redis) -> None:
    lines: list[str] = []
    calls = 0

    def listed(pattern: str) -> str:
        found = re.findall(pattern, "\n".join(lines), re.MULTILINE)
        assert found
        return str(found[-1])

    def ask(prompt: str) -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            return "what?"
        if calls == 2:
            return "99"
        if calls == 3:  # a card the reader does not hold: the server refuses it, with why
            hand = listed(r"^Your hand: (.*)$").split()
            return "play:" + next(c for c in ("AC", "TC", "KC", "QC") if c not in hand)
        return listed(r"^  1\) (\S+)$") if calls % 2 else "1"  # by text and by number

    with SixtySixClient(live_url) as client:
        code = play_against_computer(client, "sixty-six", "random", 3, "Ann", ask, lines.append)
    out = "\n".join(lines)
    assert code == 0
    assert "Not a choice: 'what?'" in out
    assert "Not a choice: '99'" in out
    assert re.search(r"^Refused: .+", out, re.MULTILINE)
    assert "Your hand: " in out and "Trump: " in out and "talon: 12 cards" in out
    assert re.search(r"took the trick \S+ \S+ for \d+ points with ", out)
    assert re.search(r"^Hand over: .* won [123] game points? \(", out, re.MULTILINE)
    assert re.search(r"^  You: tricks \d+.* = \d+$", out, re.MULTILINE)
    assert re.search(r"^(You|Computer \(random\)) won \(\d+:\d+\)\.$", lines[-1])


def test_main_play_against_a_url_and_quit(live_url: str, redis_client: redis.Redis,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    ask, prompts = _scripted(["q"])
    monkeypatch.setattr("builtins.input", ask)
    assert main(["play", "--url", live_url, "--variant", "schnapsen"]) == 1
    out = capsys.readouterr().out
    assert "Game " in out and "Your hand: " in out
    assert prompts and "number or action" in prompts[0]
    assert redis_client.keys("sixtysix:game:*")


def test_main_play_starts_its_own_server(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    ask, _ = _scripted([])
    monkeypatch.setattr("builtins.input", ask)
    assert main(["play", "--match-points", "3"]) == 1
    assert "Your hand: " in capsys.readouterr().out


def test_unknown_variant_is_reported(live_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--url", live_url, "--variant", "skat"]) == 2
    assert "Unknown variant 'skat'" in capsys.readouterr().out


# --------------------------------------------------------------------------- serve


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_until_up(url: str, process: subprocess.Popen[str]) -> None:
    for _ in range(START_ATTEMPTS):
        assert process.poll() is None, "sixtysix serve exited early"
        try:  # the socket is bound before a worker answers: a read may time out meanwhile
            if requests.get(f"{url}/healthz", timeout=2).ok:
                return
        except (requests.ConnectionError, requests.Timeout):
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} did not come up")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., tuple[str, subprocess.Popen[str]]]]:
    """Starts ``sixtysix serve`` processes; each is stopped with SIGTERM at the end."""
    started: list[subprocess.Popen[str]] = []

    def start(env: dict[str, str]) -> tuple[str, subprocess.Popen[str]]:
        port = _free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--workers", "1",
             "--data-dir", str(tmp_path / "var")],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        started.append(process)
        url = f"http://127.0.0.1:{port}"
        _wait_until_up(url, process)
        return url, process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()
        assert process.stderr is not None
        process.stderr.close()


def _stop(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    return err


def _env_without_redis() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "REDIS_URL"}


def test_serve_runs_embedded_redis_and_keeps_games_across_restarts(serve: Callable[
        ..., tuple[str, subprocess.Popen[str]]], tmp_path: Path) -> None:
    url, process = serve(_env_without_redis())
    with SixtySixClient(url) as client:
        assert client.health() == {"status": "ok"}
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "computer"}])
        token = game["seats"][0]["token"]
        before = client.with_token(token).view(game["game_id"])
    err = _stop(process)
    found = re.search(r"embedded redis-server at (redis://\S+)", err)
    assert found, err
    with pytest.raises(redis.ConnectionError):  # stopped together with gunicorn
        redis.Redis.from_url(found.group(1), socket_connect_timeout=2).ping()
    assert list((tmp_path / "var").rglob("appendonly*"))

    url, process = serve(_env_without_redis())
    with SixtySixClient(url, token) as client:
        assert client.view(game["game_id"])["hand"] == before["hand"]
    _stop(process)


def test_serve_uses_redis_url(serve: Callable[..., tuple[str, subprocess.Popen[str]]],
                              redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    url, process = serve({**os.environ, "REDIS_URL": redis_server.url})
    with SixtySixClient(url) as client:
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "computer"}])
    assert redis_client.keys(f"sixtysix:game:*{game['game_id']}*")
    assert "embedded" not in _stop(process)
