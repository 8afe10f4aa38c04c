"""``sixtysix serve`` as a real process: where it says it is, a busy port, ``--version``, the
embedded Redis' memory cap and its supervision (restarted when killed, games kept), the
archive of finished games beside it."""

from __future__ import annotations

import errno
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import tomllib
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from sqlalchemy import create_engine, select

from api.archive.schema import finished_games
from api.clients.client import SixtySixClient
from api.runtime.redis_server import EmbeddedRedis
from api.runtime.serve import (
    ARCHIVE_FILE,
    DEATH_WINDOW,
    DEFAULT_PORT,
    MAX_DEATHS,
    RedisSupervisor,
    ServeError,
    data_path,
    migrate,
)
from tests.api.serving import (
    PATIENCE,
    ROOT,
    Served,
    alive,
    answers,
    family,
    launch,
    serve_env,
    stop,
    up,
    worker_pids,
)
from tests.waiting import until


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """Starts ``sixtysix serve`` on a free port (extra arguments appended); stopped at the
    end."""
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str, env: dict[str, str] | None = None, port: int = 0) -> Served:
        served = launch(tmp_path, len(started), *args, env=env, port=port)
        started.append(served.process)
        return up(served)

    yield start
    for process in started:
        stop(process)


def _ready(url: str) -> int:
    return requests.get(f"{url}/readyz", timeout=10).status_code


def _redis_pid(url: str) -> int:
    client = redis.Redis.from_url(url, socket_timeout=2)
    try:
        return int(client.info("server")["process_id"])
    finally:
        client.close()


def _restarted_pid(url: str, old: int, served: Served) -> int:
    """The pid of the redis-server that replaced ``old``, once the supervisor says it is back
    (a server killed while the supervisor still starts it is a failed start, not a death)."""
    pids: list[int] = []
    back = served.err().count(f"embedded redis-server is back at {url}")

    def new_pid() -> bool:
        assert served.process.poll() is None, served.err()  # it did not restart: say why
        if served.err().count(f"embedded redis-server is back at {url}") == back:
            return False
        try:
            pids.append(_redis_pid(url))
        except redis.RedisError:
            return False
        return pids[-1] != old

    until(new_pid, "the embedded redis-server is restarted", PATIENCE)
    return pids[-1]


def test_version_is_the_package_version() -> None:
    expected = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    out = subprocess.run([sys.executable, "-m", "api.cli", "--version"], env=serve_env(),
                         capture_output=True, text=True, check=True).stdout
    assert out.strip().startswith(f"sixtysix {expected} (engine: ")  # and which engine runs


def test_version_imports_nothing_of_the_service() -> None:
    """``--version`` loads the engine (it names which one runs) and no web, Redis, queue or
    gevent module: it answered in 2.3 s when the command imported everything up front."""
    code = ("import runpy, sys\nsys.argv = ['sixtysix', '--version']\ntry:\n"
            "    runpy.run_module('api.cli', run_name='__main__')\nexcept SystemExit:\n"
            "    print(' '.join(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], env=serve_env(), capture_output=True,
                          text=True, timeout=60, check=True)
    version, loaded = done.stdout.splitlines()
    assert version.startswith("sixtysix ")
    modules = set(loaded.split())
    assert "engine.native" in modules
    assert {m.partition(".")[0] for m in modules} & {"flask", "werkzeug", "redis", "rq",
                                                     "gevent", "requests", "gunicorn"} == set()


def test_serve_says_where_the_api_and_docs_are_and_how_to_stop(
        serve: Callable[..., Served]) -> None:
    served = serve()
    line = next(x for x in served.err().splitlines() if " docs on " in x)
    assert line == (f"sixtysix: API on {served.url}; docs on {served.url}/docs and "
                    f"{served.url}/redoc; play in the browser on {served.url}/play; "
                    "press Ctrl-C to stop")


def test_port_0_serves_on_a_free_port_the_line_names(serve: Callable[..., Served]) -> None:
    served = serve()  # --port 0; the fixture found it answering where the line says
    port = int(served.url.rpartition(":")[2])
    assert port not in (0, DEFAULT_PORT)


