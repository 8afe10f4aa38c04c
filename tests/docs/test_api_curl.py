"""docs/api.md's curl session, run as written against a served app: every shell block from "A
hand against the computer with curl" to the end of "Records of play" (but the event stream's,
which never ends), in one shell, in order. Each request's status is what the page shows (the
illegal card a 409), and the record it fetches replays (it was a 401 as written)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from api.worker.run import WorkerPool

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "api.md"
#: Where the page's examples point; the test points them at its own server.
PAGE_URL = "http://127.0.0.1:8066"
FIRST, AFTER_LAST = "## A hand against the computer with curl", "## Rules and variants"
#: curl writes each answer's status to stderr as well (the page's redirections stay as they are).
STATUS = "HTTP %{http_code}\\n"
#: The statuses of the session's requests, in order: create; view; meld, play; the illegal card;
#: resign; the record.
EXPECTED = [201, 200, 200, 200, 409, 200, 200]


def session() -> str:
    """The page's shell blocks of the curl session, in order, as one script."""
    text = PAGE.read_text(encoding="utf-8")
    part = text[text.index(FIRST):text.index(AFTER_LAST)]
    blocks = re.findall(r"^```sh\n(.*?)^```", part, re.MULTILINE | re.DOTALL)
    return "\n".join(b for b in blocks if "curl -N" not in b)


@pytest.fixture
def served(redis_server: EmbeddedRedis, redis_client: redis.Redis, workers: WorkerPool
           ) -> Iterator[str]:
    with LocalServer(redis_server.url, workers=0) as server:
        yield server.url


def test_the_curl_session_of_the_api_page_runs_as_written(served: str, tmp_path: Path) -> None:
    script = session()
    assert PAGE_URL in script and "engine.replay" in script
    shell = (f"set -e\ncurl() {{ command curl -w '%{{stderr}}{STATUS}' \"$@\"; }}\n"
             + script.replace(PAGE_URL, served))
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(["bash", "-c", shell], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, check=False,
                          env={**os.environ, "PATH": path, "PYTHONPATH": str(ROOT)})
    statuses = [int(s) for s in re.findall(r"^HTTP (\d{3})$", done.stderr, re.MULTILINE)]
    assert statuses == EXPECTED, done.stderr + done.stdout
    assert done.returncode == 0, done.stderr + done.stdout
    assert "settlements and result identical" in done.stdout
    assert "seat 0 resigned: won by seat 1" in done.stdout
