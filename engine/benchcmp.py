"""Same-run comparison of a benchmark against another checkout's engine (``--against PATH``).

A benchmark module exposes measuring functions that take keyword arguments and return a dict
of figures (floats). :func:`compare` runs one such function in fresh interpreters, once with
this checkout's ``engine`` first on ``sys.path`` and once with ``PATH``'s, alternating ``rounds``
times (so that load from other processes falls on both alike), and keeps each side's best
round per figure. The *benchmark code* is this checkout's file in both runs (loaded from its
path), so only the engine under it differs; it must therefore use only the public engine API.
Used only by the benchmark scripts, never by the engine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: This checkout: the directory holding the ``engine`` package.
HERE = Path(__file__).resolve().parents[1]

_CHILD = """
import importlib.util, json, sys
path, bench, func, kwargs = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
sys.path.insert(0, path)
spec = importlib.util.spec_from_file_location("_bench_under_test", bench)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
import engine
assert engine.__file__.startswith(path), (engine.__file__, path)
print(json.dumps(getattr(module, func)(**kwargs)))
"""


def measure_in(path: Path, bench: Path, func: str, kwargs: Mapping[str, Any]) -> dict[str, float]:
    """Figures of ``bench``'s ``func(**kwargs)`` run in a fresh interpreter on ``path``'s
    engine."""
    env = dict(os.environ, PYTHONPATH=str(path))
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), str(bench), func, json.dumps(dict(kwargs))],
        env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"benchmark on {path} failed:\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def compare(bench: str, func: str, kwargs: Mapping[str, Any], against: str, rounds: int,
            higher_is_better: Mapping[str, bool]) -> None:
    """Print ``func``'s figures for ``against`` (before) and this checkout (after), each
    side's best of ``rounds`` alternating runs, and the speed-up of each figure (> 1: this
    checkout is faster)."""
    other = Path(against).resolve()
    best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
    for _ in range(rounds):
        for side, path in (("before", other), ("after", HERE)):
            for name, value in measure_in(path, Path(bench).resolve(), func, kwargs).items():
                old = best[side].get(name)
                if old is None or (value > old) == higher_is_better.get(name, False):
                    best[side][name] = value
    print(f"{func} {dict(kwargs)}: before = {other}, after = {HERE}, best of {rounds} "
          "alternating runs each")
    for name, after in best["after"].items():
        before = best["before"][name]
        ratio = after / before if higher_is_better.get(name, False) else before / after
        print(f"  {name:>24}: before {before:12,.3f}  after {after:12,.3f}  speed-up {ratio:.2f}x")
