"""The domain packages and the worker stand without the HTTP layer: a fresh interpreter that
imports them has loaded neither ``api.http`` nor the web framework."""

from __future__ import annotations

import json
import subprocess
import sys

#: The packages of the domain: their rules and use cases know nothing of HTTP.
DOMAIN = ("api.games", "api.tables", "api.players", "api.tour", "api.worker", "api.live",
          "api.leaderboard", "api.ratings")
WEB = ("flask", "flask_smorest", "marshmallow", "webargs", "werkzeug", "apispec", "api.http")

_LOADED = f"""
import importlib, json, pkgutil, sys
for name in sys.argv[1:]:
    package = importlib.import_module(name)
    for found in pkgutil.walk_packages(getattr(package, "__path__", []), name + "."):
        importlib.import_module(found.name)
print(json.dumps([m for m in sys.modules if m.split(".")[0] in {WEB!r}
                  or m == "api.http" or m.startswith("api.http.")]))
"""


def _web_modules_after(*modules: str) -> list[str]:
    """The HTTP modules loaded by a fresh interpreter importing ``modules`` (and, for a
    package, every module in it)."""
    done = subprocess.run([sys.executable, "-c", _LOADED, *modules], capture_output=True,
                          text=True, check=True, timeout=120)
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_the_worker_process_loads_no_web_framework() -> None:
    assert _web_modules_after("api.worker.run") == []


def test_no_domain_module_loads_the_http_layer() -> None:
    assert _web_modules_after(*DOMAIN) == []
