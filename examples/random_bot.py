"""A complete Sixty-Six bot that plays random legal actions, using only ``requests``.

    python examples/random_bot.py                          # a new game against the computer
    python examples/random_bot.py --url URL --game=ID --token=TOKEN   # take a seat you hold
"""

from __future__ import annotations

import argparse
import random
import secrets
import time
from typing import Any

import requests

TRIES, MAX_SLEEP = 5, 10.0  # a 429 or 503 is retried after its Retry-After, this often at most


def send(api: requests.Session, method: str, url: str, **kwargs: Any) -> requests.Response:
    """The answer to the request, sent again while it is 429 (rate limited) or 503."""
    for _ in range(TRIES):
        answer = api.request(method, url, timeout=45, **kwargs)
        if answer.status_code not in (429, 503):
            return answer
        time.sleep(min(float(answer.headers.get("Retry-After", 1)), MAX_SLEEP))
    raise SystemExit(f"gave up after {TRIES} tries: {answer.status_code} {answer.text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8066")
    parser.add_argument("--game", help="game id of a seat to take (with --token)")
    parser.add_argument("--token", help="seat token of that game (--token=T: it may start with -)")
    parser.add_argument("--level", default="random", help="level of the computer opponent")
    args = parser.parse_args()
    api = requests.Session()
    game_id, token = args.game, args.token
    if not game_id:
        seats = [{"kind": "human", "name": "random bot"}, {"kind": "computer", "level": args.level}]
        created = send(api, "POST", f"{args.url}/v1/games", json={"seats": seats})
        created.raise_for_status()
        game_id, token = created.json()["game_id"], created.json()["seats"][0]["token"]
    api.headers["Authorization"] = f"Bearer {token}"
    url = f"{args.url}/v1/games/{game_id}"
    view = send(api, "GET", url).json()
    while view["status"] not in ("match_over", "aborted"):
        if not view["legal_actions"]:  # not our turn: wait (long-poll) for the next version
            params = {"after_version": view["version"], "wait": 30}
            view = send(api, "GET", url, params=params).json()
            continue
        # If-Match: refused (412) if the game moved on; a retry under the same Idempotency-Key
        # is answered from the first try, never applied twice
        headers = {"If-Match": f'"{view["version"]}"', "Idempotency-Key": secrets.token_urlsafe(16)}
        answer = send(api, "POST", f"{url}/actions", json=random.choice(view["legal_actions"]),
                      headers=headers)
        if answer.status_code in (409, 412):  # someone moved first: reload and choose again
            view = send(api, "GET", url).json()
            continue
        answer.raise_for_status()
        view = answer.json()
    match, me = view["match"], view["seat"]
    won = match["set_winner"] == me  # two-hand: a seat is a side (also after a resignation)
    print(f"game {game_id} over: seat {me} {'won' if won else 'lost'}; "
          f"game points {match['points']}, Bummerl {match['bummerl']}")


if __name__ == "__main__":
    main()
