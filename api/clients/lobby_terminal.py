"""``sixtysix play --lobby``: play a friend in the terminal through a table of the lobby.

One person creates a table (``--private`` for one with an invite code) and passes its id (and
code) on; the other joins it with ``--join=TABLE_ID [--invite=CODE]``; without ``--join`` or
``--new`` the open public tables are listed to choose from. Each terminal waits until every
seat is taken, then plays its seat to the end, and offers a rematch.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Final

from api.clients.client import ApiError, SixtySixClient, TableSeatSpec, TableView
from api.clients.play import play_match
from api.clients.player_tokens import PlayerTokens, SavedPlayer
from api.text_policy import shown
from engine.numerals import parse_natural

#: Seconds between looks at a table that waits for its players.
POLL_INTERVAL: Final = 1.0


@dataclass(frozen=True, slots=True)
class LobbyChoice:
    """What the person asked for on the command line."""

    name: str
    variant: str
    match_points: int | None
    join: str | None = None
    invite_code: str | None = None
    private: bool = False
    new: bool = False
    #: Rule options of a new table (``--target-points`` of Tausendeins).
    rules: dict[str, object] | None = None


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


def lobby_choice(args: argparse.Namespace) -> LobbyChoice:
    target = args.target_points
    return LobbyChoice(args.name, args.variant, args.match_points, args.join, args.invite,
                       args.private, args.new,
                       None if target is None else {"target_points": target})


def play_lobby(client: SixtySixClient, choice: LobbyChoice, ask: Callable[[str], str],
               say: Callable[[str], None], saved: PlayerTokens | None = None) -> int:
    """Be a player, take a seat at a table, play its matches; 0 when done, 1 on quitting.

    With ``saved``, the player saved for this server is resumed (a token the server no longer
    knows is forgotten), and a new one is saved for the next run.
    """
    me = _player(client, choice, ask, say, saved)
    table = _take_seat(me, choice, ask, say)
    if table is None:
        return 1
    while True:
        table = _wait_for_start(me, table["table_id"], choice.invite_code, say)
        you = table["you"]
        assert you is not None and you["token"] and you["game_id"]
        say(f"Game {you['game_id']}: you are seat {you['seat']}.")
        if not play_match(me.with_token(you["token"]), you["game_id"], ask, say):
            return 1
        if not _yes(ask("Rematch? (y/n): ")):
            return 0
        _changed(me, partial(me.rematch, table["table_id"]), choice.invite_code, say)
        say("Rematch asked; waiting for the others.")
        _wait_until(me, table["table_id"], choice.invite_code, _past(you["game_id"]), say)


def _player(client: SixtySixClient, choice: LobbyChoice, ask: Callable[[str], str],
            say: Callable[[str], None], saved: PlayerTokens | None) -> SixtySixClient:
    """The client of the player saved for this server, else of a new one (asking for
    another name while the one given is taken or refused)."""
    known = None if saved is None else saved.get(client.base_url)
    if saved is not None and known is not None:
        me = client.with_token(known["token"])
        try:
            profile = me.me()
        except ApiError as exc:
            if exc.status != 401:
                raise
            say(f"The player {shown(known['name'])} saved in {saved.path} is unknown to "
                f"{client.base_url}; making a new one.")
            saved.put(client.base_url, None)
        else:
            say(f"You are {shown(profile['name'])} (player {known['player_id']}), resumed "
                f"with the token saved in {saved.path}.")
            return me
    name = choice.name
    while True:
        try:
            created = client.create_player(name)
            break
        except ApiError as exc:
            if exc.status not in (409, 422):
                raise
            say(f"{exc.detail}.")
            name = ask("Your name at the table (3–20 letters, digits, spaces): ").strip()
    say(f"You are {shown(created['name'])} (player {created['player_id']}).")
    if saved is not None:
        saved.put(client.base_url, SavedPlayer(player_id=created["player_id"],
                                               name=created["name"], token=created["token"]))
        say(f"Your player token is saved in {saved.path} (mode 0600); to resume as "
            f"{shown(created['name'])}: sixtysix play --url {client.base_url} --lobby")
    return client.with_token(created["token"])


def _changed(me: SixtySixClient, change: Callable[[], TableView], invite: str | None,
             say: Callable[[str], None]) -> TableView:
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


def _take_seat(me: SixtySixClient, choice: LobbyChoice, ask: Callable[[str], str],
               say: Callable[[str], None]) -> TableView | None:
    table = _chosen(me, choice, ask, say)
    if table is not None and table["you"] is None:
        say("You have no seat at that table: nothing was done.")
        return None
    return table


def _chosen(me: SixtySixClient, choice: LobbyChoice, ask: Callable[[str], str],
            say: Callable[[str], None]) -> TableView | None:
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
            text = ask("Number of a table to join, n for a new one, q to quit: ").strip()
            if text.lower() in ("q", "quit"):
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


def _wait_for_start(me: SixtySixClient, table_id: str, invite: str | None,
                    say: Callable[[str], None]) -> TableView:
    return _wait_until(me, table_id, invite, lambda t: t["status"] == "playing", say)


def _wait_until(me: SixtySixClient, table_id: str, invite: str | None,
                done: Callable[[TableView], bool], say: Callable[[str], None]) -> TableView:
    said = False
    while True:
        table = me.table(table_id, invite_code=invite)
        if done(table):
            return table
        if not said:
            say("Waiting for the other players…")
            said = True
        time.sleep(POLL_INTERVAL)


def _past(game_id: str) -> Callable[[TableView], bool]:
    """Whether a table has moved on from ``game_id`` (a rematch started)."""
    return lambda table: table["game_id"] != game_id


def _yes(text: str) -> bool:
    return text.strip().lower() in ("y", "yes")
