"""``sixtysix play --lobby``: play a friend in the terminal through a table of the lobby.

One person creates a table (``--private`` for one with an invite code) and passes its id (and
code) on; the other joins it with ``--join=TABLE_ID [--invite=CODE]``; without ``--join`` or
``--new`` the open public tables are listed to choose from. Each terminal waits until every
seat is taken (``q`` quits the wait and leaves the table), then plays its seat to the end, and
offers a rematch. ``--name`` chooses the player saved for the server under that name (else
makes it: :mod:`api.clients.player_tokens`), so two terminals of one machine play as two
players. A table game is resumed with ``--resume[=TABLE_OR_GAME_ID]``: the seat token comes
from the table, read with the player token (``GET /v1/players/me/games`` lists the unfinished
ones), so nothing but the player token is kept.
"""

from __future__ import annotations

import argparse
import shlex
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from api.clients.client import ApiError, SixtySixClient, TableSeatSpec, TableView
from api.clients.console import Quit, Wait, blocking, is_quit
from api.clients.play import play_match
from api.clients.player_tokens import PlayerTokens, SavedPlayer
from api.text_policy import shown
from engine.numerals import parse_natural

#: Seconds between looks at a table that waits for its players.
POLL_INTERVAL: Final = 1.0
NAME_PROMPT: Final = "Your name at the table (3–20 letters, digits, spaces): "

Ask = Callable[[str], str]
Say = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class LobbyChoice:
    """What the person asked for on the command line."""

    #: ``None``: the player used last on this server (asked for when there is none).
    name: str | None
    variant: str
    match_points: int | None
    join: str | None = None
    invite_code: str | None = None
    private: bool = False
    new: bool = False
    #: Rule options of a new table (``--target-points`` of Tausendeins).
    rules: dict[str, object] | None = None
    #: A table or game id to resume; ``""``: choose among the unfinished ones.
    resume: str | None = None


def add_lobby_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--lobby`` options of ``sixtysix play``."""
    parser.add_argument("--lobby", action="store_true",
                        help="play people: create or join a table of the lobby")
    parser.add_argument("--join", metavar="TABLE_ID", help="with --lobby: join this table")
    parser.add_argument("--invite", metavar="CODE", help="with --join: a private table's code")
    parser.add_argument("--private", action="store_true",
                        help="with --lobby: create a private table (with an invite code)")
    parser.add_argument("--new", action="store_true",
                        help="with --lobby: create a table without listing the open ones")
    parser.add_argument("--resume", metavar="TABLE_OR_GAME_ID", nargs="?", const="",
                        help="with --lobby: take up your seat at this table again (alone: "
                        "choose among your unfinished table games)")


def lobby_choice(args: argparse.Namespace) -> LobbyChoice:
    target = args.target_points
    return LobbyChoice(args.name, args.variant, args.match_points, args.join, args.invite,
                       args.private, args.new,
                       None if target is None else {"target_points": target}, args.resume)


def play_lobby(client: SixtySixClient, choice: LobbyChoice, ask: Ask, say: Say,
               saved: PlayerTokens | None = None, wait: Wait = blocking) -> int:
    """Be a player, take a seat at a table (or take yours up again), play its matches; 0 when
    done, 1 on quitting (``wait`` runs each wait for the others, which ``q`` may cut short).

    With ``saved``, the player of ``choice.name`` saved for this server is resumed (a token the
    server no longer knows is forgotten), and a new one is saved for the next run.
    """
    player = _player(client, choice, ask, say, saved)
    if player is None:
        return 1
    me, name = player
    resume = partial(resume_command, me.base_url, name=name)
    if choice.resume is not None:
        table = _resumed(me, choice.resume, ask, say)
    else:
        _say_unfinished(me, resume, say)
        table = _take_seat(me, choice, ask, say)
    if table is None:
        return 1
    resuming = choice.resume is not None
    while True:
        started = _wait_for_start(me, table["table_id"], choice.invite_code, say, wait,
                                  resume)
        if started is None:
            return 1
        table = started
        you = table["you"]
        assert you is not None and you["token"] and you["game_id"]
        seat = me.with_token(you["token"])
        say(f"Game {you['game_id']}: you are seat {you['seat']}. To resume it later: "
            f"{resume(table['table_id'])}")
        after = seat.events(you["game_id"], 0, limit=1)["last_seq"] if resuming else 0
        resuming = False
        if not play_match(seat, you["game_id"], ask, say, after, wait):
            say(f"You left the game; it waits on the server. To resume it: "
                f"{resume(table['table_id'])}")
            return 1
        if not _yes(_asked(ask, "Rematch? (y/n): ")):
            return 0
        _changed(me, partial(me.rematch, table["table_id"]), choice.invite_code, say)
        say("Rematch asked; waiting for the others.")
        if _wait_until(me, table["table_id"], choice.invite_code, _past(you["game_id"]), say,
                       wait) is None:
            return 1


def resume_command(url: str, table_id: str, name: str) -> str:
    """The command that takes the player ``name``'s seat at the table up again."""
    return (f"sixtysix play --url {url} --lobby --resume={shlex.quote(table_id)} "
            f"--name={shlex.quote(name)}")


