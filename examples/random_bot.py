"""A complete Sixty-Six bot that plays random legal actions, using only ``requests``.

    python examples/random_bot.py                          # a new game against the computer
    python examples/random_bot.py --url URL --game=ID --token=TOKEN   # take a seat you hold
"""

from __future__ import annotations

import argparse
import random

import requests


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
        created = api.post(f"{args.url}/v1/games", json={"seats": seats}, timeout=10)
        created.raise_for_status()
        game_id, token = created.json()["game_id"], created.json()["seats"][0]["token"]
    api.headers["Authorization"] = f"Bearer {token}"
    url = f"{args.url}/v1/games/{game_id}"
    view = api.get(url, timeout=10).json()
    while view["status"] not in ("match_over", "aborted"):
        if not view["legal_actions"]:  # not our turn: wait (long-poll) for the next version
            params = {"after_version": view["version"], "wait": 30}
            view = api.get(url, params=params, timeout=45).json()
            continue
        action = random.choice(view["legal_actions"])
        headers = {"If-Match": f'"{view["version"]}"'}  # refused (412) if the game moved on
        answer = api.post(f"{url}/actions", json=action, headers=headers, timeout=10)
        if answer.status_code in (409, 412):  # someone moved first: reload and choose again
            view = api.get(url, timeout=10).json()
            continue
        answer.raise_for_status()
        view = answer.json()
    match, me = view["match"], view["seat"]
    won = match["set_winner"] == me  # two-hand: a seat is a side (also after a resignation)
    print(f"game {game_id} over: seat {me} {'won' if won else 'lost'}; "
          f"game points {match['points']}, Bummerl {match['bummerl']}")


if __name__ == "__main__":
    main()
