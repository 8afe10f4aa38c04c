"""The 32-card pack at /play in real headless chromium: a whole match of sixty-six with
``deck`` 32 against the random computer, its talon of 20 shown, the 7s and 8s drawn as cards
(the French pack here; both packs' pictures are checked by tests/web/js)."""

from __future__ import annotations

import re

import requests
from selenium.webdriver.common.by import By

from tests.web.conftest import Browser
from tests.web.pages import console_errors, my_turn, open_play, state, step, wait_for

SEVENS_AND_EIGHTS = {f"{r}{s}" for r in "78" for s in "CSHD"}


def test_a_whole_32_card_match_against_the_random_computer(web_url: str,
                                                            browser: Browser) -> None:
    game = requests.post(f"{web_url}/v1/games", timeout=5, json={
        "rules": {"deck": 32}, "match_points": 3, "first_dealer": 1,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}],
    })
    assert game.status_code == 201, game.text
    body = game.json()
    driver = browser()
    open_play(driver, web_url)
    driver.execute_script(
        "localStorage.setItem('sixtysix.games', JSON.stringify(arguments[0]));",
        {body["game_id"]: {"token": body["seats"][0]["token"], "seat": 0}})
    open_play(driver, web_url, f"#game={body['game_id']}")
    first = my_turn(driver)
    talon = driver.find_element(By.CSS_SELECTOR, ".talon-count").text
    assert talon == "20", talon  # Ann is forehand: nobody has drawn yet
    assert len(first["cards"]) == 6
    seen: set[str] = set()
    pictured = 0
    moves = 0
    while (now := my_turn(driver))["status"] != "match_over":
        for card in set(now["cards"]) & SEVENS_AND_EIGHTS - seen:
            image = driver.find_element(By.CSS_SELECTOR, f".hand button.card[data-card='{card}']")
            assert re.match(r"(Seven|Eight) of \w+", image.get_attribute("aria-label") or "")
            pictured += bool(image.find_elements(By.CSS_SELECTOR, "svg, img"))
        seen |= set(now["cards"])
        assert step(driver), now
        moves += 1
        assert moves < 600
    final = state(driver)
    assert final["overlay"] == "Match over"
    assert re.search(r"(You|Computer \(random\)) won the match \(\d+:\d+\)",
                     final["overlay_text"])
    assert seen & SEVENS_AND_EIGHTS and pictured == len(seen & SEVENS_AND_EIGHTS)
    assert console_errors(driver) == []
    wait_for(driver, lambda d: state(d)["status"] == "match_over")
