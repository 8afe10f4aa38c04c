"""The farming attack of issue 23, as a script:
``python -m tests.bench.farm_leaderboard [--rounds 30] [--patient] [--url URL] [--tree DIR]``.

Two accounts of one person (one client address) sit at one rated two-hand table; the second
resigns at once, both ask for a rematch, ``--rounds`` times, as fast as the server answers.
A 429 stops the run, unless ``--patient``: then the script waits the ``Retry-After`` and goes
on (what the rate limit alone does not stop, the leaderboard's rules must).

Without ``--url`` it serves the API as :mod:`tests.bench.bench_http` does (gunicorn, Redis, a worker
per core) with the **shipped** rate limits (``api.config.DEFAULTS``, whatever the environment
says); ``--tree DIR`` serves another source tree of the project instead (``/work/main``: the
figures before a change).

Printed: the seconds taken, the rounds played, the 429s met, the matches that were rated and
unrated, and each account's leaderboard points, rank and rating (all time, all variants).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from api.config import DEFAULTS
from api.http.limits import LIMIT_SETTINGS
from tests.bench.bench_http import HOST, served_stack

#: The shipped rate limits, as environment variables of the served API.
SHIPPED_ENV = {name: str(DEFAULTS[name])
               for name in (*LIMIT_SETTINGS, "SIXTYSIX_MAX_GAMES_PER_ADDRESS")}


@dataclass
class Farmed:
    """What the run did and what it gained."""

    rounds: int = 0
    refused: int = 0
    seconds: float = 0.0
    rated: int = 0
    unrated: list[str] = field(default_factory=list)
    #: account -> ``{"points", "rank"}`` (``None``: not on the board) and ``"rating"``
    accounts: dict[str, dict[str, Any]] = field(default_factory=dict)


class Farmer:
    """Both accounts of the farmer, through one session (one address)."""

    def __init__(self, url: str, patient: bool) -> None:
        self.url = url.rstrip("/")
        self.http = requests.Session()
        self.patient = patient
        self.refused = 0

    def send(self, method: str, path: str, token: str | None = None,
             body: dict[str, Any] | None = None) -> requests.Response | None:
        """The answer, or ``None`` for a 429 when not patient (a patient farmer waits)."""
        while True:
            answer = self.http.request(method, self.url + path, json=body, timeout=30,
                                       headers={"Authorization": f"Bearer {token}"} if token
                                       else {})
            if answer.status_code != 429:
                answer.raise_for_status()
                return answer
            self.refused += 1
            if not self.patient:
                return None
            time.sleep(int(answer.headers.get("Retry-After", "1")))

    def player(self, name: str) -> tuple[str, str]:
        answer = self.send("POST", "/v1/players", body={"name": name})
        assert answer is not None, "no player: rate limited"
        body = answer.json()
        return body["player_id"], body["token"]

    def standing(self, player_id: str) -> dict[str, Any]:
        answer = self.send("GET", f"/v1/players/{player_id}")
        assert answer is not None
        body = answer.json()
        rating = body["ratings"]["sixty-six"]
        return {"board": body["leaderboard"]["all"]["all"],
                "rating": None if rating is None else rating["display"]}


def farm(url: str, rounds: int, patient: bool = False) -> Farmed:
    """Run the attack against the API at ``url``; what it gained."""
    farmer = Farmer(url, patient)
    out = Farmed()
    stamp = time.strftime("%H%M%S")
    first, first_token = farmer.player(f"First {stamp}")
    second, second_token = farmer.player(f"Second {stamp}")
    start = time.monotonic()
    created = farmer.send("POST", "/v1/tables", first_token, {
        "variant": "sixty-six", "match_points": 7,
        "seats": [{"kind": "player"}, {"kind": "open"}]})
    assert created is not None, "no table: rate limited"
    table_id = created.json()["table_id"]
    farmer.send("POST", f"/v1/tables/{table_id}/join", second_token, {})
    for _ in range(rounds):
        table = farmer.send("GET", f"/v1/tables/{table_id}", second_token)
        assert table is not None
        you = table.json()["you"]
        resigned = farmer.send("POST", f"/v1/games/{you['game_id']}/actions", you["token"],
                               {"type": "resign"})
        if resigned is None:
            break
        view = resigned.json()
        if view["rated"]:
            out.rated += 1
        else:
            out.unrated.append(view.get("unrated_reason") or "unrated")
        out.rounds += 1
        if None in (farmer.send("POST", f"/v1/tables/{table_id}/rematch", token)
                    for token in (first_token, second_token)):
            break
    out.seconds = time.monotonic() - start
    out.refused = farmer.refused
    out.accounts = {"first": farmer.standing(first), "second": farmer.standing(second)}
    return out


def report(found: Farmed) -> None:
    print(f"rounds played: {found.rounds} in {found.seconds:.1f} s; 429s: {found.refused}")
    print(f"matches rated: {found.rated}; unrated: {len(found.unrated)}"
          + (f" ({found.unrated[0]})" if found.unrated else ""))
    for name, account in found.accounts.items():
        board = account["board"]
        place = "not on the board" if board is None else (
            f"{board['points']} points, rank {board['rank']}")
        print(f"{name} account: {place}; rating {account['rating'] or 'none (never moved)'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--patient", action="store_true",
                        help="wait out each 429's Retry-After instead of stopping")
    parser.add_argument("--url", help="an API already running (else one is served)")
    parser.add_argument("--tree", type=Path, help="serve this source tree instead")
    args = parser.parse_args()
    if args.url:
        report(farm(args.url, args.rounds, args.patient))
        return
    with served_stack(None, None, SHIPPED_ENV, args.tree) as stack:
        report(farm(f"http://{HOST}:{stack.port}", args.rounds, args.patient))


if __name__ == "__main__":
    main()
