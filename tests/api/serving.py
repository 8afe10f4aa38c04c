"""A real ``sixtysix serve`` (gunicorn with deploy/gunicorn.conf.py) for the tests that need one."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

from api.redis_server import HOST, _free_port

START_ATTEMPTS = 300  # 0.1 s apart: a bound on start-up, not a performance figure


@contextmanager
def sixtysix_serve(redis_url: str, log: Path, **env: str) -> Iterator[int]:
    """``sixtysix serve --workers 1`` on ``redis_url`` with ``env`` added (rate limits and
    request logs off), up and answering ``/healthz``: its port. Its stderr goes to ``log``."""
    port = _free_port()
    environment = {**os.environ, "REDIS_URL": redis_url,
                   "SIXTYSIX_RATE_ADDRESS": "off", "SIXTYSIX_RATE_CREATE": "off",
                   "SIXTYSIX_RATE_ACTIONS": "off", "SIXTYSIX_LOG_REQUESTS": "0",
                   "PYTHONPATH": str(Path(__file__).resolve().parents[2]), **env}
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--workers", "1"],
            env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    try:
        for _ in range(START_ATTEMPTS):
            assert process.poll() is None, log.read_text()
            try:
                if requests.get(f"http://{HOST}:{port}/healthz", timeout=2).ok:
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
