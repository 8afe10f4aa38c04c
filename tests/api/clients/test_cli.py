"""The ``sixtysix`` command: ``play`` driven by scripted input, ``serve`` as a real process."""

from __future__ import annotations

import io
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
import requests

from api.cli import build_parser, main
from api.clients.client import SixtySixClient
from api.clients.play import play_against_computer, play_match
from api.games.store import GameStore
from api.runtime.redis_server import EmbeddedRedis
from engine import legal_actions
from tests.api.helpers import HEARTS_DECK

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
    assert (args.host, args.port, args.workers, args.data_dir) == (None, None, None, None)
    assert build_parser().parse_args(["serve", "--data", "e"]).data_dir == Path("e")
    args = build_parser().parse_args(["play"])
    assert (args.level, args.variant, args.url, args.match_points, args.point_counter) == (
        "normal", "sixty-six", None, None, True)
    args = build_parser().parse_args(["play", "--game", "g1", "--token=-T0k", "--url", "u"])
    assert (args.game, args.token) == ("g1", "-T0k")
    with pytest.raises(SystemExit):
        build_parser().parse_args([])


@pytest.mark.parametrize("pure", ["1", None])
def test_version_names_the_engine_path(pure: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SIXTYSIX_PURE"}
    if pure is not None:
        env["SIXTYSIX_PURE"] = pure
    done = subprocess.run([sys.executable, "-m", "api.cli", "--version"], env=env,
                          capture_output=True, text=True, check=True)
    named = re.fullmatch(r"sixtysix \S+ \(engine: (.*); search core: (.*)\)\n", done.stdout)
    assert named is not None
    # which one the build gives without SIXTYSIX_PURE: tests/engine/test_native.py and
    # tests/engine/ai/test_native_core.py
    assert (named[1] == "pure Python") if pure else (named[1] in ("pure Python", "compiled, mypyc"))
    if pure:
        assert named[2] == "Python (SIXTYSIX_PURE is set)"
    else:
        assert named[2] == "native C" or named[2].startswith("Python; native core ")


#: A line that tells who won the match (or set): said once at the end of a game.
RESULT = re.compile(r"^(\*\*\* .* won the (match|set)\b.*|.* won \(\d+:\d+\)\.)$")


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
            return next(c for c in ("AC", "TC", "KC", "QC") if c not in hand)
        if calls == 4:
            return "hint"
        if calls == 5:  # a bare card code of the hand
            return listed(r"^Your hand: (\S+)")
        return listed(r"^  1\) (\S+)$") if calls % 2 else "1"  # by text and by number

    with SixtySixClient(live_url) as client:
        code = play_against_computer(client, "sixty-six", "random", 3, "Ann", ask, lines.append,
                                     settings={"point_counter": True})
    out = "\n".join(lines)
    assert code == 0
    assert "Not a choice: 'what?'" in out
    assert "Not a choice: '99'" in out
    assert re.search(r"^Refused: you do not hold [ATKQ]C$", out, re.MULTILINE)
    assert "Your hand: " in out and "Trump: " in out and "talon: 12 cards" in out
    assert re.search(r"^Hint \(strong computer\): \S+\n  .+\n  expected game points: ", out,
                     re.MULTILINE)
    assert "Hand 1 is now marked as hinted for you" in out
    assert "You took a hint in this hand" in out
    assert re.search(r"^Your points: \d+ \(tricks \d+, melds \d+", out, re.MULTILINE)
    assert re.search(r"took the trick \S+ \S+ for \d+ points with ", out)
    assert re.search(r"^Hand over: .* won [123] game points? \(", out, re.MULTILINE)
    assert re.search(r"^  You: tricks \d+.* = \d+$", out, re.MULTILINE)
    said = out.splitlines()
    assert [x for x in said if RESULT.match(x)] == [said[-1]]  # the result once, at the end
    assert re.match(r"^\*\*\* (You|Computer \(random\)) won the match \d+:\d+\. \*\*\*$",
                    lines[-1])


def test_play_lists_the_actions_in_the_order_of_the_hand(
        live_url: str, redis_client: redis.Redis) -> None:
    lines: list[str] = []
    ask, _ = _scripted([])
    with SixtySixClient(live_url) as client:  # forehand: every card of the hand may be led
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "computer"}],
                                  deck=HEARTS_DECK, first_dealer=1)
        me = client.with_token(game["seats"][0]["token"])
        assert not play_match(me, game["game_id"], ask, lines.append)
    said = "\n".join(lines).splitlines()
    assert "You are dealt KH QH JC 9C AS TS." in said  # trumps (H) first, then C S H D
    assert "Your hand: KH QH JC 9C AS TS" in said
    listed = [x.split(") ")[1] for x in said if re.match(r"^  \d+\) ", x)]
    assert listed == ["play:KH", "play:QH", "play:JC", "play:9C", "play:AS", "play:TS",
                      "meld:H", "close"]


