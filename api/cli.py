"""The ``sixtysix`` command: ``sixtysix serve`` runs the API (and its workers), ``sixtysix
worker`` runs worker processes only (:mod:`api.worker.run`), ``sixtysix play`` plays a match
against the computer in the terminal (``--lobby``: against people, at a table; see
:mod:`api.clients.lobby_terminal`), ``sixtysix arena`` plays two computer levels against each other
(:mod:`api.arena`), ``sixtysix rating-seed`` rewrites a variant's entry of the levels' rating
seed (:mod:`api.ratings.seed_make`), ``sixtysix replay RECORD`` checks a record of play
(:mod:`engine.replay`; ``--show`` prints its hands).

A subcommand is a function that fills in its parser and sets ``run``; list it in
:data:`COMMANDS`. Only the parser of the command given is filled in, and each imports what it
needs itself: ``sixtysix --version`` loads the engine and nothing of the service (no Flask,
Redis, RQ or gevent), ``sixtysix serve`` nothing of the clients.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from api.arena import ArenaResult
    from engine.rules import Option

#: Your name in a game against the computer when ``--name`` is not given.
COMPUTER_GAME_NAME = "You"


# --------------------------------------------------------------------------- serve


def _maxmemory(text: str) -> str:
    """A Redis memory size: digits with an optional unit (``b``, ``kb``, ``mb``, ``gb``...)."""
    if not re.fullmatch(r"\d+(b|k|kb|m|mb|g|gb)?", text.strip().lower()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a Redis size such as 256mb or 1gb")
    return text.strip().lower()


def add_serve(p: argparse.ArgumentParser) -> None:
    from api.runtime.serve import (
        DEFAULT_HOST,
        DEFAULT_LOG_FORMAT,
        DEFAULT_PORT,
        DEFAULT_REDIS_MAXMEMORY,
    )

    p.description = ("Run the API with gunicorn. Without REDIS_URL an embedded redis-server "
                     "with its append-only file under --data is started, restarted when it "
                     "dies, and stopped with it.")
    p.add_argument("--host", help=f"interface to bind (else SIXTYSIX_BIND, else {DEFAULT_HOST})")
    p.add_argument("--port", type=int,
                   help=f"port (else SIXTYSIX_BIND, else {DEFAULT_PORT}; 0: a free one, "
                   "named in the API line)")
    p.add_argument("--workers", type=int,
                   help="gunicorn worker processes (else WEB_CONCURRENCY, else cores + 1, "
                   "at most 9)")
    p.add_argument("--data", "--data-dir", dest="data_dir", type=Path, metavar="DIR",
                   help="directory of the embedded redis-server's data, named in full at "
                   "start (else SIXTYSIX_DATA_DIR, else ./var)")
    p.add_argument("--redis-maxmemory", type=_maxmemory,
                   default=os.environ.get("SIXTYSIX_REDIS_MAXMEMORY") or DEFAULT_REDIS_MAXMEMORY,
                   help="memory cap of the embedded redis-server (noeviction: a full store "
                   "refuses new writes; 0: no cap); default %(default)s "
                   "(SIXTYSIX_REDIS_MAXMEMORY, else 256mb)")
    p.add_argument("--computer-workers", type=int, metavar="N",
                   help="worker processes playing the computers, hints and analyses (else "
                   "SIXTYSIX_WORKERS, else one per core; 0: none, run `sixtysix worker` "
                   "elsewhere)")
    p.add_argument("--log-format", choices=("text", "json"),
                   help="the app's log lines: text, one readable line per request, or json, "
                   f"one JSON object per line (else SIXTYSIX_LOG_FORMAT, else "
                   f"{DEFAULT_LOG_FORMAT})")
    p.set_defaults(run=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    from api.runtime.serve import ServeOptions, serve

    return serve(ServeOptions(args.host, args.port, args.workers, args.data_dir,
                              args.redis_maxmemory, args.computer_workers, args.log_format))


# --------------------------------------------------------------------------- worker


def add_worker(p: argparse.ArgumentParser) -> None:
    p.description = ("Run worker processes that take computer moves, hints and analyses (and "
                     "delayed jobs) from the task queue on QUEUE_URL (default REDIS_URL) and "
                     "play them on the games in REDIS_URL; a dead process is restarted. Stop "
                     "with Ctrl-C or SIGTERM (each finishes its job).")
    p.add_argument("--processes", type=int, default=None, metavar="N",
                   help="worker processes (else SIXTYSIX_WORKERS, else one per core)")
    p.set_defaults(run=worker_command)


def worker_command(args: argparse.Namespace) -> int:
    from api.runtime.redis_connect import RedisURLError
    from api.runtime.serve import ServeError, default_workers, say_stderr
    from api.runtime.supervise import SettingError
    from api.worker.queue import QueueConfigError, TaskQueue
    from api.worker.run import queue_url, restart_cap, run_pool

    try:
        count = default_workers() if args.processes is None else args.processes
        restart_cap(os.environ)
    except (ServeError, SettingError) as exc:
        say_stderr(str(exc))
        return 2
    if count < 1:
        say_stderr("--processes must be at least 1")
        return 2
    try:  # a queue RQ cannot use is one line, not workers dying at start
        TaskQueue.from_url(queue_url(os.environ), 1.0).close()
    except (QueueConfigError, RedisURLError) as exc:
        say_stderr(str(exc))
        return 2
    return run_pool(count, dict(os.environ), say_stderr)


# --------------------------------------------------------------------------- play


class _DefaultsFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows ``(default: X)`` for options that have a default other than ``None`` or
    ``False``."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:  # unset, or an off switch
            return action.help
        return super()._get_help_string(action)


def add_play(p: argparse.ArgumentParser) -> None:
    from api.clients.lobby_terminal import add_lobby_arguments
    from engine.ai import LEVELS
    from engine.games import NAMES
    from engine.rules import OPTIONS
    from engine.tausendeins import NAME as TAUSENDEINS
    from engine.tausendeins import OPTIONS as T1001_OPTIONS

    p.formatter_class = _DefaultsFormatter
    p.description = ("Play a match against the computer through the HTTP API, or resume a "
                     "seat with --game and --token; with --lobby, play people at a table. "
                     "Choose by number, card (TH), action (play:TH, meld:H, close) or "
                     "'hint'; q quits, also while waiting for the others.")
    p.epilog = ("The rules of every variant and option: docs/rules.md in the repository, or "
                "/play#how-to-play on a running server (GET /v1/rules lists the options).")
    match_points = [int(str(v)) for v in OPTIONS["match_points"].allowed]
    p.add_argument("--level", default="normal", choices=list(LEVELS),
                   help="computer level, weakest first")
    p.add_argument("--variant", default="sixty-six", choices=list(NAMES), help="variant")
    p.add_argument("--url", help="API base URL, e.g. http://127.0.0.1:8066 (default: a "
                   "server started in this process)")
    p.add_argument("--match-points", type=int, choices=match_points,
                   help="game points that win the match (default: the variant's; not "
                   f"{TAUSENDEINS})")
    low, high = T1001_OPTIONS["target_points"].allowed
    p.add_argument("--target-points", type=int, metavar=f"{low}-{high}",
                   help=f"{TAUSENDEINS}: the total that wins the game (default "
                   f"{T1001_OPTIONS['target_points'].default})")
    deck = OPTIONS["deck"]
    p.add_argument("--deck", type=int, choices=list(deck.allowed),
                   help=f"cards in the pack: 32 keeps the 7s and 8s ({', '.join(deck.variants)}; "
                   f"default {deck.default})")
    p.add_argument("--name", help=f"your name at the table (default: {COMPUTER_GAME_NAME}); "
                   "with --lobby: play as the player of this name saved for --url, made and "
                   "saved if there is none (one player per name; default: the one played "
                   "last, else asked)")
    p.add_argument("--point-counter", action=argparse.BooleanOptionalAction, default=True,
                   help="show each side's running points in the hand")
    p.add_argument("--game", help="resume this game (needs --url and --token)")
    p.add_argument("--token", help="your seat's token in --game (write --token=T: a token "
                   "may start with '-')")
    add_lobby_arguments(p)
    p.set_defaults(run=play)


def play(args: argparse.Namespace) -> int:
    from api.clients.client import ApiError

    try:
        return _play(args)
    except ApiError as exc:
        print(f"sixtysix: {exc}", file=sys.stderr)
        return 1


def _play(args: argparse.Namespace) -> int:
    from api.clients.client import SixtySixClient
    from api.clients.console import Console
    from api.clients.lobby_terminal import lobby_choice, play_lobby
    from api.clients.play import play_against_computer, resume
    from api.clients.player_tokens import PlayerTokens, config_dir
    from api.runtime.local import LocalServer

    if (args.game is None) != (args.token is None) or (args.game and not args.url):
        print("sixtysix play: --game needs --token and --url (the server the game is on)",
              file=sys.stderr)
        return 2
    if args.resume is not None and not (args.lobby and args.url):
        print("sixtysix play: --resume needs --lobby and --url (the server the table is on)",
              file=sys.stderr)
        return 2
    mismatch = _variant_mismatch(args)
    if mismatch:
        print(f"sixtysix play: {mismatch}", file=sys.stderr)
        return 2
    console = Console()
    with ExitStack() as stack:
        url = args.url or stack.enter_context(LocalServer()).url
        client = stack.enter_context(SixtySixClient(url))
        if args.lobby:  # a server of this process forgets its players: none to keep
            saved = PlayerTokens(config_dir()) if args.url else None
            return play_lobby(client, lobby_choice(args), console.ask, print, saved,
                              console.wait)
        if args.game:
            return resume(client.with_token(args.token), args.game, console.ask, print,
                          console.wait)
        return play_against_computer(
            client, args.variant, args.level, args.match_points,
            args.name or COMPUTER_GAME_NAME, console.ask, print,
            settings=_play_settings(args), show_resume=bool(args.url), rules=_play_rules(args),
            wait=console.wait)
    raise AssertionError("unreachable")  # pragma: no cover


def _variant_mismatch(args: argparse.Namespace) -> str | None:
    """Why the options do not fit the variant (``None``: they do): an option the variant's
    game has not (naming the variants that have it), or a value out of its range."""
    from engine import InvalidOption, registry

    given = {"match_points": args.match_points, "target_points": args.target_points,
             "deck": args.deck}
    for name, value in given.items():
        if value is None:
            continue
        flag = "--" + name.replace("_", "-")
        option = _option_of(args.variant, name)
        if option is None:
            owners = [v for v in registry.variants() if _option_of(v, name) is not None]
            return f"{flag} is an option of {', '.join(owners)} only"
        try:
            option.check(value)
        except InvalidOption as exc:
            return f"{flag} {str(exc).removeprefix(name + ' ')}"
    return None


def _option_of(variant: str, name: str) -> Option | None:
    """The rule option ``name`` of ``variant`` (``None``: its game has none)."""
    from engine import registry

    return next((o for o in registry.for_variant(variant).options(variant)
                 if o.name == name), None)


def _play_settings(args: argparse.Namespace) -> dict[str, object]:
    """The table settings of ``play``: the point counter, for a game that has it."""
    from engine import registry

    settings = registry.for_variant(args.variant).capabilities.settings
    return {"point_counter": args.point_counter} if "point_counter" in settings else {}


def _play_rules(args: argparse.Namespace) -> dict[str, object] | None:
    """The rule options of ``play``: ``--target-points`` (Tausendeins), ``--deck``."""
    given = {"target_points": args.target_points, "deck": args.deck}
    rules = {name: value for name, value in given.items() if value is not None}
    return rules or None


# --------------------------------------------------------------------------- arena


def add_arena(p: argparse.ArgumentParser) -> None:
    p.description = ("Play duplicate deals (each deal twice, seats swapped) between two "
                     "computer levels in this process and print per bot: game points per "
                     "hand, hands won with a 95% confidence interval, matches won, mean and "
                     "p95 time per move. See api/arena/__init__.py for the seating of three- "
                     "and four-hand.")
    p.add_argument("--a", default="strong",
                   help="level of bot a, or a variant of one with changed settings, e.g. "
                   "strong:close_hedge=2,max_samples=500 (default strong)")
    p.add_argument("--b", default="normal", help="level of bot b, as --a (default normal)")
    p.add_argument("--hands", type=int, default=200,
                   help="hands to play, even: hands/2 deals each played twice (default 200)")
    p.add_argument("--variant", default="sixty-six", help="variant (default sixty-six)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--sequential", action="store_true",
                   help="stop early, after the first deal at which an anytime-valid interval "
                   "of a's share of game points excludes 50%%; --hands is then a cap "
                   "(api/arena/sequential.py)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="with --sequential: error level of the test (default 0.05)")
    p.add_argument("--max-minutes", type=float, default=math.inf,
                   help="with --sequential: also stop after the first deal that ends past "
                   "this many minutes (the interval stays valid)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", dest="format", action="store_const", const="json",
                     default="text", help="print the figures as JSON")
    fmt.add_argument("--csv", dest="format", action="store_const", const="csv",
                     help="print the figures as CSV, one row per bot")
    p.add_argument("--plot", type=Path, metavar="PNG",
                   help="draw the cumulative game-point difference (needs matplotlib)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar on stderr")
    p.add_argument("--rate", action="store_true",
                   help="feed the run's matches into the two levels' ratings (GET /v1/ratings"
                   "?kind=computer) in the Redis of --redis-url")
    p.add_argument("--redis-url", default=os.environ.get("REDIS_URL"),
                   help="with --rate: the server's Redis (default REDIS_URL)")
    p.add_argument("--database-url", default=os.environ.get("DATABASE_URL"),
                   help="with --rate: the server's database, which keeps its ratings "
                   "(default DATABASE_URL; none: Redis alone)")
    p.set_defaults(run=arena_command)


def arena_command(args: argparse.Namespace) -> int:
    from api import arena
    from api.ratings.arena import check_rateable
    from engine import EngineError

    try:
        if args.rate and not args.redis_url:
            raise arena.ArenaError("--rate needs --redis-url (or REDIS_URL)")
        if args.rate:
            check_rateable(args.a, args.b)
        result = arena.run(args.a, args.b, args.hands, args.variant, args.seed, args.jobs,
                           args.progress, args.sequential, args.alpha, args.max_minutes)
        arena.write(result, args.format, sys.stdout)
        if args.plot:
            arena.plot_cumulative(result, args.plot)
        if args.rate:
            _rate_levels(args.redis_url, result, args.database_url)
    except (arena.ArenaError, EngineError) as exc:
        print(f"sixtysix arena: {exc}", file=sys.stderr)
        return 2
    return 0


def _rate_levels(url: str, result: ArenaResult, database_url: str | None = None) -> None:
    """Rate the run's matches into the levels' ratings (with ``database_url``, noted for the
    database as the service's are); one line per level on stderr."""
    from api.ratings.arena import rate_arena
    from api.ratings.store import RatingStore
    from api.runtime.redis_connect import connect

    client = connect(url)
    archive = None
    try:
        loaded = None
        if database_url:
            from api.archive.durable import Cache
            from api.archive.store import Archive
            from api.config import from_env
            from api.keys import RATINGS_TAG

            archive = Archive.open(database_url)
            loaded = Cache.of_slot(client, archive.engine, RATINGS_TAG,
                                   int(from_env(os.environ)["SIXTYSIX_GAME_TTL"]))
        rated, ratings = rate_arena(RatingStore(client, loaded=loaded), result)
    finally:
        client.close()
        if archive is not None:
            archive.close()
    print(f"rated {rated} new matches of {result.variant}:", file=sys.stderr)
    for level, rating in ratings.items():
        print(f"  {level} ≈ {rating.display} (mu {rating.mu:.2f}, sigma {rating.sigma:.2f}, "
              f"{rating.matches} matches)", file=sys.stderr)


def add_rating_seed(p: argparse.ArgumentParser) -> None:
    from api.ratings.seed import SEED_PATH
    from engine.rules import VARIANTS

    p.description = ("Rate the computer levels of a variant from arena runs (easy-random, "
                     "normal-easy, strong-normal) in an empty embedded Redis and write them, "
                     "with the runs' figures and this command, into the seed file that a "
                     "fresh deployment loads (api/ratings/seed.py).")
    p.add_argument("--variant", required=True, choices=list(VARIANTS))
    p.add_argument("--hands", default="200,80,30,20",
                   help="hands of the four runs, comma-separated, each even (default "
                   "200,80,30,20)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--out", type=Path, default=SEED_PATH,
                   help=f"the seed file to update (default {SEED_PATH})")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar on stderr")
    p.add_argument("--extend", action="store_true",
                   help="keep the variant's recorded runs (asked for with the same hands) and "
                   "play only the pairs of the chain it lacks, on top of its ratings")
    p.set_defaults(run=rating_seed_command)


def rating_seed_command(args: argparse.Namespace) -> int:
    from api import arena
    from api.ratings.seed_make import make_variant, read_variant, write_variant
    from engine import EngineError
    from engine.numerals import parse_natural

    given = [parse_natural(n.strip()) for n in args.hands.split(",")]
    hands = [n for n in given if n is not None]
    if len(hands) < len(given):
        print(f"sixtysix rating-seed: --hands {args.hands!r} is not comma-separated numbers",
              file=sys.stderr)
        return 2
    command = (f"sixtysix rating-seed --variant {args.variant} --hands {args.hands} "
               f"--seed {args.seed} --jobs {args.jobs}" + " --extend" * args.extend)
    try:
        previous = read_variant(args.out, args.variant) if args.extend else None
        entry = make_variant(args.variant, hands, args.seed, args.jobs, args.progress, command,
                             lambda line: print(line, file=sys.stderr), previous)
    except (arena.ArenaError, EngineError) as exc:
        print(f"sixtysix rating-seed: {exc}", file=sys.stderr)
        return 2
    write_variant(args.out, args.variant, entry)
    for level, rating in entry["ratings"].items():
        print(f"{args.variant}: {level} ≈ {rating['display']} (mu {rating['mu']:.2f}, sigma "
              f"{rating['sigma']:.2f}, {rating['matches']} matches)")
    return 0


# --------------------------------------------------------------------------- replay


def add_replay(p: argparse.ArgumentParser) -> None:
    from engine import replay

    p.description = ("Replay a record (GET /v1/games/{id}/record, JSON or ?format=text) to the "
                     "same settlements and result; exit 1 at the first difference, 2 if it "
                     "cannot be read.")
    replay.add_arguments(p)
    p.set_defaults(run=lambda args: replay.run(args.record, args.show))


class Command(NamedTuple):
    """A subcommand: its name, its line in ``sixtysix --help``, what fills in its parser."""

    name: str
    help: str
    add: Callable[[argparse.ArgumentParser], None]


COMMANDS: tuple[Command, ...] = (
    Command("serve", "run the API with gunicorn (deploy/gunicorn.conf.py)", add_serve),
    Command("worker", "run worker processes: computer moves, hints, analyses", add_worker),
    Command("play", "play a match against the computer in the terminal", add_play),
    Command("arena", "play two computer levels against each other", add_arena),
    Command("rating-seed", "write the computer levels' starting ratings", add_rating_seed),
    Command("replay", "replay a record of play through the engine and check it", add_replay),
    Command("admin", "operators' commands: migrate, rebuild", lambda p: _admin(p)),
)


def _admin(p: argparse.ArgumentParser) -> None:
    from api.admin import add_admin

    add_admin(p)


def package_version() -> str:
    """The installed version of the ``sixtysix`` distribution."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sixtysix")
    except PackageNotFoundError:
        return "(not installed: pip install -e .)"


class _Version(argparse.Action):
    """``--version``: the package's version and which engine runs, found when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the version and which engine and search core run, and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from engine import native

        print(f"{parser.prog} {package_version()} (engine: {native.describe()}; search core: "
              f"{native.describe_core()})")
        parser.exit()


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of ``sixtysix``; given ``argv``, only its command's parser is filled in
    (the first word not an option; none for ``--version``), else every command's."""
    parser = argparse.ArgumentParser(prog="sixtysix", description="Sixty-Six game server.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = None if argv is None else next((a for a in argv if not a.startswith("-")), "")
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help)
        if chosen in (None, command.name):
            command.add(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(given).parse_args(given)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
