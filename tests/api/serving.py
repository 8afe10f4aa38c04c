"""A real ``sixtysix serve`` (gunicorn with deploy/gunicorn.conf.py) for the tests that need one."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

from api.runtime.redis_server import HOST

START_ATTEMPTS = 300  # 0.1 s apart: a bound on start-up, not a performance figure


@contextmanager
def sixtysix_serve(redis_url: str, log: Path, **env: str) -> Iterator[int]:
    """``sixtysix serve --port 0 --workers 1`` on ``redis_url`` with ``env`` added (rate
    limits and request logs off), up and answering ``/healthz``: its port (the free one it
    bound, as its ``API on`` line names it). Its stderr goes to ``log``."""
    environment = {**os.environ, "REDIS_URL": redis_url,
                   "SIXTYSIX_RATE_ADDRESS": "off", "SIXTYSIX_RATE_CREATE": "off",
                   "SIXTYSIX_RATE_ACTIONS": "off", "SIXTYSIX_LOG_REQUESTS": "0",
                   "PYTHONPATH": str(Path(__file__).resolve().parents[2]), **env}
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", "0", "--workers", "1"],
            env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    try:
        port = 0
        for _ in range(START_ATTEMPTS):
            assert process.poll() is None, log.read_text()
            if not port:
                named = re.search(rf"API on http://{re.escape(HOST)}:(\d+);", log.read_text())
                port = int(named.group(1)) if named else 0
            try:
                if port and requests.get(f"http://{HOST}:{port}/healthz", timeout=2).ok:
                    break
            except (requests.ConnectionError, requests.Timeout):
                pass
            time.sleep(0.1)
        else:
            raise AssertionError(f"gunicorn did not come up: {log.read_text()}")
        yield port
    finally:
        process.terminate()
        process.wait(60)