def test_say_sends_a_chat_message_and_others_are_shown(
        live_url: str, redis_client: redis.Redis) -> None:
    lines: list[str] = []
    ask, prompts = _scripted(["say   Hello, Bob  ", "say", "SAY two words", "q"])
    with SixtySixClient(live_url) as client:
        game = client.create_game(seats=[{"kind": "human", "name": "Ann"},
                                         {"kind": "human", "name": "Bob"}],
                                  deck=HEARTS_DECK, first_dealer=1)
        ann, bob = (client.with_token(s["token"]) for s in game["seats"])
        bob.chat(game["game_id"], "Hi Ann")
        assert not play_match(ann, game["game_id"], ask, lines.append)
        said = [e["text"] for e in bob.all_events(game["game_id"]) if e["type"] == "chat"]
    assert said == ["Hi Ann", "Hello, Bob", "two words"]
    assert "[Bob] Hi Ann" in lines
    assert lines.count("[You] Hello, Bob") == 1 and "[You] two words" in lines
    assert any(line.startswith("Not sent: text: must not be empty") for line in lines)
    assert "say TEXT" in prompts[0]


def test_main_play_against_a_url_and_quit(live_url: str, redis_client: redis.Redis,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--url", live_url, "--variant", "schnapsen"]) == 1
    out = capsys.readouterr().out
    assert "Game " in out and "Your hand: " in out
    assert "Your choice (number, card, action, hint" in out
    assert redis_client.keys("sixtysix:game:*")


def test_main_play_starts_its_own_server(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--match-points", "3"]) == 1
    assert "Your hand: " in capsys.readouterr().out


def test_unknown_variant_is_refused_with_the_choices(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["play", "--variant", "skat"])
    assert exited.value.code == 2
    assert "invalid choice: 'skat' (choose from 'sixty-six', 'schnapsen'" in (
        capsys.readouterr().err)


def test_unknown_variant_of_the_server_is_reported(
        live_url: str, redis_client: redis.Redis) -> None:
    lines: list[str] = []
    with SixtySixClient(live_url) as client:
        assert play_against_computer(client, "skat", "random", None, "Ann", input,
                                     lines.append) == 2
    assert lines == ["Unknown variant 'skat'."]


@pytest.mark.parametrize(("argv", "why"), [
    (["--variant", "tausendeins", "--match-points", "3"],
     "--match-points is an option of sixty-six, schnapsen, three-hand, four-hand only"),
    (["--target-points", "300"], "--target-points is an option of tausendeins only"),
    (["--variant", "tausendeins", "--target-points", "99"],
     "--target-points must be an integer from 100 to 10001; got 99"),
])
def test_options_of_another_variant_are_refused(
        argv: list[str], why: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *argv]) == 2
    assert capsys.readouterr().err == f"sixtysix play: {why}\n"


def test_help_shows_defaults_and_choices() -> None:
    out = subprocess.run([sys.executable, "-m", "api.cli", "play", "--help"],
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])},
                         capture_output=True, text=True, check=True).stdout
    flat = " ".join(out.split())
    assert "--level {random,easy,normal,strong}" in flat
    assert "--variant {sixty-six,schnapsen,three-hand,four-hand,tausendeins}" in flat
    assert "--match-points {3,7,11}" in flat
    assert "--target-points 100-10001" in flat and "(default 1001)" in flat
    assert "computer level, weakest first (default: normal)" in flat
    assert "variant (default: sixty-six)" in flat
    assert "(default: None)" not in flat and "(default: False)" not in flat  # off switches
    assert "docs/rules.md" in flat  # where the rules are written down