def test_the_console_shows_a_readable_line_per_request_unless_json_is_asked_for(
        serve: Callable[..., Served], tmp_path: Path) -> None:
    """One line per request as gunicorn writes its own (it was a JSON object per request);
    ``--log-format json`` (or ``SIXTYSIX_LOG_FORMAT=json``) for a log collector."""
    readable = serve("--computer-workers", "0")
    requests.get(f"{readable.url}/v1/rules", timeout=10)
    line = r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\] GET /v1/rules 200 \d+\.\d ms$"
    until(lambda: re.search(line, readable.err(), re.MULTILINE), "the request's line", PATIENCE)
    assert '"msg": "request"' not in readable.err()
    as_json = serve("--computer-workers", "0", "--log-format", "json",
                    "--data-dir", str(tmp_path / "json"))
    requests.get(f"{as_json.url}/v1/rules", timeout=10)
    until(lambda: '"path": "/v1/rules", "status": 200' in as_json.err(), "the JSON line", PATIENCE)


def test_serve_holds_its_port_from_before_redis_and_gunicorn_start(
        serve: Callable[..., Served], tmp_path: Path) -> None:
    """The port is bound by serve before anything starts and handed to gunicorn, so nobody
    can take it in between (a check that let it go again would lose this race)."""
    port = _free_port()
    log = tmp_path / "serve-0.log"
    taken: list[int] = []

    def try_to_take() -> None:
        with socket.socket() as rival:
            try:
                rival.bind(("127.0.0.1", port))
            except OSError as exc:
                taken.append(exc.errno)
                return
            taken.append(0)

    def redis_started() -> bool:
        if log.exists() and "embedded redis-server at" in log.read_text(errors="replace"):
            try_to_take()  # gunicorn is not started before this line
            return True
        return False

    watcher = threading.Thread(target=until, args=(redis_started, "redis started", PATIENCE))
    watcher.start()
    served = serve(port=port)
    watcher.join()
    assert taken == [errno.EADDRINUSE], served.err()
    assert answers(served)  # and gunicorn serves on it


def test_requests_before_a_worker_is_ready_are_answered_503_at_once(tmp_path: Path) -> None:
    """While no gunicorn worker has loaded the app (held here), every request is answered
    at once, 503 ``starting`` with ``Retry-After`` (they waited in the port's backlog for
    seconds); once one has, serve says it is ready, /readyz answers 200, and only then the
    computers' worker processes start (their imports slowed the web workers' start). The
    workers come with the app's modules imported (each imported them itself, at once)."""
    hold = tmp_path / "go"
    served = launch(tmp_path, 0, env=serve_env(
        GUNICORN_CMD_ARGS="--worker-class tests.api.runtime.held_worker.HeldWorker",
        SIXTYSIX_TEST_HOLD=str(hold)))
    try:
        until(lambda: served.listening() is not None, "serve names its address", PATIENCE)
        url = served.listening() or ""
        for path in ("/readyz", "/healthz", "/v1/rules"):
            answer = requests.get(f"{url}{path}", timeout=30)
            assert answer.status_code == 503, path
            assert answer.headers["Retry-After"] == "1"
            assert answer.headers["Content-Type"] == "application/problem+json"
            assert answer.json()["type"] == "https://sixtysix.dev/problems/starting"
        page = requests.get(f"{url}/play", headers={"Accept": "text/html"}, timeout=30)
        assert page.status_code == 503 and page.headers["Content-Type"].startswith("text/html")
        assert '<meta http-equiv="refresh" content="1">' in page.text
        assert "ready in" not in served.err() and "for the computers" not in served.err()
        # the app's modules were imported once, by gunicorn's master, before it forked
        preloaded = tmp_path / "go.preloaded"
        until(preloaded.exists, "a held worker runs", PATIENCE)
        until(lambda: preloaded.read_text() != "", "it says what it found", PATIENCE)
        assert preloaded.read_text() == "True"
        hold.touch()
        until(lambda: _ready(url) == 200, "/readyz answers 200", PATIENCE)
        until(lambda: "for the computers" in served.err(), "the worker pool starts", PATIENCE)
        lines = served.err().splitlines()
        ready = next(i for i, x in enumerate(lines) if re.fullmatch(
            r"sixtysix: ready in \d+\.\d s", x))
        pool = lines.index("sixtysix: 1 worker process for the computers")
        assert ready < pool
    finally:
        stop(served.process)


