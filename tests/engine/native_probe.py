"""A script run in a fresh interpreter on a source tree, with or without ``SIXTYSIX_PURE``:
what it prints as JSON (which engine and search core a process loads)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine import native


def run_probe(script: str, root: Path, pure: str | None) -> dict[str, object]:
    """The JSON ``script`` prints, run with ``root`` on ``PYTHONPATH`` and as the working
    directory, and ``SIXTYSIX_PURE`` set to ``pure`` (``None``: unset)."""
    env = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    env["PYTHONPATH"] = str(root)
    if pure is not None:
        env[native.PURE_VARIABLE] = pure
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, check=True, cwd=root)
    loaded: dict[str, object] = json.loads(done.stdout)
    return loaded