def _player(client: SixtySixClient, choice: LobbyChoice, ask: Ask, say: Say,
            saved: PlayerTokens | None) -> tuple[SixtySixClient, str] | None:
    """The client and name of the player of ``choice.name`` saved for this server, else of a
    new one (asking for a name when none is given, and again while the one given is taken or
    refused); ``None`` when the reader gives none."""
    known = None if saved is None else saved.get(client.base_url, choice.name)
    if saved is not None and known is not None:
        me = client.with_token(known["token"])
        try:
            profile = me.me()
        except ApiError as exc:
            if exc.status != 401:
                raise
            say(f"The player {shown(known['name'])} saved in {saved.path} is unknown to "
                f"{client.base_url}; making a new one.")
            saved.forget(client.base_url, known["player_id"])
        else:
            saved.put(client.base_url, known)  # the one used last
            say(f"You are {shown(profile['name'])} (player {known['player_id']}), the player "
                f"saved in {saved.path}.")
            return me, profile["name"]
    name = choice.name or (known["name"] if known else None)
    while True:
        try:
            name = name or _asked(ask, NAME_PROMPT).strip()
            if is_quit(name):
                return None
            created = client.create_player(name)
            break
        except ApiError as exc:
            if exc.status not in (409, 422):
                raise
            say(f"{exc.detail}.")
            name = None
    say(f"You are {shown(created['name'])} (player {created['player_id']}).")
    if saved is not None:
        saved.put(client.base_url, SavedPlayer(player_id=created["player_id"],
                                               name=created["name"], token=created["token"]))
        say(f"Your player token is saved in {saved.path} (mode 0600); to play as "
            f"{shown(created['name'])} again: sixtysix play --url {client.base_url} --lobby "
            f"--name={shlex.quote(created['name'])}")
    return client.with_token(created["token"]), created["name"]


def _unfinished(me: SixtySixClient) -> Iterator[dict[str, Any]]:
    """The player's unfinished table games, newest first (every page)."""
    cursor = None
    while True:
        page = me.my_games("active", cursor)
        yield from page["games"]
        cursor = page["next_cursor"]
        if cursor is None:
            return


def _game_line(game: dict[str, Any]) -> str:
    against = ", ".join(shown(o["name"]) for o in game["opponents"])
    turn = "your turn" if game["your_turn"] else "their turn"
    return f"{game['table_id']}  {game['variant']} against {against}, {turn}"


def _say_unfinished(me: SixtySixClient, resume: Callable[[str], str], say: Say) -> None:
    games = list(_unfinished(me))
    if games:
        say("Your unfinished table games (resume one with the command below it):")
    for game in games:
        say(f"  {_game_line(game)}\n    {resume(game['table_id'])}")


def _resumed(me: SixtySixClient, wanted: str, ask: Ask, say: Say) -> TableView | None:
    """The table of the game to resume: the table or game ``wanted``, else the one
    unfinished table game, else one chosen from a list; ``None`` (said why) when there is
    none or the reader quits."""
    games = list(_unfinished(me))
    if wanted:
        found = next((g for g in games if wanted in (g["table_id"], g["game_id"])), None)
        table_id = found["table_id"] if found else wanted
        try:
            table = me.table(table_id)
        except ApiError as exc:
            if exc.status != 404:
                raise
            say(f"No table or unfinished game {wanted} of yours on {me.base_url}.")
            return None
        if table["you"] is None:
            say(f"You have no seat at table {table_id}.")
            return None
        return table
    if not games:
        say(f"You have no unfinished table game on {me.base_url}.")
        return None
    if len(games) > 1:
        for i, game in enumerate(games, 1):
            say(f"{i:3}  {_game_line(game)}")
        number = parse_natural(_asked(ask, "Number of the game to resume, q to quit: ").strip())
        if number is None or not 1 <= number <= len(games):
            return None
        games = [games[number - 1]]
    return me.table(games[0]["table_id"])