def test_two_servers_share_no_control_socket(serve: Callable[..., Served],
                                             tmp_path: Path) -> None:
    """gunicorn 25.1+ opens a control socket at one path per user ($XDG_RUNTIME_DIR or
    ~/.gunicorn): a second server took over the first's. None is opened."""
    home, runtime = tmp_path / "home", tmp_path / "runtime"
    home.mkdir()
    runtime.mkdir()
    env = serve_env(HOME=str(home), XDG_RUNTIME_DIR=str(runtime))
    first = serve("--computer-workers", "0", "--data-dir", str(tmp_path / "a"), env=env)
    second = serve("--computer-workers", "0", "--data-dir", str(tmp_path / "b"), env=env)
    assert answers(first) and answers(second)
    assert list(home.rglob("*")) == list(runtime.rglob("*")) == []
    assert "Control socket" not in first.err() + second.err()


def test_a_port_out_of_range_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "serve", "--port", "70000",
         "--data-dir", str(tmp_path / "var")],
        env=serve_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "sixtysix: port 70000 is not a port (0 to 65535; 0: a free one); choose another "
        "with --port"]
    assert not (tmp_path / "var").exists()


def test_busy_port_is_one_line_naming_port(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "api.cli", "serve", "--port", str(port),
             "--data-dir", str(tmp_path / "var")],
            env=serve_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"sixtysix: port {port} on 127.0.0.1 is in use; choose another with --port"]
    assert not (tmp_path / "var").exists()  # nothing was started


def test_embedded_redis_is_capped_with_noeviction(serve: Callable[..., Served]) -> None:
    served = serve("--redis-maxmemory", "64mb")
    client = redis.Redis.from_url(served.redis_url())
    try:
        assert client.config_get("maxmemory") == {"maxmemory": str(64 * 1024 * 1024)}
        assert client.config_get("maxmemory-policy") == {"maxmemory-policy": "noeviction"}
    finally:
        client.close()


def test_default_cap_comes_from_the_environment(serve: Callable[..., Served]) -> None:
    served = serve(env=serve_env(SIXTYSIX_REDIS_MAXMEMORY="32mb"))
    client = redis.Redis.from_url(served.redis_url())
    try:
        assert client.config_get("maxmemory") == {"maxmemory": str(32 * 1024 * 1024)}
    finally:
        client.close()
    assert "maxmemory 32mb (noeviction)" in served.err()


def test_a_killed_embedded_redis_is_restarted_with_its_games(
        serve: Callable[..., Served]) -> None:
    served = serve()
    url = served.redis_url()
    with SixtySixClient(served.url) as client:
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "computer"}])
        me = client.with_token(game["seats"][0]["token"])
        before = _my_turn(me, me.view(game["game_id"]))
        old = _redis_pid(url)
        os.kill(old, signal.SIGKILL)
        _restarted_pid(url, old, served)
        until(lambda: _ready(served.url) == 200, "/readyz answers 200 again", PATIENCE)
        assert me.view(game["game_id"])["hand"] == before["hand"]  # reloaded from the AOF
        after = me.act(game["game_id"], before["legal_actions"][0])
        assert after["version"] > before["version"]
    err = served.err()
    assert "embedded redis-server exited with status -9; restarting it on port" in err
    assert f"embedded redis-server is back at {url}" in err


def _my_turn(me: SixtySixClient, view: dict[str, Any]) -> dict[str, Any]:
    """``view`` once this seat has a move or the match is over. Serve's workers run at
    SCHED_IDLE, so under other load the computer may answer after a write's bounded wait:
    wait for its moves as any client would, as long as each comes within PATIENCE."""
    game_id = view["game_id"]
    while not view["legal_actions"] and view["status"] != "match_over":
        seen = view["version"]
        view = until(partial(_newer, me, game_id, seen),
                     f"computer move after version {seen}", PATIENCE)
    return view


def _newer(me: SixtySixClient, game_id: str, version: int) -> dict[str, Any] | None:
    """The game's view once its version is past ``version`` (a long-poll), else ``None``."""
    newer = me.view(game_id, after_version=version, wait=10)
    return newer if newer["version"] > version else None


