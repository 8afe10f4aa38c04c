"""examples/random_bot.py plays a whole match against a served app, as a separate process."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import redis

from api.client import SixtySixClient

BOT = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(BOT), *args], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bot_is_short_and_uses_only_requests() -> None:
    source = BOT.read_text()
    assert len(source.splitlines()) < 60
    imports = set(re.findall(r"^(?:import|from) (\w+)", source, re.MULTILINE))
    assert imports == {"__future__", "argparse", "random", "requests"}


def test_bot_plays_a_match_against_the_computer(live_url: str, redis_client: redis.Redis) -> None:
    out = _run("--url", live_url)
    found = re.fullmatch(r"game (\S+) over: seat 0 (won|lost); game points \[(\d+), (\d+)\], "
                         r"Bummerl \[(\d), (\d)\]\n", out)
    assert found, out
    game_id, result, *numbers = found.groups()
    points, bummerl = [int(n) for n in numbers[:2]], [int(n) for n in numbers[2:]]
    assert max(points) >= 7
    assert (result == "won") == (points[0] > points[1]) == (bummerl[0] == 0)
    assert redis_client.exists(f"sixtysix:game:{{{game_id}}}")


def test_bot_takes_a_seat_it_is_given(live_url: str, redis_client: redis.Redis) -> None:
    with SixtySixClient(live_url) as client:
        game = client.create_game(seats=[{"kind": "computer"}, {"kind": "human"}], match_points=3)
        token = game["seats"][1]["token"]
        assert token
        out = _run("--url", live_url, f"--game={game['game_id']}", f"--token={token}")
        assert out.startswith(f"game {game['game_id']} over: seat 1 ")
        assert client.with_token(token).view(game["game_id"])["status"] == "match_over"