def _changed(me: SixtySixClient, change: Callable[[], TableView], invite: str | None,
             say: Say) -> TableView:
    """``change()``'s table; one that may stand (:attr:`~api.clients.client.ApiError.unsettled`) is
    said so, never that it failed, and the table read again (the caller sees whether it holds
    the change)."""
    try:
        return change()
    except ApiError as exc:
        table_id = exc.body.get("table_id")
        if not exc.unsettled or not isinstance(table_id, str):
            raise
    say("The server could not confirm that: it may have been done. Reloading the table.")
    return me.table(table_id, invite_code=invite)


def _take_seat(me: SixtySixClient, choice: LobbyChoice, ask: Ask, say: Say
               ) -> TableView | None:
    table = _chosen(me, choice, ask, say)
    if table is not None and table["you"] is None:
        say("You have no seat at that table: nothing was done.")
        return None
    return table


def _chosen(me: SixtySixClient, choice: LobbyChoice, ask: Ask, say: Say
            ) -> TableView | None:
    if choice.join:
        join = choice.join
        return _changed(me, lambda: me.join_table(join, invite_code=choice.invite_code),
                        choice.invite_code, say)
    if not choice.new:
        listed = me.tables(variant=choice.variant)["tables"]
        for i, t in enumerate(listed, 1):
            names = ", ".join(shown(s.get("name", "open")) for s in t["seats"])
            say(f"{i:3}  {t['table_id']}  {t['variant']}  {names}")
        if listed:
            text = _asked(ask, "Number of a table to join, n for a new one, q to quit: ").strip()
            if is_quit(text):
                return None
            number = parse_natural(text)
            if number is not None and 1 <= number <= len(listed):
                chosen = listed[number - 1]["table_id"]
                return _changed(me, lambda: me.join_table(chosen), None, say)
    players = next(v["players"] for v in me.rules()["variants"] if v["name"] == choice.variant)
    seats: list[TableSeatSpec] = [{"kind": "player"}]
    seats += [{"kind": "open"} for _ in range(players - 1)]
    table = _changed(me, lambda: me.create_table(
        seats, choice.variant, match_points=choice.match_points, rules=choice.rules,
        visibility="private" if choice.private else "public"), None, say)
    say(f"Table {table['table_id']} is open. Your friend joins with:\n  "
        f"{join_command(me.base_url, table['table_id'], table['invite_code'])}")
    return table


def join_command(url: str, table_id: str, invite_code: str | None) -> str:
    """The command that joins the table; ``--join=`` and ``--invite=`` because an id or a code
    may begin with ``-``."""
    join = f"sixtysix play --url {url} --lobby --join={table_id}"
    return join + f" --invite={invite_code}" if invite_code else join


def _wait_for_start(me: SixtySixClient, table_id: str, invite: str | None, say: Say,
                    wait: Wait, resume: Callable[[str], str]) -> TableView | None:
    """The table once its game is playing; ``None`` when the reader quits the wait, having
    left the table (or, had it started meanwhile, been told how to resume)."""
    table = _wait_until(me, table_id, invite, lambda t: t["status"] == "playing", say, wait)
    if table is not None:
        return table
    try:
        me.leave_table(table_id)
    except ApiError as exc:
        if exc.status != 409:
            raise
        say(f"The game started meanwhile; to resume it: {resume(table_id)}")
    else:
        say(f"You left table {table_id}.")
    return None


def _wait_until(me: SixtySixClient, table_id: str, invite: str | None,
                done: Callable[[TableView], bool], say: Say, wait: Wait) -> TableView | None:
    """The table once ``done``, read every :data:`POLL_INTERVAL` seconds; ``None`` when the
    reader quits meanwhile."""
    table = me.table(table_id, invite_code=invite)
    if done(table):
        return table
    say("Waiting for the other players… (q quits)")
    while True:
        looked = wait(partial(_look, me, table_id, invite))
        if isinstance(looked, Quit):
            return None
        if done(looked):
            return looked


def _look(me: SixtySixClient, table_id: str, invite: str | None) -> TableView:
    """The table, after :data:`POLL_INTERVAL` seconds."""
    time.sleep(POLL_INTERVAL)
    return me.table(table_id, invite_code=invite)


def _past(game_id: str) -> Callable[[TableView], bool]:
    """Whether a table has moved on from ``game_id`` (a rematch started)."""
    return lambda table: table["game_id"] != game_id


def _asked(ask: Ask, prompt: str) -> str:
    """The answer to ``prompt``; ``q`` at the end of input."""
    try:
        return ask(prompt)
    except EOFError:
        return "q"


def _yes(text: str) -> bool:
    return text.strip().lower() in ("y", "yes")
