"""The ``sixtysix`` command: ``sixtysix serve`` runs the API, ``sixtysix play`` plays a match
against the computer in the terminal, ``sixtysix replay RECORD`` checks a record of play
(:mod:`engine.replay`; ``--show`` prints its hands).

A subcommand is a function that adds its parser and sets ``run``; list it in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from types import FrameType
from typing import TypeAlias

from api import arena
from api.client import ApiError, SeatSpec, SixtySixClient, View
from api.local import LocalServer
from api.redis_server import EmbeddedRedis
from api.terminal import (
    Names,
    parse_choice,
    render_actions,
    render_event,
    render_result,
    render_view,
)
from engine import EngineError, replay

GUNICORN_CONF = Path(__file__).resolve().parent.parent / "deploy" / "gunicorn.conf.py"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8066
#: Seconds a long-poll waits for another seat's move (the server's maximum).
POLL_WAIT = 30

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


# --------------------------------------------------------------------------- serve


def add_serve(sub: Subparsers) -> None:
    p = sub.add_parser("serve", help="run the API with gunicorn (deploy/gunicorn.conf.py)",
                       description="Run the API with gunicorn. Without REDIS_URL an embedded "
                       "redis-server with its append-only file under --data-dir is started and "
                       "stopped with it.")
    p.add_argument("--host", help=f"interface to bind (default {DEFAULT_HOST}, "
                   "or SIXTYSIX_BIND)")
    p.add_argument("--port", type=int, help=f"port (default {DEFAULT_PORT}, or SIXTYSIX_BIND)")
    p.add_argument("--workers", type=int, help="gunicorn worker processes (or WEB_CONCURRENCY)")
    p.add_argument("--data-dir", type=Path, default=Path("var"),
                   help="directory of the embedded redis-server's data (default ./var)")
    p.set_defaults(run=serve)


def serve(args: argparse.Namespace) -> int:
    """Run gunicorn until it exits or this process gets SIGINT/SIGTERM; return its status."""
    env = dict(os.environ)
    if args.host or args.port:
        env["SIXTYSIX_BIND"] = f"{args.host or DEFAULT_HOST}:{args.port or DEFAULT_PORT}"
    if args.workers:
        env["WEB_CONCURRENCY"] = str(args.workers)
    with ExitStack() as stack:
        if not env.get("REDIS_URL"):
            redis = stack.enter_context(EmbeddedRedis(args.data_dir.resolve(), appendonly=True))
            env["REDIS_URL"] = redis.url
            print(f"sixtysix: embedded redis-server at {redis.url}, data in {args.data_dir}",
                  file=sys.stderr, flush=True)
        return run_gunicorn(env)
    raise AssertionError("unreachable")  # pragma: no cover


def run_gunicorn(env: dict[str, str]) -> int:
    """Run gunicorn as a child, passing SIGINT and SIGTERM on to it, and wait for it."""
    cmd = [sys.executable, "-m", "gunicorn", "--config", str(GUNICORN_CONF)]
    child = subprocess.Popen(cmd, env=env)

    def forward(signum: int, frame: FrameType | None) -> None:
        child.send_signal(signum)

    previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        return child.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# --------------------------------------------------------------------------- play


def add_play(sub: Subparsers) -> None:
    p = sub.add_parser("play", help="play a match against the computer in the terminal",
                       description="Play a match against the computer through the HTTP API. "
                       "Without --url a local server is started in this process.")
    p.add_argument("--level", default="random", help="computer level (see GET /v1/rules)")
    p.add_argument("--variant", default="sixty-six", help="variant (see GET /v1/rules)")
    p.add_argument("--url", help="API base URL, e.g. http://127.0.0.1:8066")
    p.add_argument("--match-points", type=int, help="game points that win the match (3, 7, 11)")
    p.add_argument("--name", default="You", help="your name at the table")
    p.set_defaults(run=play)


def play(args: argparse.Namespace) -> int:
    with ExitStack() as stack:
        url = args.url or stack.enter_context(LocalServer()).url
        client = stack.enter_context(SixtySixClient(url))
        return play_against_computer(client, args.variant, args.level, args.match_points,
                                     args.name, input, print)
    raise AssertionError("unreachable")  # pragma: no cover


def play_against_computer(
    client: SixtySixClient,
    variant: str,
    level: str,
    match_points: int | None,
    name: str,
    ask: Callable[[str], str],
    say: Callable[[str], None],
) -> int:
    """Create a game of ``variant`` with the reader in seat 0 and computers of ``level`` in the
    others, and play it to its end; 0 when it ended, 1 when the reader quit.
    """
    players = next((v["players"] for v in client.rules()["variants"] if v["name"] == variant),
                   None)
    if players is None:
        say(f"Unknown variant {variant!r}.")
        return 2
    seats: list[SeatSpec] = [{"kind": "human", "name": name}]
    seats += [{"kind": "computer", "level": level} for _ in range(players - 1)]
    game = client.create_game(variant, seats, match_points=match_points)
    me = game["seats"][0]
    names = {s["seat"]: s["name"] for s in game["seats"]}
    player = client.with_token(me["token"])
    say(f"Game {game['game_id']}: you are seat {me['seat']}.")
    return 0 if play_match(player, game["game_id"], names, ask, say) else 1


def play_match(
    client: SixtySixClient,
    game_id: str,
    names: Names,
    ask: Callable[[str], str],
    say: Callable[[str], None],
) -> bool:
    """Play the client's seat until the match is over (True) or the reader quits (False).

    Shows every new event, then the table and the numbered legal actions whenever it is the
    reader's turn; a choice is a number or an action text (``play:QH``); ``q`` quits.
    """
    after = 0
    view = client.view(game_id)
    me = view["seat"]
    while True:
        after = _show_events(client, game_id, after, me, names, say)
        if view["status"] in ("match_over", "aborted"):
            say(render_result(view, names))
            return True
        actions = view["legal_actions"]
        if not actions:
            view = client.view(game_id, after_version=view["version"], wait=POLL_WAIT)
            continue
        say("")
        say(render_view(view, names))
        say(render_actions(actions))
        moved = _move(client, game_id, view, ask, say)
        if moved is None:
            return False
        view = moved


def _show_events(client: SixtySixClient, game_id: str, after: int, me: int | None,
                 names: Names, say: Callable[[str], None]) -> int:
    """Say the events after number ``after``; return the number of the last one."""
    for event in client.all_events(game_id, after):
        line = render_event(event, me, names)
        if line:
            say(line)
        after = event["seq"]
    return after


def _move(client: SixtySixClient, game_id: str, view: View, ask: Callable[[str], str],
          say: Callable[[str], None]) -> View | None:
    """Ask until a choice is accepted; the new view, or ``None`` when the reader quits."""
    while True:
        try:
            text = ask("Your choice (number or action, q quits): ")
        except EOFError:
            text = "q"
        if text.strip().lower() in ("q", "quit", "exit"):
            return None
        action = parse_choice(text, view["legal_actions"])
        if action is None:
            say(f"Not a choice: {text.strip()!r}. Type a number from the list or e.g. play:QH.")
            continue
        try:
            return client.act(game_id, action)
        except ApiError as exc:
            if exc.status != 409:
                raise
            say(f"Refused: {exc.detail}")


# --------------------------------------------------------------------------- arena


def add_arena(sub: Subparsers) -> None:
    p = sub.add_parser("arena", help="play two computer levels against each other",
                       description="Play duplicate deals (each deal twice, seats swapped) "
                       "between two computer levels in this process and print per bot: game "
                       "points per hand, hands won with a 95% confidence interval, matches "
                       "won, mean and p95 time per move. See api/arena.py for the seating of "
                       "three- and four-hand.")
    p.add_argument("--a", default="strong",
                   help="level of bot a, or a variant of one with changed settings, e.g. "
                   "strong:close_hedge=2,max_samples=500 (default strong)")
    p.add_argument("--b", default="normal", help="level of bot b, as --a (default normal)")
    p.add_argument("--hands", type=int, default=200,
                   help="hands to play, even: hands/2 deals each played twice (default 200)")
    p.add_argument("--variant", default="sixty-six", help="variant (default sixty-six)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", dest="format", action="store_const", const="json",
                     default="text", help="print the figures as JSON")
    fmt.add_argument("--csv", dest="format", action="store_const", const="csv",
                     help="print the figures as CSV, one row per bot")
    p.add_argument("--plot", type=Path, metavar="PNG",
                   help="draw the cumulative game-point difference (needs matplotlib)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar on stderr")
    p.set_defaults(run=arena_command)


def arena_command(args: argparse.Namespace) -> int:
    try:
        result = arena.run(args.a, args.b, args.hands, args.variant, args.seed, args.jobs,
                           args.progress)
        arena.write(result, args.format, sys.stdout)
        if args.plot:
            arena.plot_cumulative(result, args.plot)
    except (arena.ArenaError, EngineError) as exc:
        print(f"sixtysix arena: {exc}", file=sys.stderr)
        return 2
    return 0


# --------------------------------------------------------------------------- main

# --------------------------------------------------------------------------- replay


def add_replay(sub: Subparsers) -> None:
    p = sub.add_parser("replay", help="replay a record of play through the engine and check it",
                       description="Replay a record (GET /v1/games/{id}/record, JSON or "
                       "?format=text) to the same settlements and result; exit 1 at the first "
                       "difference, 2 if it cannot be read.")
    replay.add_arguments(p)
    p.set_defaults(run=lambda args: replay.run(args.record, args.show))


COMMANDS: tuple[Callable[[Subparsers], None], ...] = (add_serve, add_play, add_arena,
                                                       add_replay)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sixtysix", description="Sixty-Six game server.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130
    except ApiError as exc:
        print(f"sixtysix: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
