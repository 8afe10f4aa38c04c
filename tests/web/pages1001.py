"""A Tausendeins game played on the page (shared by tests/web/test_t1001_page.py and
tests/web/screenshots.py): Ann (the page) against the random computer, from a stacked first
deal in which she holds the marriages of hearts and diamonds, to the end of the game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import requests
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By

from tests.web.pages import open_play, wait_for

#: The first deal, Ann dealing: the computer (forehand) gets AC TC KC JC AS TS KS JS, Ann KH QH
#: AH TH KD QD AD TD, the stock is QC QS 9C 9S 9H JH 9D JD (its top first). The computer holds
#: no marriage, so bids no more than 120; Ann outbids it, melds hearts and wins the first trick
#: with the King of trumps, then melds diamonds: trump changes from hearts to diamonds.
DECK = ["AC", "TC", "KC", "KH", "QH", "AH", "JC", "AS", "TH", "KD", "TS", "KS", "JS",
        "QD", "AD", "TD", "QC", "QS", "9C", "9S", "9H", "JH", "9D", "JD"]
RULES = {"target_points": 200}
#: The window of the pictures: the table with its log.
SHOT_WINDOW = (1200, 1300)

#: What the page offers now: its state, the action buttons, the playable cards, the dialog.
T1001_JS = """
const game = document.querySelector('section.game');
if (!game) return null;
const primary = document.querySelector('.overlay [data-primary]');
const overlay = document.querySelector('.overlay');
return {
  version: Number(game.dataset.version), status: game.dataset.status,
  stage: game.dataset.stage || null, hand_no: Number(game.dataset.hand),
  buttons: [...document.querySelectorAll('.actions button:not([disabled])')].map(
      (b) => b.dataset.focus),
  legal: [...document.querySelectorAll('.hand button.card')].filter(
      (c) => c.getAttribute('aria-disabled') === 'false').map((c) => c.dataset.card),
  overlay: primary ? overlay.querySelector('h2').textContent : null,
  overlay_text: overlay ? overlay.innerText : null,
  trump: (document.querySelector('.trump-suit') || {}).textContent || null,
  stock: (document.querySelector('.stock-count') || {}).textContent || null,
  log: [...document.querySelectorAll('.log li')].map((li) => li.textContent),
};
"""

Shot = Callable[[str], None]
#: Seconds a click waits for its move to show before the page is read and clicked again.
CLICK_TIMEOUT_S = 8


def page_state(driver: webdriver.Chrome) -> dict[str, Any] | None:
    """The page's state (``None`` before the table is drawn)."""
    found: dict[str, Any] | None = driver.execute_script(T1001_JS)
    return found


def offered(driver: webdriver.Chrome) -> dict[str, Any] | None:
    """The page's state once it offers Ann a move (or the game is over), else ``None``."""
    now = page_state(driver)
    if now is None:
        return None
    if now["status"] in ("match_over", "aborted"):
        return now
    if now["status"] == "hand_over":
        return now if now["overlay"] and "Continue" in now["overlay_text"] else None
    return now if now["buttons"] or now["legal"] else None


def open_seat(driver: webdriver.Chrome, url: str, game_id: str, token: str) -> None:
    """The page opened on ``game_id`` as seat 0 (its token kept as the lobby keeps it)."""
    open_play(driver, url)
    driver.execute_script(
        "localStorage.setItem('sixtysix.games', JSON.stringify(arguments[0]));",
        {game_id: {"token": token, "seat": 0}})
    open_play(driver, url, f"#game={game_id}")


def start(url: str, driver: webdriver.Chrome) -> str:
    """A game of Ann against the random computer on :data:`DECK`, opened on the page."""
    game = requests.post(f"{url}/v1/games", timeout=5, json={
        "variant": "tausendeins", "rules": RULES, "deck": DECK, "first_dealer": 0,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}],
    })
    assert game.status_code == 201, game.text
    body = game.json()
    open_seat(driver, url, body["game_id"], body["seats"][0]["token"])
    return str(body["game_id"])


#: A musik deal, Bob dealing: Ann (forehand) gets AH TH KH QH 9H AD TD KD QD 9D, Bob KC QC AC
#: TC 9C AS TS KS QS JS (the marriages of clubs and spades: many bids allowed); musik 1 is
#: JC JH, musik 2 JD 9S.
MUSIK_DECK = ["AH", "TH", "KH", "QH", "9H", "KC", "QC", "AC", "TC", "9C",
              "AD", "TD", "KD", "QD", "9D", "AS", "TS", "KS", "QS", "JS", "JC", "JH", "JD", "9S"]
