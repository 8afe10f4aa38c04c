"""The "How to play" page in real headless chromium: reached from the lobby and from a table,
it shows the six cards of a suit with their points, the points table and the buttons."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.web.conftest import Browser
from tests.web.pages import choose_name, console_errors, open_play, play_computer, wait_for

#: The drawn page in one look, or null until drawn.
HOWTO_JS = """
const main = document.querySelector('main.howto-page');
if (!main) return null;
return {
  title: main.querySelector('h1').innerText,
  cards: [...main.querySelectorAll('#h-cards ~ ol .card')].map(c => c.dataset.card),
  captions: [...main.querySelectorAll('#h-cards ~ ol figcaption')].map(f => f.innerText),
  score_rows: [...main.querySelectorAll('#h-score ~ table tbody tr')].map(
      tr => [...tr.querySelectorAll('td')].map(td => td.innerText)),
  buttons: [...main.querySelectorAll('#h-buttons ~ table tbody td:first-child')].map(
      td => td.innerText),
};
"""


def test_how_to_play_is_linked_from_the_lobby_and_shows_cards_points_and_buttons(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    driver.find_element(By.LINK_TEXT, "How to play").click()
    page = wait_for(driver, lambda d: d.execute_script(HOWTO_JS))
    assert page["title"] == "How to play Sixty-Six"
    assert page["cards"] == ["AH", "TH", "KH", "QH", "JH", "9H"]
    assert page["captions"] == ["11 points", "10 points", "4 points", "3 points", "2 points",
                                "0 points"]
    assert page["score_rows"] == [["took no trick", "3"],
                                  ["took a trick, 32 points or fewer", "2"],
                                  ["33 points or more", "1"]]
    assert {"66!", "Close", "Hint (R)", "Continue (Enter)"} <= set(page["buttons"])
    driver.find_element(By.LINK_TEXT, "Back to the lobby").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "f-name"))
    assert console_errors(driver) == []


def test_the_table_links_to_how_to_play_in_a_new_tab(web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Learner")
    play_computer(driver)
    link = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".tools a.howto-link"))
    assert link.get_attribute("href").endswith("/play#how-to-play")
    assert link.get_attribute("target") == "_blank"
    table = driver.current_window_handle
    link.click()
    wait_for(driver, lambda d: len(d.window_handles) == 2)
    driver.switch_to.window(next(h for h in driver.window_handles if h != table))
    assert wait_for(driver, lambda d: d.execute_script(HOWTO_JS))["title"] == (
        "How to play Sixty-Six")