def _play_match(url: str, level: str) -> dict[str, Any]:
    with SixtySixClient(url) as client:
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "computer", "level": level}],
                                  match_points=3)
        me = client.with_token(game["seats"][0]["token"])
        view = _my_turn(me, me.view(game["game_id"]))
        while view["status"] != "match_over":
            view = me.act(game["game_id"], view["legal_actions"][0], if_match=view["version"])
            view = _my_turn(me, view)
        return view


def test_serve_plays_the_computer_with_its_workers(serve: Callable[..., Served]) -> None:
    served = serve()
    until(lambda: "sixtysix: 1 worker process for the computers" in served.err(),
          "the worker pool starts once gunicorn is ready", PATIENCE)
    assert len(worker_pids(served)) == len(worker_pids(served, scheduler=True)) == 1
    assert _play_match(served.url, "easy")["match"]["winner"] is not None


def test_serve_archives_a_finished_match_in_its_data_directory(
        serve: Callable[..., Served], tmp_path: Path) -> None:
    """Without ``DATABASE_URL`` the archive is a SQLite file beside the embedded Redis' data;
    a finished match lands there by the workers' sweep, once."""
    served = serve()
    path = tmp_path / "var" / ARCHIVE_FILE
    assert f"archive of finished games: sqlite:///{path}" in served.err()
    game_id = _play_match(served.url, "random")["game_id"]
    engine = create_engine(f"sqlite:///{path}")
    try:
        def archived() -> list[str]:
            with engine.connect() as conn:
                return list(conn.execute(select(finished_games.c.game_id)).scalars())

        until(lambda: archived() == [game_id], "the sweep archives the match", PATIENCE)
    finally:
        engine.dispose()


def _two_humans_to_the_end(url: str) -> str:
    """A two-human match played over HTTP to its end (each seat's first legal action); its
    id."""
    with SixtySixClient(url) as client:
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "human"}],
                                  match_points=3)
        seats = [client.with_token(s["token"]) for s in game["seats"]]
        while True:
            views = [seat.view(game["game_id"]) for seat in seats]
            if views[0]["status"] in ("match_over", "aborted"):
                return str(game["game_id"])
            turn = next(i for i, v in enumerate(views) if v["legal_actions"])
            seats[turn].act(game["game_id"], views[turn]["legal_actions"][0],
                            if_match=views[turn]["version"])


def test_serve_without_worker_processes_archives_by_its_web_tier(
        serve: Callable[..., Served], tmp_path: Path) -> None:
    """With ``--computer-workers 0`` no worker process sweeps: a web process drains the
    archive's pending games (after its requests, in a thread of its own)."""
    served = serve("--computer-workers", "0", env=serve_env(SIXTYSIX_ARCHIVE_WEB_DRAIN="0.2"))
    game_id = _two_humans_to_the_end(served.url)
    engine = create_engine(f"sqlite:///{tmp_path / 'var' / ARCHIVE_FILE}")
    try:
        def archived() -> list[str]:
            assert _ready(served.url) == 200  # requests: each may start a drain
            with engine.connect() as conn:
                return list(conn.execute(select(finished_games.c.game_id)).scalars())

        until(lambda: archived() == [game_id], "the web tier archives the match", PATIENCE)
    finally:
        engine.dispose()


def test_a_killed_worker_process_is_restarted(serve: Callable[..., Served]) -> None:
    served = serve()
    until(lambda: len(worker_pids(served)) == 1, "one worker process runs", PATIENCE)
    [old] = worker_pids(served)
    os.kill(old, signal.SIGKILL)
    until(lambda: worker_pids(served) not in ([], [old]), "a new worker process runs", PATIENCE)
    assert f"worker process {old} exited with status -9; restarting it" in served.err()
    assert _play_match(served.url, "random")["status"] == "match_over"


