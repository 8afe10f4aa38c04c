"""Benchmark against a peer: random hands on this engine, pure and compiled, and on the
``schnapsen`` package (0.0.5, "A platform for coding and running card playing bots"), in one run.

Run ``python -m engine.benchpeer --peer-python PEER/bin/python [--hands N] [--rounds R]``.
The peer pins ``flask==2.3.3`` (this project needs flask 3), so it lives in a virtual
environment of its own: ``python -m venv PEER && PEER/bin/pip install schnapsen==0.0.5``.

Each side plays ``--hands`` hands of random legal moves, dealing included, in a fresh
interpreter, timed by that process's CPU time: this engine by :func:`engine.bench.run` with
``SIXTYSIX_PURE=1`` (the pure Python path) and without it (the compiled path where it is
built, see :mod:`engine.native`), in ``sixty-six`` (24 cards, the figure of
``python -m engine.bench``) and in ``schnapsen`` (20 cards, the peer's game); the peer by its
``SchnapsenGamePlayEngine.play_game`` between two of its ``RandBot``\\ s (one call is one
hand). The sides alternate ``--rounds`` times, so that load from other processes falls on all
alike, and each side's best round is printed with the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Mapping

from engine.native import PURE_VARIABLE

_OURS = """
import json, sys
from engine import native
from engine.bench import run
hands, seed, variant = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
print(json.dumps({"hands/s": run(hands, seed, variant=variant)[0], "engine": native.describe()}))
"""

_PEER = """
import json, random, sys, time
from importlib.metadata import version
from schnapsen.bots import RandBot
from schnapsen.game import SchnapsenGamePlayEngine
hands, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
engine = SchnapsenGamePlayEngine()
first, second = RandBot(random.Random(seed + 1), "a"), RandBot(random.Random(seed + 2), "b")
start = time.process_time()
for _ in range(hands):
    engine.play_game(first, second, rng)
elapsed = time.process_time() - start
print(json.dumps({"hands/s": hands / elapsed, "engine": "schnapsen " + version("schnapsen")}))
"""


def measure(command: list[str], env: Mapping[str, str]) -> dict[str, str | float]:
    """The figures a child prints as its last line of JSON."""
    done = subprocess.run(command, env=dict(env), capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"{command[0]} failed:\n{done.stderr}")
    figures: dict[str, str | float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-python", required=True, metavar="PYTHON",
                        help="an interpreter with schnapsen==0.0.5 installed")
    parser.add_argument("--hands", type=int, default=2000, help="hands per side and round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per side")
    args = parser.parse_args()
    pure_env = dict(os.environ, **{PURE_VARIABLE: "1"})
    compiled_env = {k: v for k, v in os.environ.items() if k != PURE_VARIABLE}
    sides: dict[str, tuple[list[str], Mapping[str, str]]] = {"peer": (
        [args.peer_python, "-c", _PEER, str(args.hands), str(args.seed)], compiled_env)}
    for variant in ("sixty-six", "schnapsen"):
        ours = [sys.executable, "-c", _OURS, str(args.hands), str(args.seed), variant]
        sides[f"pure {variant}"] = (ours, pure_env)
        sides[f"compiled {variant}"] = (ours, compiled_env)
    best: dict[str, dict[str, str | float]] = {}
    for _ in range(args.rounds):
        for name, (command, env) in sides.items():
            figures = measure(command, env)
            if name not in best or float(figures["hands/s"]) > float(best[name]["hands/s"]):
                best[name] = figures
    peer = float(best["peer"]["hands/s"])
    print(f"{args.hands} random hands per side, best of {args.rounds} alternating rounds "
          "(CPU time)")
    for name, figures in best.items():
        rate = float(figures["hands/s"])
        ratio = "" if name == "peer" else f"  {rate / peer:6.1f}x the peer"
        if name.startswith("compiled"):
            pure = float(best["pure" + name.removeprefix("compiled")]["hands/s"])
            ratio += f"  {rate / pure:5.2f}x pure"
        print(f"  {name + ' (' + str(figures['engine']) + ')':<40} {rate:10,.0f} hands/s{ratio}")


if __name__ == "__main__":
    main()
