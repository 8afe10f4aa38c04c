"""The page follows a game by its event stream in real headless chromium: presence, a broken
stream resumed with nothing lost or doubled, the fall back to long-polls, and chat (text only,
refusals shown)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
import requests
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.web.conftest import Browser
from tests.web.pages import open_play, state, wait_for
from tests.web.proxy import Relay


def _game(url: str, driver: WebDriver) -> tuple[str, dict[str, str], dict[str, str]]:
    """Ann (this page) against Bob (by the API), who leads; answers the game id and the
    Authorization headers of Ann and Bob."""
    game = requests.post(f"{url}/v1/games", timeout=5, json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "first_dealer": 0}).json()
    ann, bob = (s["token"] for s in game["seats"])
    open_play(driver, url)
    driver.execute_script(
        "localStorage.setItem('sixtysix.games', JSON.stringify(arguments[0]));",
        {game["game_id"]: {"token": ann, "seat": 0}})
    open_play(driver, url, f"#game={game['game_id']}")
    return game["game_id"], {"Authorization": f"Bearer {ann}"}, {
        "Authorization": f"Bearer {bob}"}


def _move(url: str, game_id: str, *seats: dict[str, str]) -> int:
    """The seat of ``seats`` that is to act plays its first legal card (or continues); the
    new version."""
    for auth in seats:
        view = requests.get(f"{url}/v1/games/{game_id}", headers=auth, timeout=5).json()
        for action in view["legal_actions"]:
            if action["type"] in ("play", "continue"):
                answer = requests.post(f"{url}/v1/games/{game_id}/actions", headers=auth,
                                       json=action, timeout=5)
                assert answer.status_code == 200, answer.text
                version: int = answer.json()["version"]
                return version
    raise AssertionError("nobody may move")


def _live(driver: WebDriver) -> str | None:
    mode: str | None = driver.execute_script(
        "const g = document.querySelector('section.game'); return g && g.dataset.live;")
    return mode


def _logged(driver: WebDriver) -> list[int]:
    seqs: list[int] = driver.execute_script(
        "return [...document.querySelectorAll('.log li[data-seq], .chat li[data-seq]')]"
        ".map((li) => Number(li.dataset.seq));")
    return seqs


def _events(url: str, game_id: str, auth: dict[str, str]) -> list[dict[str, Any]]:
    page = requests.get(f"{url}/v1/games/{game_id}/events?after=0&limit=500", headers=auth,
                        timeout=5).json()
    events: list[dict[str, Any]] = page["events"]
    return events


def test_the_stream_resumes_after_a_break_with_no_event_lost_or_twice_then_falls_back(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    with Relay(web_url) as relay:  # the page talks to the server through a cuttable relay
        url = relay.url
        game_id, ann, bob = _game(url, driver)
        wait_for(driver, lambda d: _live(d) == "stream" and state(d)["version"] is not None)
        # Bob has not come yet: "away"; his first request makes him connected
        wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".seat.other .away-sign"))
        version = _move(web_url, game_id, bob)
        wait_for(driver, lambda d: state(d)["version"] == version)
        wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".away-sign"))
        # the network breaks: meanwhile both seats move (by the API) and Bob says something
        relay.down = True
        relay.cut()
        wait_for(driver, lambda d: "Connection trouble" in d.find_element(
            By.CSS_SELECTOR, ".status-line").text)
        for _ in range(3):
            version = _move(web_url, game_id, ann, bob)
        said = requests.post(f"{web_url}/v1/games/{game_id}/chat", headers=bob, timeout=5,
                             json={"text": "still there?"}).json()
        relay.down = False
        wait_for(driver, lambda d: state(d)["version"] == version and _live(d) == "stream")
        wait_for(driver, lambda d: said["seq"] in _logged(d))
        shown = _logged(driver)
        expected = [e["seq"] for e in _events(web_url, game_id, ann)
                    if e["type"] in ("card_played", "trick_won", "hand_dealt", "chat")]
        assert sorted(set(shown)) == sorted(shown) and set(expected) <= set(shown)  # none twice
        plays = driver.find_elements(By.CSS_SELECTOR, ".log li")
        assert len({p.get_attribute("data-seq") for p in plays}) == len(plays)
        # the stream is blocked: after a reload the page follows by long-polls
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/stream?*"]})
        driver.refresh()
        wait_for(driver, lambda d: _live(d) == "poll")
        version = _move(web_url, game_id, ann, bob)
        wait_for(driver, lambda d: state(d)["version"] == version)


XSS = "<img src=x onerror=\"document.body.dataset.hacked='yes'\"><b>bold</b>"


def _chat_box(driver: WebDriver) -> Any:
    return wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".chat input"))


def _said(driver: WebDriver) -> list[str]:
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, ".chat li")]


@pytest.fixture(scope="module")
def limited_url(redis_server: EmbeddedRedis) -> Iterator[str]:
    """The app with its chat limit on (3 messages a minute per seat; a refused one counts),
    the other limits off, no workers (no computer plays here)."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    client.close()
    config = {"RATELIMIT_ENABLED": True, "SIXTYSIX_RATE_CHAT": "3 per minute",
              **{f"SIXTYSIX_RATE_{name}": "off" for name in (
                  "ADDRESS", "CREATE", "ACTIONS", "PLAYERS", "TABLES")}}
    with LocalServer(redis_server.url, config=config, workers=0) as server:
        yield server.url


def test_chat_is_text_only_and_the_servers_refusals_are_shown(
        limited_url: str, browser: Browser) -> None:
    driver = browser()
    game_id, _, bob = _game(limited_url, driver)
    _chat_box(driver).send_keys(XSS + Keys.ENTER)  # Enter sends
    wait_for(driver, lambda d: _said(d) == [f"You: {XSS}"])
    assert driver.find_elements(By.CSS_SELECTOR, ".chat img, .chat b") == []
    assert driver.execute_script("return document.body.dataset.hacked") is None
    assert _chat_box(driver).get_attribute("value") == ""
    requests.post(f"{limited_url}/v1/games/{game_id}/chat", headers=bob, timeout=5,
                  json={"text": "hi Ann"}).raise_for_status()
    wait_for(driver, lambda d: _said(d) == [f"You: {XSS}", "Bob: hi Ann"])  # with names
    note = ".chat-note"
    _chat_box(driver).send_keys("right\u202eleft" + Keys.ENTER)  # a bidi override: 422
    wait_for(driver, lambda d: "bidirectional control" in d.find_element(
        By.CSS_SELECTOR, note).text)
    assert _chat_box(driver).get_attribute("value") == "right\u202eleft"  # kept to mend
    box = _chat_box(driver)
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("second" + Keys.ENTER)
    wait_for(driver, lambda d: len(_said(d)) == 3)
    _chat_box(driver).send_keys("third" + Keys.ENTER)  # the fourth in a minute: 429
    wait_for(driver, lambda d: "too many messages" in d.find_element(
        By.CSS_SELECTOR, note).text)
    assert len(_said(driver)) == 3 and state(driver)["screen"] == "game"
    press_one = driver.find_element(By.CSS_SELECTOR, ".chat input")
    assert press_one.get_attribute("value") == "third"  # typing digits never played a card
