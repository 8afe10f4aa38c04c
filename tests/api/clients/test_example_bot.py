"""examples/random_bot.py and the README's client snippet play whole matches against a served
app, as separate processes, with the default rate limits on as well as off."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import redis
import requests

from api.clients.client import SixtySixClient

ROOT = Path(__file__).resolve().parents[3]
BOT = ROOT / "examples" / "random_bot.py"
#: Where the README's examples point; the tests point them at their own server.
README_URL = "http://127.0.0.1:8066"
#: What the bot and the README's snippet print at the end of the match.
RESULT_LINE = re.compile(r"game (\S+) over: seat (\d) (won|lost); game points \[(\d+), (\d+)\], "
                         r"Bummerl \[(\d), (\d)\]\n")


def _python(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _run(*args: str) -> str:
    return _python(str(BOT), *args)


def readme_client_snippet() -> str:
    """The README's Python block that drives ``SixtySixClient``, as written there."""
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(),
                        re.MULTILINE | re.DOTALL)
    found = [b for b in blocks if "SixtySixClient(" in b]
    assert len(found) == 1, blocks
    return str(found[0])


def played_out(out: str, seat: int) -> str:
    """The game id of the line that ``out`` must be: a whole match ended, won or lost by
    ``seat`` as its points and Bummerl say."""
    found = RESULT_LINE.fullmatch(out)
    assert found and found.group(2) == str(seat), out
    game_id, _, result, *numbers = found.groups()
    points, bummerl = [int(n) for n in numbers[:2]], [int(n) for n in numbers[2:]]
    assert max(points) >= 7
    assert (result == "won") == (points[seat] > points[1 - seat]) == (bummerl[seat] == 0)
    return game_id


def _counted(redis_client: redis.Redis) -> bool:
    """Whether the rate limiter counted requests in Redis (it was on)."""
    return bool(redis_client.keys("LIMITS:*"))


def rate_limited(url: str) -> float:
    """How many answers of the server at ``url`` were 429 so far (its ``/metrics``)."""
    lines = requests.get(f"{url}/metrics", timeout=10).text.splitlines()
    return sum(float(line.rsplit(" ", 1)[1]) for line in lines
               if line.startswith("sixtysix_http_requests_total{") and 'status="429"' in line)


def test_bot_is_short_and_uses_only_requests() -> None:
    source = BOT.read_text()
    assert len(source.splitlines()) < 70
    imports = set(re.findall(r"^(?:import|from) (\w+)", source, re.MULTILINE))
    assert imports == {"__future__", "argparse", "random", "requests", "secrets", "time",
                       "typing"}


@pytest.mark.parametrize("server", ["live_url", "limited_url"])
def test_bot_plays_a_match_against_the_computer(server: str, redis_client: redis.Redis,
                                                request: pytest.FixtureRequest) -> None:
    """With limits off, and with the default limits on: a match's requests are all within them
    (the bot would wait out a 429, but none comes)."""
    url = request.getfixturevalue(server)
    before = rate_limited(url)
    out = _run("--url", url)
    game_id = played_out(out, 0)
    assert redis_client.exists(f"sixtysix:game:{{{game_id}}}")
    assert _counted(redis_client) == (server == "limited_url")
    assert rate_limited(url) == before


def test_readme_client_snippet_plays_a_match_under_the_default_limits(
        limited_url: str, redis_client: redis.Redis) -> None:
    code = readme_client_snippet()
    assert README_URL in code
    before = rate_limited(limited_url)
    out = _python("-c", code.replace(README_URL, limited_url))
    game_id = played_out(out, 0)  # the snippet says how the match ended, as the bot does
    assert redis_client.exists(f"sixtysix:game:{{{game_id}}}")
    assert _counted(redis_client)
    assert rate_limited(limited_url) == before


def test_bot_takes_a_seat_it_is_given(live_url: str, redis_client: redis.Redis) -> None:
    with SixtySixClient(live_url) as client:
        game = client.create_game(seats=[{"kind": "computer"}, {"kind": "human"}], match_points=3)
        token = game["seats"][1]["token"]
        assert token
        out = _run("--url", live_url, f"--game={game['game_id']}", f"--token={token}")
        assert out.startswith(f"game {game['game_id']} over: seat 1 ")
        assert client.with_token(token).view(game["game_id"])["status"] == "match_over"
