"""The settlement of four-hand with 32 cards scored by hoyle, in the browser: a 65:65 tie
shows nobody scoring, the game point the next hand's winners get and who took the trump Ten
(docs/rules.md §13)."""

from __future__ import annotations

from typing import Any

import requests
from selenium.webdriver.common.by import By

from tests.engine.test_deck32_hoyle import DECK_TIE, TEN_POINT
from tests.web.conftest import Browser
from tests.web.pages import open_play, wait_for


def _played_out(web_url: str) -> tuple[str, list[str], dict[str, Any]]:
    """A four-hand hoyle game of four humans on the tied deal, played out by the API with
    first legal cards: its id, the seats' tokens and the last view."""
    game = requests.post(f"{web_url}/v1/games", timeout=5, json={
        "variant": "four-hand", "rules": TEN_POINT, "first_dealer": 0, "deck": DECK_TIE,
        "seats": [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy", "Di")]}).json()
    tokens = [s["token"] for s in game["seats"]]
    url = f"{web_url}/v1/games/{game['game_id']}"
    current: dict[str, Any] = {"status": "playing", "to_act": 1}
    while current["status"] == "playing":
        auth = {"Authorization": f"Bearer {tokens[current['to_act']]}"}
        mine = requests.get(url, headers=auth, timeout=5).json()
        card = next(a for a in mine["legal_actions"] if a["type"] == "play")
        response = requests.post(f"{url}/actions", json=card, headers=auth, timeout=5)
        assert response.status_code == 200, response.text
        current = response.json()
    return game["game_id"], tokens, current


def test_a_hoyle_tie_shows_the_carried_point_and_the_trump_ten(web_url: str,
                                                               browser: Browser) -> None:
    game_id, tokens, done = _played_out(web_url)
    s = done["settlement"]
    assert (s["reason"], s["carried_to_next"]) == ("tie", 1)
    driver = browser()
    open_play(driver, web_url)
    driver.execute_script(
        "localStorage.setItem('sixtysix.games', JSON.stringify(arguments[0]));",
        {game_id: {"token": tokens[0], "seat": 0}})
    open_play(driver, web_url, f"#game={game_id}")
    lines = wait_for(driver, lambda d: [p.text for p in
                                        d.find_elements(By.CSS_SELECTOR, "p.hoyle")])
    taker = "You + North (Cy, partner)" if s["trump_ten_side"] == 0 else "West (Bob) + East (Di)"
    assert lines == ["The winners of the next hand get 1 game point more.",
                     f"The trump Ten: 1 game point to {taker}."]
    verdict = driver.find_element(By.CSS_SELECTOR, "p.verdict").text
    assert verdict.startswith("Nobody scores")
