"""``sixtysix play --lobby`` in two terminals: one creates a table, the other joins it, both
play the match to its end over a live server (choices scripted: always the first action)."""

from __future__ import annotations

import json
import re
import shlex
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

import redis

from api.cli import build_parser
from api.clients.client import SixtySixClient
from api.clients.lobby_terminal import LobbyChoice, join_command, lobby_choice, play_lobby
from api.clients.player_tokens import PlayerTokens, SavedPlayer, config_dir
from api.keys import player_key
from tests.api.clients.play_process import PlayProcess


def _scripted(answers: dict[str, str]) -> Callable[[str], str]:
    """Answer a prompt by its first word: 'Rematch?' → n, choices → 1, names → a new one."""
    def ask(prompt: str) -> str:
        return next((a for p, a in answers.items() if prompt.startswith(p)), "1")
    return ask


def test_two_terminals_play_a_friend(live_url: str, redis_client: redis.Redis) -> None:
    outputs: dict[str, list[str]] = {"ann": [], "bob": []}
    results: dict[str, int] = {}

    def run(who: str, choice: LobbyChoice, answers: dict[str, str]) -> None:
        with SixtySixClient(live_url) as client:
            results[who] = play_lobby(client, choice, _scripted(answers),
                                      outputs[who].append)

    ann = threading.Thread(target=run, args=("ann", LobbyChoice(
        "Ann", "sixty-six", 3, private=True, new=True), {"Rematch?": "n"}))
    ann.start()
    deadline = time.monotonic() + 30
    while not any("--join" in line for line in outputs["ann"]):
        assert time.monotonic() < deadline and ann.is_alive()
        time.sleep(0.05)
    line = next(line for line in outputs["ann"] if "--join" in line)
    command = line[line.index("sixtysix play"):].split()
    args = build_parser().parse_args([*command[1:], "--name", "Ann"])
    assert args.lobby and args.invite  # private: the command carries the invite code
    bob = threading.Thread(target=run, args=("bob", lobby_choice(args), {
        "Rematch?": "n", "Your name": "Bob"}))
    bob.start()
    for thread in (ann, bob):
        thread.join(timeout=300)
        assert not thread.is_alive()
    assert results == {"ann": 0, "bob": 0}
    for who in ("ann", "bob"):
        text = "\n".join(outputs[who])
        assert "you are seat" in text and text.count(" won the match ") == 1  # said once
    assert any("taken" in line for line in outputs["bob"])  # "Ann" was taken: asked again


def test_the_join_command_parses_back_when_the_id_and_code_begin_with_a_dash() -> None:
    command = join_command("http://127.0.0.1:8066", "-tB7q2WcXk9L", "-1dZxQ")
    args = build_parser().parse_args([*command.split()[1:], "--name", "Bob"])
    choice = lobby_choice(args)
    assert (choice.join, choice.invite_code) == ("-tB7q2WcXk9L", "-1dZxQ")


def _quit_at_the_listing(live_url: str, tokens: PlayerTokens, name: str = "Ann",
                         other: str = "q") -> list[str]:
    """One ``play --lobby`` run that becomes a player (``other`` if ``name`` is taken), then
    quits at the table listing."""
    out: list[str] = []
    with SixtySixClient(live_url) as client:
        assert play_lobby(client, LobbyChoice(name, "sixty-six", None),
                          _scripted({"Your name": other, "Number": "q"}), out.append,
                          tokens) == 1
    return out


