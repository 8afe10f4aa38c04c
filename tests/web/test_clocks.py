"""Clocks at the table in real headless chromium: the create-table form's think time, each
seat's countdown (in room kept for it), a hand forfeited on time, and the settlement's reading
time with Pause; the dialog keeps the focus (Tab, Shift+Tab, B and Escape give it back)."""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.web.conftest import Browser
from tests.web.pages import (
    choose_name,
    console_errors,
    create_table,
    my_turn,
    open_play,
    press,
    state,
    wait_for,
)

THINK_S = 3

FOCUSED = "return document.activeElement.dataset.focus || document.activeElement.textContent"


def _text(driver: WebDriver, selector: str) -> str:
    """The shown text of the element at ``selector``, read in one script: the clocks redraw
    every second, so an element found first and read after may be gone (stale) meanwhile."""
    text: str = driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';",
        selector)
    return text


def _my_clock(driver: WebDriver) -> str:
    return _text(driver, ".seat.me .clock")


def _reading_s(driver: WebDriver) -> int:
    text = _text(driver, ".overlay .reading")
    found = re.fullmatch(r"Reading time (\d+):(\d\d)", text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def test_a_clock_counts_down_forfeits_the_late_hand_and_the_settlement_pauses(
        web_url: str, browser: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIXTYSIX_MIN_THINK_TIME_S", str(THINK_S))  # the server's test bound
    monkeypatch.setenv("SIXTYSIX_READING_S", "40")
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Clocky")
    assert create_table(driver, visibility="public", seat="computer:random", match_points=7,
                        think_time_s=THINK_S, on_timeout="forfeit") == ""  # 3 points lost
    my_turn(driver)
    wait_for(driver, lambda d: re.fullmatch(r"0:0[1-3]", _my_clock(d)))  # my time runs
    assert _text(driver, ".seat.other .clock") == ""  # not timed
    boxes = driver.execute_script(  # a running clock takes the room of a stopped one
        "return [...document.querySelectorAll('.clock')].map((c) => {"
        "const r = c.getBoundingClientRect(); return [r.width, r.height]; });")
    assert len(boxes) == 2 and boxes[0] == boxes[1]
    # nobody plays: the time runs out and the hand is forfeited
    wait_for(driver, lambda d: state(d)["overlay"] == "Hand 1 settled")
    assert "out of time" in state(driver)["overlay_text"]
    assert _reading_s(driver) > 30  # 40 s reading plus the think time, counting down
    assert driver.execute_script(FOCUSED) == "btn:continue"
    press(driver, Keys.TAB)  # the focus stays in the dialog: Pause, then Continue again
    assert driver.execute_script(FOCUSED) == "btn:pause"
    press(driver, Keys.TAB)
    assert driver.execute_script(FOCUSED) == "btn:continue"
    press(driver, Keys.SHIFT + Keys.TAB)
    assert driver.execute_script(FOCUSED) == "btn:pause"
    press(driver, "b")  # the balance over the settlement
    wait_for(driver, lambda d: state(d)["overlay"] == "Balance of all hands")
    press(driver, Keys.TAB)
    assert driver.execute_script(FOCUSED) == "btn:close-panel"  # its only button
    press(driver, Keys.ESCAPE)
    wait_for(driver, lambda d: state(d)["overlay"] == "Hand 1 settled")
    assert driver.execute_script(FOCUSED) == "btn:pause"  # the focus is given back
    before = state(driver)["version"]
    press(driver, Keys.ENTER)  # the focused Pause: 60 s more
    wait_for(driver, lambda d: state(d)["version"] != before and _reading_s(d) > 60)
    assert not driver.find_elements(By.CSS_SELECTOR, "[data-focus='btn:pause']")  # once a hand
    assert "You pause the settlement (60 s more)." in driver.find_element(
        By.CSS_SELECTOR, ".log").text
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: state(d)["hand_no"] == 2)
    assert console_errors(driver) == []
