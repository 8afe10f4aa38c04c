"""A gunicorn worker class for the tests (``GUNICORN_CMD_ARGS="--worker-class
tests.api.runtime.held_worker.HeldWorker"``): the gevent worker of ``deploy/gunicorn.conf.py``,
held before it loads the app until the file ``SIXTYSIX_TEST_HOLD`` names exists, so that a test
sees the server before any worker is ready for as long as it needs. It writes whether the app's
modules came with the fork (imported once by the master) to that path + ``.preloaded``."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from api.runtime.gunicorn_gevent import ProblemGeventWorker


class HeldWorker(ProblemGeventWorker):
    def init_process(self) -> None:
        hold = Path(os.environ["SIXTYSIX_TEST_HOLD"])
        Path(f"{hold}.preloaded").write_text(str("api.app" in sys.modules))
        while not hold.exists():
            time.sleep(0.05)
        super().init_process()
