"""The docs' pictures of the web client: ``python -m tests.web.screenshots [--out docs]``.

Starts the app with its own Redis, drives headless Debian chromium (as the browser tests do)
and saves ``web-lobby.png`` (the lobby with an open table and a game to watch),
``web-tour.png`` (the Route-66 map), ``web-table.png`` (a hand mid-way with a 60 s clock, after
a pair was shown and a few tricks, with a word in the chat) and ``web-settlement.png`` (that
hand's settlement with its reading time); then ``t1001-auction.png`` (Tausendeins: Ann's bid
buttons and Pass) and ``t1001-trump-change.png`` (her second marriage has made diamonds trump
instead of hearts, the log says so), from a whole game against the random computer
(:mod:`tests.web.pages1001`). ``--only t1001`` saves just these two.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import requests
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from api.runtime.local import LocalServer
from tests.web.conftest import CHROMEDRIVER, CHROMIUM, CHROMIUM_FLAGS
from tests.web.pages import choose_name, open_play, state, step, wait_for
from tests.web.pages1001 import SHOT_WINDOW, play_game, save_to

DECK = ["KH", "QH", "AS", "AH", "TH", "KS", "TS", "9C", "JC", "QS", "9D", "JD", "9H",
        "AC", "TC", "KC", "QC", "JS", "9S", "AD", "TD", "KD", "QD", "JH"]


def _player(url: str, name: str) -> str:
    token: str = requests.post(f"{url}/v1/players", json={"name": name}, timeout=5).json()["token"]
    return token


def _tables(url: str) -> None:
    """An open public table (Bob waits) and a public game between Carl and Dora."""
    bob = {"Authorization": f"Bearer {_player(url, 'Bob')}"}
    requests.post(f"{url}/v1/tables", headers=bob, timeout=5, json={
        "seats": [{"kind": "player"}, {"kind": "open"}], "match_points": 7})
    carl = {"Authorization": f"Bearer {_player(url, 'Carl')}"}
    dora = {"Authorization": f"Bearer {_player(url, 'Dora')}"}
    table = requests.post(f"{url}/v1/tables", headers=carl, timeout=5, json={
        "variant": "schnapsen", "seats": [{"kind": "player"}, {"kind": "open"}],
        "match_points": 3}).json()
    requests.post(f"{url}/v1/tables/{table['table_id']}/join", headers=dora, timeout=5, json={})


def _moves(url: str, driver: webdriver.Chrome, game_id: str, bob: str, until: int) -> None:
    """Moves until the view's version reaches ``until`` or the hand is over: Bob posts his
    last legal card by the API, Ann (the page) plays her first by its key."""
    game_url = f"{url}/v1/games/{game_id}"
    auth = {"Authorization": f"Bearer {bob}"}
    while state(driver)["version"] < until and state(driver)["status"] == "playing":
        bob_view = requests.get(game_url, headers=auth, timeout=5).json()
        plays = [a for a in bob_view["legal_actions"] if a["type"] == "play"]
        if plays:
            requests.post(f"{game_url}/actions", headers=auth, json=plays[-1], timeout=5)
            wait_for(driver, lambda d, v=bob_view["version"]: state(d)["version"] > v)
        else:
            step(driver)


def _hand(url: str, driver: webdriver.Chrome, out: Path) -> None:
    """Ann (the page) against Bob (posting by the API) on docs/api.md's deal: Ann shows the 40 in
    hearts and the first cards are played (the table), then the hand is played out (the
    settlement)."""
    game = requests.post(f"{url}/v1/games", timeout=5, json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "first_dealer": 1, "deck": DECK,
        "settings": {"point_counter": True, "think_time_s": 60}}).json()
    ann, bob = (s["token"] for s in game["seats"])
    driver.execute_script(
        "localStorage.setItem('sixtysix.games', JSON.stringify(arguments[0]));"
        "localStorage.setItem('sixtysix.settings', JSON.stringify(arguments[1]));",
        {game["game_id"]: {"token": ann, "seat": 0}},
        {"deck": "french", "dim_illegal": True, "point_counter": True})
    open_play(driver, url, f"#game={game['game_id']}")
    wait_for(driver, lambda d: state(d)["cards"])
    before = state(driver)["version"]
    driver.find_element(By.CSS_SELECTOR, "[data-focus='btn:meld:H']").click()  # the 40
    wait_for(driver, lambda d: state(d)["version"] != before)
    _moves(url, driver, game["game_id"], bob, until=9)  # Bob has led to the fourth trick
    requests.post(f"{url}/v1/games/{game['game_id']}/chat", timeout=5, json={
        "text": "Nice forty, Ann!"}, headers={"Authorization": f"Bearer {bob}"})
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".chat li"))
    driver.save_screenshot(str(out / "web-table.png"))
    _moves(url, driver, game["game_id"], bob, until=10**6)
    wait_for(driver, lambda d: state(d)["overlay"] == "Hand 1 settled")
    driver.save_screenshot(str(out / "web-settlement.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs"))
    parser.add_argument("--only", choices=["t1001"], help="only the Tausendeins pictures")
    args = parser.parse_args()
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*CHROMIUM_FLAGS, "--window-size=1200,1000", "--hide-scrollbars"):
        options.add_argument(flag)
    with LocalServer() as server:
        url = server.url
        _tables(url)
        driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)),
                                  options=options)
        try:
            if not args.only:
                open_play(driver, url)
                choose_name(driver, "Ann")
                driver.execute_script("document.activeElement.blur()")
                driver.save_screenshot(str(args.out / "web-lobby.png"))
                open_play(driver, url, "#tour")
                wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".route-map"))
                driver.save_screenshot(str(args.out / "web-tour.png"))
                _hand(url, driver, args.out)
            driver.set_window_size(*SHOT_WINDOW)
            play_game(url, driver, save_to(args.out, driver))
        finally:
            driver.quit()
    wrote = "" if args.only else "web-lobby.png, web-tour.png, web-table.png, web-settlement.png, "
    print(f"wrote {wrote}t1001-auction.png and t1001-trump-change.png in {args.out}")


if __name__ == "__main__":
    main()