def test_a_redis_that_keeps_dying_stops_the_server(serve: Callable[..., Served]) -> None:
    served = serve()
    url = served.redis_url()
    pid = _redis_pid(url)
    for _ in range(MAX_DEATHS - 1):
        os.kill(pid, signal.SIGKILL)
        pid = _restarted_pid(url, pid, served)
    os.kill(pid, signal.SIGKILL)
    assert served.process.wait(60) == 1
    # the Redis rule, and only it, stopped the server: the workers, which lose the same Redis
    # meanwhile, are restarted however often they die (they raced the Redis rule with their own)
    lines = [x for x in served.err().splitlines() if x.startswith("sixtysix: ")]
    assert lines[-2].startswith(
        f"sixtysix: embedded redis-server died {MAX_DEATHS} times within {DEATH_WINDOW:g} s"), lines
    assert lines[-1] == "sixtysix: stopped (exit status 1)"
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{served.url}/healthz", timeout=2)


def test_readyz_is_503_while_redis_is_down(serve: Callable[..., Served],
                                            tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "own", appendonly=False) as own:
        served = serve(env=serve_env(REDIS_URL=own.url))
        assert _ready(served.url) == 200
    assert _ready(served.url) == 503
    assert requests.get(f"{served.url}/healthz", timeout=10).status_code == 200


def _kill(server: EmbeddedRedis) -> None:
    assert server.pid is not None
    os.kill(server.pid, signal.SIGKILL)
    until(lambda: not server.running, "the killed redis-server is gone", PATIENCE)


def test_supervisor_counts_deaths_within_the_window(tmp_path: Path) -> None:
    now = [0.0]
    lines: list[str] = []
    with EmbeddedRedis(tmp_path, appendonly=True) as server:
        redis.Redis.from_url(server.url).set("sixtysix:game:x", "kept")
        supervisor = RedisSupervisor(server, lines.append, clock=lambda: now[0])
        assert supervisor.check() and not lines  # alive: nothing to do
        _kill(server)
        assert supervisor.check() and server.running
        now[0] = DEATH_WINDOW + 1  # the first death falls out of the window
        for _ in range(MAX_DEATHS - 1):
            _kill(server)
            assert supervisor.check() and server.running
        assert redis.Redis.from_url(server.url).get("sixtysix:game:x") == b"kept"
        _kill(server)
        assert not supervisor.check()
        assert not server.running
    assert len([x for x in lines if "restarting" in x]) == MAX_DEATHS
    assert lines[-1].startswith(f"embedded redis-server died {MAX_DEATHS} times")


def test_the_data_directory_comes_from_the_environment_and_is_named_in_full(
        tmp_path: Path) -> None:
    """Started from another working directory with ``SIXTYSIX_DATA_DIR``: the data is there,
    and the start line names its full path (and says it was empty)."""
    elsewhere, data = tmp_path / "elsewhere", tmp_path / "store"
    elsewhere.mkdir()
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", "0", "--workers", "1",
             "--computer-workers", "0"], cwd=elsewhere, env=serve_env(SIXTYSIX_DATA_DIR=str(data)),
            stdout=subprocess.DEVNULL, stderr=err)
    served = Served(process, "", log)
    try:
        until(lambda: served.listening() is not None, "serve names its address", PATIENCE)
        assert f", data in {data.resolve()} (new: empty), " in served.err()
        assert any(data.iterdir()) and not (elsewhere / "var").exists()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(60)


def test_the_data_path_is_the_flag_else_the_environment_else_var(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 ) -> None:
    monkeypatch.chdir(tmp_path)
    assert data_path(Path("given"), {"SIXTYSIX_DATA_DIR": "/env"}) == tmp_path / "given"
    assert data_path(None, {"SIXTYSIX_DATA_DIR": "/env/d"}) == Path("/env/d")
    assert data_path(None, {"SIXTYSIX_DATA_DIR": ""}) == tmp_path / "var"
    assert data_path(None, {}) == tmp_path / "var"


def _ends(served: Served) -> int:
    until(lambda: served.process.poll() is not None, "serve exits", PATIENCE)
    return served.process.wait()


def test_ctrl_c_stops_cleanly_with_a_closing_line(tmp_path: Path) -> None:
    """A Ctrl-C reaches the terminal's whole process group: serve, gunicorn's master and
    workers, the worker pool (gunicorn's quick exit raised SystemExit in a gevent greenlet,
    a traceback at every Ctrl-C)."""
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", "0", "--workers", "1",
             "--computer-workers", "1", "--data-dir", str(tmp_path / "var")],
            env=serve_env(), stdout=subprocess.DEVNULL, stderr=err, process_group=0)
    served = Served(process, "", log)
    try:
        up(served)
        until(lambda: len(worker_pids(served)) == 1, "its worker runs", PATIENCE)
        os.killpg(process.pid, signal.SIGINT)
        assert _ends(served) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    err = served.err()
    assert "Traceback" not in err, err
    assert err.splitlines()[-1] == "sixtysix: stopped (exit status 0)"