def test_four_hand_names_the_computers_by_their_seats(
        live_url: str, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--url", live_url, "--variant", "four-hand"]) == 1
    out = capsys.readouterr().out
    match = re.search(r"^Match to \d+: (.*)$", out, re.MULTILINE)
    assert match, out
    assert [re.sub(r" \d+ \(\d+ to go\)$", "", p) for p in match.group(1).split(" · ")] == [
        "You", "West (normal)", "North (normal, partner)", "East (normal)"]


def test_resume_a_game_by_id_and_token(live_url: str, redis_client: redis.Redis,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    with SixtySixClient(live_url) as client:
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "computer"}],
                                  first_dealer=1, match_points=3)
        token = game["seats"][0]["token"]
        hand = client.with_token(token).view(game["game_id"])["hand"]
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert main(["play", "--url", live_url, f"--game={game['game_id']}",
                 f"--token={token}"]) == 1
    out = capsys.readouterr().out
    assert f"Game {game['game_id']}: resumed." in out
    assert "You are dealt" not in out  # earlier events are not repeated
    shown = re.findall(r"^Your hand: (.*)$", out, re.MULTILINE)
    assert sorted(shown[0].split()) == sorted(hand)
    assert len(shown) == 2 and re.search(r"\): You played \S\S\.$", out, re.MULTILINE)


def test_the_printed_resume_command_resumes_that_game(
        live_url: str, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The line ``sixtysix play --url`` prints, run as it is printed (a new process, its
    words split as a shell splits them), takes up the same seat of the same game."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # quits at the first prompt
    assert main(["play", "--url", live_url, "--match-points", "3"]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("To resume it later: "))
    command = line.removeprefix("To resume it later: ")
    assert f"You left the game; it waits on the server. To resume it: {command}" in out
    words = shlex.split(command)
    assert words[:2] == ["sixtysix", "play"]
    game_id = re.search(r"^Game (\S+): you are seat 0\.$", out, re.MULTILINE)
    assert game_id, out
    store = GameStore(redis_client, 600)
    before = store.load(game_id.group(1))
    assert legal_actions(before.state, 0)  # the human is to move: the resumed terminal asks
    resumed = subprocess.run(
        [sys.executable, "-m", "api.cli", *words[1:]], input="1\n", capture_output=True,
        text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])})
    assert resumed.returncode == 1, resumed.stderr  # quit at end of input, after the move
    assert f"Game {game_id.group(1)}: resumed." in resumed.stdout
    said = re.search(r"You played (\S\S)\.$", resumed.stdout, re.MULTILINE)  # after a prompt
    assert said, resumed.stdout
    after = store.load(game_id.group(1))
    assert after.version > before.version
    played = [lg.event.data["card"] for lg in store.all_events(after)
              if lg.event.type == "card_played" and lg.event.data["seat"] == 0]
    assert played == [said.group(1)]  # the card the resumed terminal played, in that game


def test_resume_of_a_finished_game_says_the_result_once(
        live_url: str, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with SixtySixClient(live_url) as client:
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "computer"}],
                                  match_points=3, settings={"auto_continue": True})
        me = client.with_token(game["seats"][0]["token"])
        view = me.view(game["game_id"])
        while view["status"] != "match_over":
            view = me.act(game["game_id"], view["legal_actions"][0])
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--url", live_url, f"--game={game['game_id']}",
                 f"--token={game['seats'][0]['token']}"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [x for x in lines if RESULT.match(x)] == [lines[-1]]
    assert re.fullmatch(r"(You|Computer \(random\)) won \(\d+:\d+\)\.", lines[-1])


def test_resume_needs_token_and_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "abc"]) == 2
    assert main(["play", "--game", "abc", "--token=-x"]) == 2
    assert "--game needs --token and --url" in capsys.readouterr().err
    assert main(["play", "--resume"]) == main(["play", "--lobby", "--resume=t1"]) == 2
    assert capsys.readouterr().err == 2 * ("sixtysix play: --resume needs --lobby and --url "
                                           "(the server the table is on)\n")


# --------------------------------------------------------------------------- serve


#: The stderr lines of each started ``sixtysix serve`` (by pid) read up to its API line.
_HEADS: dict[int, list[str]] = {}


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
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", "0", "--workers", "1",
             "--data-dir", str(tmp_path / "var")],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        started.append(process)
        assert process.stderr is not None
        head = _HEADS.setdefault(process.pid, [])
        for line in process.stderr:  # the free port it bound, as its API line names it
            head.append(line)
            if (named := re.match(r"sixtysix: API on (http://\S+);", line)) is not None:
                break
        else:
            raise AssertionError("sixtysix serve exited before naming its address")
        url = named.group(1)
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
    """SIGTERM, then all the process wrote to stderr (the lines read at its start too)."""
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    return "".join(_HEADS.pop(process.pid, [])) + err


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
