"""What the browser tests do on the page (shared by the tests and tests/web/screenshots.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

T = TypeVar("T")
TIMEOUT_S = 30

#: The table's state as the page renders it, and which keys would play.
STATE_JS = """
const game = document.querySelector('section.game');
const cards = [...document.querySelectorAll('.hand button.card')];
const primary = document.querySelector('.overlay [data-primary]');
return {
  screen: game ? 'game' : (document.querySelector('main.waiting') ? 'waiting' :
          (document.querySelector('main.lobby') ? 'lobby' : 'none')),
  version: game ? Number(game.dataset.version) : null,
  status: game ? game.dataset.status : null,
  hand_no: game ? Number(game.dataset.hand) : null,
  cards: cards.map((c) => c.dataset.card),
  legal: cards.map((c) => c.getAttribute('aria-disabled') === 'false'),
  dimmed: cards.map((c) => c.classList.contains('illegal')),
  labels: cards.map((c) => c.getAttribute('aria-label')),
  overlay: primary ? document.querySelector('.overlay h2').textContent : null,
  overlay_text: primary || document.querySelector('.overlay') ?
      document.querySelector('.overlay').innerText : null,
  hash: location.hash,
};
"""


def wait_for(driver: webdriver.Chrome, condition: Callable[[webdriver.Chrome], T],
             timeout: float = TIMEOUT_S) -> T:
    # a page redrawn between chromedriver's look-up and its answer: look again
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def on_element(driver: webdriver.Chrome, css: str, action: Callable[[Any], object],
               index: int = 0) -> None:
    """Find the ``index``-th element matching ``css`` and do ``action`` to it, both again if
    the page redrew it in between (the lobby's lists and the table refresh by themselves)."""
    def done(d: webdriver.Chrome) -> bool:
        found = d.find_elements(By.CSS_SELECTOR, css)
        if len(found) <= index:
            return False
        action(found[index])
        return True
    wait_for(driver, done)


def state(driver: webdriver.Chrome) -> dict[str, Any]:
    result: dict[str, Any] = driver.execute_script(STATE_JS)
    return result


def press(driver: webdriver.Chrome, key: str) -> None:
    """A key press sent to whatever has the focus, as a person would type it."""
    ActionChains(driver).send_keys(key).perform()


def tap(driver: webdriver.Chrome, element: Any) -> None:
    """A finger's tap on ``element`` (pointer events of type touch, then a click)."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to(element).pointer_down().pointer_up()
    actions.perform()


def console_errors(driver: webdriver.Chrome) -> list[dict[str, Any]]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def requested_urls(driver: webdriver.Chrome) -> list[str]:
    """Every URL the page asked for since the last call (from chromium's network log)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def foreign(urls: list[str], base: str) -> list[str]:
    """The URLs not served by ``base`` (data: URLs count as local)."""
    origin = urlsplit(base)
    return [u for u in urls if urlsplit(u).scheme != "data"
            and (urlsplit(u).scheme, urlsplit(u).netloc) != (origin.scheme, origin.netloc)]


def open_play(driver: webdriver.Chrome, base: str, fragment: str = "") -> None:
    driver.get(f"{base}/play{fragment}")
    wait_for(driver, lambda d: state(d)["screen"] != "none")


def choose_name(driver: webdriver.Chrome, name: str) -> None:
    """Type a name and Enter: the page creates the player."""
    on_element(driver, "#f-name", lambda field: field.send_keys(name + Keys.ENTER))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".player-name")
             or d.find_elements(By.CSS_SELECTOR, "section.game, main.waiting"))


def fill_and_send(driver: webdriver.Chrome, form_css: str, choices: dict[str, str],
                  send: Callable[[Any], object]) -> None:
    """Choose each ``name: value`` of the form's selects, then ``send`` its submit button; all
    of it again from the start if the page redrew the form meanwhile (nothing was sent then)."""
    def done(d: webdriver.Chrome) -> bool:
        form = d.find_element(By.CSS_SELECTOR, form_css)
        for name, value in choices.items():
            Select(form.find_element(By.NAME, name)).select_by_value(value)
        send(form.find_element(By.CSS_SELECTOR, "button[type=submit]"))
        return True
    wait_for(driver, done)


def play_computer(driver: webdriver.Chrome, level: str = "random", match_points: int = 3,
                  variant: str = "sixty-six", deck: str | None = None) -> None:
    """Choose the computer, variant, match length (and the pack: ``deck`` 24 or 32) by
    keyboard, then Enter on Play."""
    choices = {"level": level, "variant": variant, "match_points": str(match_points)}
    if deck is not None:
        choices["pack"] = deck
    fill_and_send(driver, "form.computer", choices, lambda button: button.send_keys(Keys.ENTER))
    wait_for(driver, lambda d: state(d)["screen"] == "game")


def create_table(driver: webdriver.Chrome, visibility: str = "private",
                 match_points: int = 3, seat: str = "open", think_time_s: int | None = None,
                 on_timeout: str = "computer", deck: str | None = None) -> str:
    """A two-hand table, its other seat ``open`` or ``computer:<level>``, with a clock of
    ``think_time_s`` if given (and the pack ``deck``); answers the invite link shown while
    waiting (a private table), else "" once the game is shown."""
    choices = {"visibility": visibility, "t_match_points": str(match_points), "seat_1": seat}
    if deck is not None:
        choices["t_pack"] = deck
    if think_time_s is not None:
        choices |= {"think_time_s": str(think_time_s), "on_timeout": on_timeout}
    fill_and_send(driver, "form.new-table", choices, lambda button: button.click())
    if visibility == "private":
        # read in the look-up: the waiting screen redraws as the table's stream comes up
        link: str = wait_for(driver, lambda d: d.find_element(
            By.CSS_SELECTOR, "input.invite").get_attribute("value") or "")
        return link
    wait_for(driver, lambda d: state(d)["screen"] == "game")
    return ""


def my_turn(driver: webdriver.Chrome) -> dict[str, Any]:
    """Wait until the page offers a move (a playable card, the settlement's Continue) or the
    match is over, while the computers' moves come from the workers; answers the state."""
    def ready(d: webdriver.Chrome) -> dict[str, Any] | None:
        now = state(d)
        offered = True in now["legal"] or (now["status"] == "hand_over" and now["overlay"])
        return now if offered or now["status"] in ("match_over", "aborted") else None
    return wait_for(driver, ready)


def step(driver: webdriver.Chrome, clicks: bool = False) -> bool:
    """One move, if the page offers one: by keys (Enter on the settlement, else the key 1-9
    of the first card the page marks as playable) or by ``clicks`` on the same. False when
    there is nothing to do.
    """
    before = state(driver)
    if before["overlay"] is not None and before["status"] == "hand_over":
        if clicks:
            on_element(driver, ".overlay [data-primary]", lambda button: button.click())
        else:
            press(driver, Keys.ENTER)
    elif True in before["legal"]:
        index = before["legal"].index(True)
        if clicks:
            on_element(driver, ".hand button.card", lambda card: card.click(), index)
        else:
            press(driver, str(index + 1))
    else:
        return False
    wait_for(driver, lambda d: state(d)["version"] != before["version"])
    return True