def test_the_player_token_is_kept_per_server_and_resumed(
        live_url: str, redis_client: redis.Redis, tmp_path: Path) -> None:
    with SixtySixClient(live_url) as host:  # an open table, so that the listing asks
        me = host.with_token(host.create_player("Host")["token"])
        me.create_table([{"kind": "player"}, {"kind": "open"}])
    tokens = PlayerTokens(config_dir({"XDG_CONFIG_HOME": str(tmp_path / "conf")}))
    assert tokens.path == tmp_path / "conf" / "sixtysix" / "players.json"
    first = "\n".join(_quit_at_the_listing(live_url, tokens))
    assert f"to play as Ann again: sixtysix play --url {live_url} --lobby --name=Ann" in first
    assert stat.S_IMODE(tokens.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(tokens.path.parent.stat().st_mode) == 0o700
    saved = tokens.get(live_url)
    assert saved is not None and saved["name"] == "Ann"
    again = "\n".join(_quit_at_the_listing(live_url, tokens))
    assert f"You are Ann (player {saved['player_id']}), the player saved in" in again
    assert "taken" not in again
    assert len(list(redis_client.scan_iter("sixtysix:player:{*}"))) == 2  # Host and Ann
    assert tokens.get(live_url + "/") == saved and tokens.get("http://elsewhere:1") is None
    # a server that forgot the player: the token is dropped and a new player saved (under
    # another name if the server keeps the old one's taken)
    redis_client.delete(player_key(saved["player_id"]))
    fresh = "\n".join(_quit_at_the_listing(live_url, tokens, "Ann", "Anna"))
    assert "is unknown to" in fresh and "again: sixtysix play" in fresh
    renewed = tokens.get(live_url)
    assert renewed is not None and renewed["player_id"] != saved["player_id"]
    assert saved["player_id"] not in {p["player_id"] for p in tokens.players(live_url)}


def test_one_player_is_kept_per_name_and_per_server(tmp_path: Path) -> None:
    tokens = PlayerTokens(tmp_path)
    url = "http://127.0.0.1:8066"
    ann, bob = (SavedPlayer(player_id=f"p{n}", name=n, token=f"t{n}") for n in ("Ann", "Bob"))
    tokens.put(url, ann)
    tokens.put(url, bob)
    tokens.put("http://elsewhere:1", ann)
    assert tokens.players(url) == [bob, ann] and tokens.get(url) == bob
    assert tokens.get(url, "ANN") == ann and tokens.get(url, "Cy") is None  # as the server
    renamed = SavedPlayer(player_id="p2", name="ann", token="t2")  # a new player of that name
    tokens.put(url, renamed)
    assert tokens.players(url) == [renamed, bob]
    tokens.forget(url, "p2")
    assert tokens.players(url) == [bob] and tokens.players("http://elsewhere:1") == [ann]
    # the file of one player per server, as earlier versions wrote it, still reads
    tokens.path.write_text(json.dumps({url: dict(ann)}))
    assert tokens.players(url) == [ann]
    tokens.put(url, bob)
    assert tokens.players(url) == [bob, ann]


def test_the_config_directory_follows_xdg() -> None:
    assert config_dir({"XDG_CONFIG_HOME": "/x/conf"}) == Path("/x/conf/sixtysix")
    home = Path.home() / ".config" / "sixtysix"
    assert config_dir({}) == config_dir({"XDG_CONFIG_HOME": "relative"}) == home


#: More answers than any 3-point match asks for: always the first choice; no to a rematch.
FIRST_CHOICES = "1\n" * 400
MATCH_WITHIN = 120.0


def test_two_terminals_of_one_user_play_each_other_by_name(
        live_url: str, redis_client: redis.Redis, tmp_path: Path) -> None:
    """The README's "Play a friend" on one machine: one config file, two ``--name``\\ s, two
    players (before, the second terminal played as the first's player: a 409)."""
    url = ["--url", live_url, "--lobby"]
    ann = PlayProcess([*url, "--new", "--private", "--match-points", "3", "--name", "Ann"],
                      tmp_path)
    join = ann.said(r"sixtysix play (--url .* --lobby --join=.*)$")[1].split()
    ann.type(FIRST_CHOICES, close=True)
    bob = PlayProcess([*join, "--name", "Bob"], tmp_path, FIRST_CHOICES)
    assert (ann.end(MATCH_WITHIN), bob.end(MATCH_WITHIN)) == (0, 0)
    for terminal, name in ((ann, "Ann"), (bob, "Bob")):
        assert terminal.said(rf"^You are {name} \(player ")
        assert terminal.said(r"won the match \d+:\d+\. \*\*\*$")
    tokens = PlayerTokens(config_dir({"XDG_CONFIG_HOME": str(tmp_path / "config")}))
    assert [p["name"] for p in tokens.players(live_url)] == ["Bob", "Ann"]  # last used first
    again = PlayProcess([*url, "--name", "ann"], tmp_path, "q\n")  # Ann's again, by her name
    again.end(MATCH_WITHIN)
    ann_id = tokens.players(live_url)[0]["player_id"]
    assert again.said(rf"^You are Ann \(player {ann_id}\), the player saved in ")
    assert [p["name"] for p in tokens.players(live_url)] == ["Ann", "Bob"]


def test_a_table_game_is_resumed_after_quitting(
        live_url: str, redis_client: redis.Redis, tmp_path: Path) -> None:
    """Start a table game, quit, resume it by the command it printed: the game goes on."""
    ann = PlayProcess(["--url", live_url, "--lobby", "--new", "--name", "Ann"], tmp_path)
    table_id = ann.said(r"^Table (\S+) is open\.")[1]
    with SixtySixClient(live_url) as client:
        bob = client.with_token(client.create_player("Bob")["token"])
        you = bob.join_table(table_id)["you"]
        assert you is not None and you["token"] and you["game_id"]
        game_id, seat = you["game_id"], bob.with_token(you["token"])
        stop = threading.Event()
        opponent = threading.Thread(target=_play_first_choices, args=(seat, game_id, stop))
        opponent.start()
        try:
            ann.type("1\n", close=True)  # one move, then quit at the next prompt
            assert ann.end(MATCH_WITHIN) == 1
            resume = ann.said(rf"^Game {game_id}: you are seat 0\. To resume it later: "
                              r"sixtysix play (.*)$")
            args = shlex.split(resume[1])
            assert f"--resume={table_id}" in args and "--name=Ann" in args
            assert ann.said(r"^You left the game; it waits on the server\. To resume it: "
                            r"sixtysix play (.*)$")[1] == resume[1]  # said again on quitting
            again = PlayProcess(args, tmp_path, "1\n")
            assert again.end(MATCH_WITHIN) == 1
        finally:
            stop.set()
            opponent.join()
        played = [e["card"] for e in seat.all_events(game_id)
                  if e["type"] == "card_played" and e["seat"] == 0]
    assert again.said(rf"^Game {game_id}: you are seat 0\.")
    cards = [re.search(r"You played (\S\S)\.", t.text()) for t in (ann, again)]
    assert played == [c[1] for c in cards if c]  # one card before quitting, one after


def test_resume_without_an_unfinished_game_says_so(
        live_url: str, redis_client: redis.Redis, tmp_path: Path) -> None:
    alone = PlayProcess(["--url", live_url, "--lobby", "--resume", "--name", "Cyd"], tmp_path,
                        "")
    assert alone.end(MATCH_WITHIN) == 1
    assert alone.said(rf"^You have no unfinished table game on {re.escape(live_url)}\.$")


def _play_first_choices(seat: SixtySixClient, game_id: str, stop: threading.Event) -> None:
    """Play ``seat``'s first legal action whenever it is its turn, until ``stop``."""
    view = seat.view(game_id)
    while not stop.is_set() and view["status"] not in ("match_over", "aborted"):
        if view["legal_actions"]:
            view = seat.act(game_id, view["legal_actions"][0])
        else:
            view = seat.view(game_id, after_version=view["version"], wait=1)
