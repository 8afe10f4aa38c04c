"""``q`` quits ``sixtysix play`` while it waits for another seat's move or for a table to
fill, not only at a prompt: a process whose stdin is a pipe, typed into while it waits."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import pytest
import redis

from api.clients.client import SixtySixClient
from api.clients.console import QUIT, Console
from tests.api.clients.play_process import PlayProcess

#: Seconds ``q`` may take to end a wait: far below the 30 s long-poll and the open table's
#: hour, so a ``q`` read only at the next prompt fails.
QUIT_WITHIN = 10.0


def test_q_quits_while_waiting_for_the_other_seat(
        live_url: str, redis_client: redis.Redis, tmp_path: Path) -> None:
    with SixtySixClient(live_url) as client:
        game = client.create_game(seats=[{"kind": "human", "name": "Ann"},
                                         {"kind": "human", "name": "Bob"}], first_dealer=1)
        bob = game["seats"][1]  # seat 0 leads, and Ann never moves: Bob waits
        terminal = PlayProcess(["--url", live_url, f"--game={game['game_id']}",
                                f"--token={bob['token']}"], tmp_path)
        terminal.said(r"^Waiting for Ann… \(q quits\)$")  # said once it waits for a person
        time.sleep(1)  # in the long-poll
        asked = time.monotonic()
        terminal.type("q\n")
        assert terminal.end(QUIT_WITHIN) == 1
        assert time.monotonic() - asked < QUIT_WITHIN
        assert "Your choice" not in terminal.text()  # never asked: quit while waiting


def test_q_quits_while_waiting_at_an_open_table_and_leaves_it(
        live_url: str, redis_client: redis.Redis, tmp_path: Path) -> None:
    terminal = PlayProcess(["--url", live_url, "--lobby", "--new", "--name", "Ann"], tmp_path)
    table_id = terminal.said(r"^Table (\S+) is open\.")[1]
    terminal.said(r"^Waiting for the other players…")
    terminal.type("q\n")
    assert terminal.end(QUIT_WITHIN) == 1
    assert f"You left table {table_id}." in terminal.lines
    with SixtySixClient(live_url) as client:
        assert client.table(table_id)["status"] == "closed"  # nobody is seated at it


def test_lines_typed_while_waiting_wait_for_the_next_prompt() -> None:
    """Any other line, and a ``q`` behind it, is kept for the prompts in order (typed ahead or
    piped in); the end of input is an ``EOFError`` at a prompt, never a quit of a wait."""
    prompts: list[str] = []
    console = Console(io.StringIO("1\nq\n"), prompts.append)

    def moved() -> str:
        time.sleep(0.5)  # the lines are read meanwhile
        return "moved"

    assert console.wait(moved) == "moved"
    assert console.ask("first? ") == "1" and console.ask("second? ") == "q"
    assert prompts == ["first? ", "second? "]
    with pytest.raises(EOFError):
        console.ask("third? ")
    assert prompts[2:] == ["third? ", "\n"]  # the prompt's line ended: what follows is apart
    assert console.wait(lambda: "after the end") == "after the end"
    never = threading.Event()
    assert Console(io.StringIO("  Q \n1\n")).wait(lambda: never.wait(5)) is QUIT
