"""What a fast bot sends: ``python -m tests.bench.bench_bot_rate [--matches 40] [--url URL]``.

Runs ``examples/random_bot.py`` (against the random computer, to 7 game points) ``--matches``
times back to back in this process and records every HTTP request it makes (a wrapper around
``requests.Session.send``, the bot's only way out). Without ``--url`` it serves the API under
gunicorn as ``deploy/gunicorn.conf.py`` runs it, with rate limits off (:data:`UNLIMITED_ENV`),
so the figures are the bot's own pace, not a limiter's.

Printed: per match the requests, actions and seconds (min, median, max), the request rate
while a match runs, the most requests and actions in any 1 s window of one match (one seat
token), and over the whole back-to-back run the most requests and games created in any 1 s
and 10 s window (one client address). :mod:`api.http.limits` chose its defaults from these figures.
"""

from __future__ import annotations

import argparse
import runpy
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from tests.bench.bench_http import HOST, served

BOT = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"

Sent = tuple[float, str, str]  # (monotonic time, method, last path segment)


@contextmanager
def recording() -> Iterator[list[Sent]]:
    """Every request sent by any ``requests.Session`` meanwhile, in order."""
    sent: list[Sent] = []
    original = requests.Session.send

    def send(self: requests.Session, prepared: requests.PreparedRequest,
             **kwargs: Any) -> requests.Response:
        path = (prepared.path_url or "").split("?")[0]
        sent.append((time.monotonic(), str(prepared.method), path.rsplit("/", 1)[-1]))
        return original(self, prepared, **kwargs)

    requests.Session.send = send  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        requests.Session.send = original  # type: ignore[method-assign]


def peak(times: Sequence[float], window: float) -> int:
    """The most of ``times`` (sorted) within any ``window`` seconds."""
    best = start = 0
    for end, t in enumerate(times):
        while times[start] <= t - window:
            start += 1
        best = max(best, end - start + 1)
    return best


def play(url: str, matches: int) -> list[list[Sent]]:
    out: list[list[Sent]] = []
    argv = sys.argv
    try:
        for _ in range(matches):
            sys.argv = [str(BOT), "--url", url]
            with recording() as sent:
                runpy.run_path(str(BOT), run_name="__main__")
            out.append(sent)
    finally:
        sys.argv = argv
    return out


def spread(values: Sequence[float]) -> str:
    return f"min {min(values):g}, median {statistics.median(values):g}, max {max(values):g}"


def report(runs: list[list[Sent]]) -> None:
    seconds = [round(r[-1][0] - r[0][0], 3) for r in runs]
    actions = [[t for t, method, last in r if method == "POST" and last == "actions"]
               for r in runs]
    print(f"{len(runs)} matches of examples/random_bot.py against the random computer")
    print(f"requests per match: {spread([len(r) for r in runs])}")
    print(f"actions per match:  {spread([len(a) for a in actions])}")
    print(f"seconds per match:  {spread(seconds)}")
    print(f"requests/s within a match: "
          f"{spread([round(len(r) / max(s, 1e-3)) for r, s in zip(runs, seconds, strict=True)])}")
    print(f"most requests of one match in 1 s: {max(peak([t for t, _, _ in r], 1) for r in runs)}")
    print(f"most actions of one token in 1 s:  {max(peak(a, 1) for a in actions)}")
    every = [s for r in runs for s in r]
    times = [t for t, _, _ in every]
    creates = [t for t, method, last in every if method == "POST" and last == "games"]
    wall = times[-1] - times[0]
    print(f"back to back, one address: {len(every)} requests in {wall:.1f} s "
          f"({len(every) / wall:.0f}/s); most in 1 s {peak(times, 1)}, in 10 s "
          f"{peak(times, 10)}; games created: most in 1 s {peak(creates, 1)}, "
          f"in 10 s {peak(creates, 10)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches to play (default 40)")
    parser.add_argument("--url", help="a running server (default: one served here, limits off)")
    args = parser.parse_args(argv)
    if args.url:
        report(play(args.url, args.matches))
        return 0
    with served(None, None) as (port, _, _):
        report(play(f"http://{HOST}:{port}", args.matches))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
