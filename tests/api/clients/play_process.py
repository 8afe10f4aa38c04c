"""``sixtysix play`` as a separate process, as a person runs it: its stdin a pipe the test
writes to, its stdout read line by line as it comes, its config directory a temporary one."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
#: Seconds a process gets to say a line the test waits for (a bound, not a performance limit).
SAY_WITHIN = 60.0


class PlayProcess:
    """``python -m api.cli play ARGS`` with ``XDG_CONFIG_HOME``/``HOME`` under ``home``."""

    def __init__(self, args: list[str], home: Path, stdin: str | None = None) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1",
               "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "play", *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if stdin is not None:
            self.type(stdin, close=True)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()

    def type(self, text: str, close: bool = False) -> None:
        """Write ``text`` to its stdin (and close it: the end of input)."""
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()
        if close:
            self.process.stdin.close()

    def said(self, pattern: str) -> re.Match[str]:
        """The first line matching ``pattern``, once said (within :data:`SAY_WITHIN`)."""
        deadline = time.monotonic() + SAY_WITHIN
        with self._changed:
            while True:
                found = next(filter(None, (re.search(pattern, x) for x in self.lines)), None)
                if found:
                    return found
                assert time.monotonic() < deadline and self.process.poll() is None, (
                    f"never said {pattern!r}:\n" + self.text())
                self._changed.wait(0.2)

    def text(self) -> str:
        return "\n".join(self.lines)

    def end(self, within: float) -> int:
        """Its exit status, once it exits within ``within`` seconds (else it is killed and
        the test fails); its pipes are closed either way."""
        try:
            code: int | None = self.process.wait(within)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            code = None
        self._reader.join(SAY_WITHIN)  # it has read the last lines
        assert self.process.stderr is not None and self.process.stdout is not None
        errors = self.process.stderr.read()
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None and not pipe.closed:
                pipe.close()
        assert code is not None, f"still running after {within} s:\n{self.text()}"
        assert code in (0, 1), errors
        return code
