"""The web client's pure JavaScript (card order and names, pictures, key map, log lines,
clocks, the tour map, the dialogs' Tab order, the table's and the lobby's words, and live.js
against a fake EventSource),
unit-tested by node's test runner (tests/web/js/*.test.mjs).

The modules are copied beside a ``package.json`` of ``"type": "module"`` so that any node
from Debian (18 or later) loads them as ES modules, as the browser does. Without ``node`` the
test is skipped, unless ``CI`` is set (``.ci/run`` installs Debian's ``nodejs``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_pure_modules_pass_their_node_tests(tmp_path: Path) -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but node is missing: apt-get install nodejs (.ci/run does)")
        pytest.skip("node is not installed: apt-get install nodejs")
    shutil.copytree(ROOT / "api" / "web", tmp_path / "api" / "web")
    shutil.copytree(ROOT / "tests" / "web" / "js", tmp_path / "tests" / "web" / "js")
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    tests = sorted(str(p) for p in (tmp_path / "tests" / "web" / "js").glob("*.test.mjs"))
    assert tests
    done = subprocess.run([node, "--test", *tests], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    written = sum(len(re.findall(r"^test\(", Path(t).read_text(), re.M)) for t in tests)
    assert "# fail 0" in done.stdout and f"# pass {written}\n" in done.stdout, done.stdout
