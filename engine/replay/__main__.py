"""``python -m engine.replay RECORD [--show]``: :func:`engine.replay.main`.

A module of its own, so that running it never imports :mod:`engine.replay` a second time as
``__main__`` (``import engine`` imports that module already: runpy warned at every run).
"""

import sys

from engine.replay import main

sys.exit(main())
