"""``sixtysix play --lobby`` in two terminals: one creates a table, the other joins it, both
play the match to its end over a live server (choices scripted: always the first action)."""

from __future__ import annotations

import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

import redis

from api.cli import build_parser
from api.clients.client import SixtySixClient
from api.clients.lobby_terminal import LobbyChoice, join_command, lobby_choice, play_lobby
from api.clients.player_tokens import PlayerTokens, config_dir
from api.keys import player_key


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


def _quit_at_the_listing(live_url: str, tokens: PlayerTokens, name: str = "Ann") -> list[str]:
    """One ``play --lobby`` run that becomes a player, then quits at the table listing."""
    out: list[str] = []
    with SixtySixClient(live_url) as client:
        assert play_lobby(client, LobbyChoice(name, "sixty-six", None), lambda _: "q",
                          out.append, tokens) == 1
    return out


def test_the_player_token_is_kept_per_server_and_resumed(
        live_url: str, redis_client: redis.Redis, tmp_path: Path) -> None:
    with SixtySixClient(live_url) as host:  # an open table, so that the listing asks
        me = host.with_token(host.create_player("Host")["token"])
        me.create_table([{"kind": "player"}, {"kind": "open"}])
    tokens = PlayerTokens(config_dir({"XDG_CONFIG_HOME": str(tmp_path / "conf")}))
    assert tokens.path == tmp_path / "conf" / "sixtysix" / "players.json"
    first = "\n".join(_quit_at_the_listing(live_url, tokens))
    assert f"to resume as Ann: sixtysix play --url {live_url} --lobby" in first
    assert stat.S_IMODE(tokens.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(tokens.path.parent.stat().st_mode) == 0o700
    saved = tokens.get(live_url)
    assert saved is not None and saved["name"] == "Ann"
    again = "\n".join(_quit_at_the_listing(live_url, tokens))
    assert f"You are Ann (player {saved['player_id']}), resumed" in again
    assert "taken" not in again
    assert len(list(redis_client.scan_iter("sixtysix:player:{*}"))) == 2  # Host and Ann
    assert tokens.get(live_url + "/") == saved and tokens.get("http://elsewhere:1") is None
    # a server that forgot the player: the token is dropped and a new player saved
    redis_client.delete(player_key(saved["player_id"]))
    fresh = "\n".join(_quit_at_the_listing(live_url, tokens, "Anna"))
    assert "is unknown to" in fresh and "to resume as Anna" in fresh
    renewed = tokens.get(live_url)
    assert renewed is not None and renewed["name"] == "Anna"


def test_the_config_directory_follows_xdg() -> None:
    assert config_dir({"XDG_CONFIG_HOME": "/x/conf"}) == Path("/x/conf/sixtysix")
    home = Path.home() / ".config" / "sixtysix"
    assert config_dir({}) == config_dir({"XDG_CONFIG_HOME": "relative"}) == home