Move = tuple[int, dict[str, Any]]


def musik_game(url: str, moves: list[Move]) -> tuple[str, str]:
    """A Tausendeins game of Ann and Bob (two people, each seat moved here by the API) on
    :data:`MUSIK_DECK` with the musik deal, after ``moves`` (seat, action); answers the game
    and Ann's token."""
    game = requests.post(f"{url}/v1/games", timeout=5, json={
        "variant": "tausendeins", "rules": {"target_points": 300, "contract_deal": "musik"},
        "deck": MUSIK_DECK, "first_dealer": 1,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
    assert game.status_code == 201, game.text
    body = game.json()
    for seat, action in moves:
        done = requests.post(f"{url}/v1/games/{body['game_id']}/actions", timeout=5, json=action,
                             headers={"Authorization": f"Bearer {body['seats'][seat]['token']}"})
        assert done.status_code == 200, done.text
    return str(body["game_id"]), str(body["seats"][0]["token"])


def _choice(now: dict[str, Any], first_deal: bool) -> str:
    """The CSS of what Ann clicks: in the first deal she outbids the computer, later she
    passes; she melds when she can, takes musik 1 and discards the first two cards, else
    plays her first playable card; Continue after a settlement."""
    buttons = now["buttons"]
    if now["status"] == "hand_over":
        return ".overlay [data-primary]"
    bids = [b for b in buttons if b.startswith("btn:bid:")]
    if bids and first_deal:
        return f"[data-focus='{bids[0]}']"
    for prefix in ("btn:pass", "btn:meld:", "btn:musik:1"):
        found = [b for b in buttons if b.startswith(prefix)]
        if found:
            return f"[data-focus='{found[0]}']"
    if now["stage"] == "musik":
        return ".hand button.card"
    return f".hand button.card[data-card='{now['legal'][0]}']"


def _click(driver: webdriver.Chrome, css: str, tries: int = 5) -> None:
    """Click the element of ``css``, found again if the page redrew it meanwhile (a live
    update between the find and the click)."""
    for _ in range(tries - 1):
        try:
            driver.find_element(By.CSS_SELECTOR, css).click()
            return
        except StaleElementReferenceException:
            continue
    driver.find_element(By.CSS_SELECTOR, css).click()


def play_game(url: str, driver: webdriver.Chrome, shot: Shot, max_moves: int = 800
              ) -> dict[str, Any]:
    """Play the game to its end from the page; ``shot(name)`` at Ann's first auction call
    (``auction``) and right after her second marriage changed trump (``trump-change``).
    Answers the last state (the game-over dialog), with ``seen``: every line the log showed
    on the way (it keeps only the last ones)."""
    start(url, driver)
    shots: set[str] = set()
    seen: dict[str, None] = {}
    for _ in range(max_moves):
        now = cast(dict[str, Any], wait_for(driver, offered))
        seen.update(dict.fromkeys(now["log"]))
        if now["status"] in ("match_over", "aborted"):
            return {**now, "seen": list(seen)}
        first_deal = now["hand_no"] == 1
        if now["stage"] == "auction" and "auction" not in shots:
            shot("auction")
            shots.add("auction")
        if first_deal and "trump-change" not in shots and any(
                "trump is now diamonds (was hearts)" in line for line in now["log"]):
            shot("trump-change")
            shots.add("trump-change")
        css = _choice(now, first_deal)
        if css == ".hand button.card":  # a discard: two cards, then the button
            codes = [c.get_attribute("data-card")
                     for c in driver.find_elements(By.CSS_SELECTOR, css)[:2]]
            for code in codes:
                _click(driver, f"{css}[data-card='{code}']")
            css = "[data-focus='btn:discard']"
        _click(driver, css)
        try:
            wait_for(driver, lambda d, v=now["version"]: (page_state(d) or {}).get("version") != v,
                     timeout=CLICK_TIMEOUT_S)
        except TimeoutException:
            continue  # a click while the page still sent the last move is not taken: again
    raise AssertionError(f"the game did not end in {max_moves} moves")


def save_to(folder: Path, driver: webdriver.Chrome) -> Shot:
    """A ``shot`` saving ``t1001-<name>.png`` in ``folder``."""
    def shot(name: str) -> None:
        path = folder / f"t1001-{name}.png"
        assert driver.save_screenshot(str(path))
    return shot