def test_a_stop_ends_open_streams_at_once(serve: Callable[..., Served]) -> None:
    """With a graceful timeout far beyond the patience, a stop that waited for the streams
    (one still read, one whose client has gone) would not end within it."""
    served = serve(env=serve_env(SIXTYSIX_GRACEFUL_TIMEOUT="3600",
                            SIXTYSIX_STREAM_HEARTBEAT="3600"))
    with SixtySixClient(served.url) as client:
        game = client.create_game(seats=[{"kind": "human"}, {"kind": "human"}])
    path = f"{served.url}/v1/games/{game['game_id']}/stream"
    gone = requests.get(path, stream=True, timeout=PATIENCE)
    next(gone.iter_content(chunk_size=None))
    gone.close()  # a browser that left /play
    read = requests.get(path, stream=True, timeout=PATIENCE)
    chunks = read.iter_content(chunk_size=None)
    assert b"event: view" in next(chunks)
    served.process.send_signal(signal.SIGTERM)
    assert b"".join(chunks) == b""  # the stream ends (its client resumes with Last-Event-ID)
    assert _ends(served) == 0


def test_a_killed_serve_leaves_no_process_behind(serve: Callable[..., Served]) -> None:
    """SIGKILL gives serve no chance to stop its children: each dies with it all the same
    (the embedded Redis is in a process group of its own), and the next start on the same
    data directory finds no stale server."""
    served = serve()
    until(lambda: len(worker_pids(served)) == len(worker_pids(served, True)) == 1,
          "the worker and the scheduler run", PATIENCE)
    children = family(served.process.pid)
    assert _redis_pid(served.redis_url()) in children
    served.process.kill()
    served.process.wait()
    try:
        until(lambda: not any(alive(p) for p in children), "every child of serve is gone",
              PATIENCE)
    finally:  # none left behind by this test, whatever it found
        for pid in filter(alive, children):
            os.kill(pid, signal.SIGKILL)
    again = serve()
    with SixtySixClient(again.url) as client:
        assert client.create_game(seats=[{"kind": "human"}, {"kind": "human"}])["game_id"]


def test_stalled_bodies_are_answered_408_and_closed(serve: Callable[..., Served]) -> None:
    """Each sends a head announcing 100 bytes, 10 of them, and stalls (they were held for
    ever); the read timeout answers each 408 problem+json and closes it."""
    served = serve(env=serve_env(SIXTYSIX_READ_TIMEOUT="1", SIXTYSIX_RATE_CREATE="off",
                            SIXTYSIX_RATE_ADDRESS="off"))
    host, port = served.url.removeprefix("http://").rsplit(":", 1)
    head = (f"POST /v1/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n{\"seats\": ").encode()
    sockets = [socket.create_connection((host, int(port)), timeout=PATIENCE) for _ in range(20)]
    try:
        for sock in sockets:
            sock.sendall(head)
        for sock in sockets:
            answer = b""
            while chunk := sock.recv(65536):  # until the server closes it
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 408 "), answer
            assert b"application/problem+json" in answer and b"request-timeout" in answer
    finally:
        for sock in sockets:
            sock.close()
    assert answers(served)


def test_serve_starts_with_its_archive_database_down(tmp_path: Path) -> None:
    """A PostgreSQL archive that does not answer is said, not fatal (the processes migrate it
    once it answers); a SQLite file that cannot be migrated stops the start."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed once the block ends: refused
    said: list[str] = []
    migrate(f"postgresql+psycopg://postgres@127.0.0.1:{port}/sixtysix", said.append)
    assert len(said) == 1 and "cannot be reached" in said[0], said
    (tmp_path / "not-a-database").write_bytes(b"\x00" * 4096)
    with pytest.raises(ServeError, match="cannot be migrated"):
        migrate(f"sqlite:///{tmp_path / 'not-a-database'}", said.append)
