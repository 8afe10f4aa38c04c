"""The 32-card pack at /play in real headless chromium: chosen in the lobby (for a table and
against the computer), a whole match of sixty-six with ``deck`` 32 against the random
computer, its talon of 20 shown, the 7s and 8s drawn as cards (the French pack here; both
packs' pictures are checked by tests/web/js)."""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web.conftest import Browser
from tests.web.pages import (
    choose_name,
    console_errors,
    create_table,
    my_turn,
    open_play,
    play_computer,
    state,
    step,
    wait_for,
)

SEVENS_AND_EIGHTS = {f"{r}{s}" for r in "78" for s in "CSHD"}


def test_a_whole_32_card_match_against_the_random_computer_chosen_in_the_lobby(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Ann")
    # a table of 32 cards says so while it waits; the pack is offered only where it exists
    create_table(driver, visibility="private", deck="32")
    waiting = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "main.waiting").text)
    assert "sixty-six to 3, 32 cards: 1 open seat" in waiting
    open_play(driver, web_url, "#lobby")
    form = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "form.computer"))
    Select(form.find_element(By.NAME, "variant")).select_by_value("schnapsen")
    assert not form.find_elements(By.NAME, "pack")  # Schnapsen has 20 cards only
    Select(form.find_element(By.NAME, "variant")).select_by_value("sixty-six")
    assert driver.execute_script(  # each label names one field: no id twice
        "const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);"
        "return ids.filter((id, i) => ids.indexOf(id) !== i);") == []
    play_computer(driver, deck="32")
    first = my_turn(driver)
    talon = driver.find_element(By.CSS_SELECTOR, ".talon-count").text
    assert talon == "20", talon  # nobody has drawn yet: Ann leads or answers the first lead
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
