"""Tausendeins at /play in real headless chromium against a live server: the lobby offers it
with its own rules, a whole game is played against the random computer, and a hint ranks the
auction's calls."""

from __future__ import annotations

import re
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web.conftest import Browser
from tests.web.pages import choose_name, console_errors, open_play, state, wait_for
from tests.web.pages1001 import (
    SHOT_WINDOW,
    Move,
    musik_game,
    offered,
    open_seat,
    page_state,
    play_game,
    save_to,
    start,
)
from tests.web.test_play_page import artifact_dir, artifacts


def test_the_lobby_offers_tausendeins_with_a_target_instead_of_match_points(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Lobbyist")
    form = driver.find_element(By.CSS_SELECTOR, "form.computer")
    match = form.find_element(By.CSS_SELECTOR, ".match-fields")
    assert match.is_displayed() and not form.find_elements(By.NAME, "rule_target_points")
    Select(form.find_element(By.NAME, "variant")).select_by_value("tausendeins")
    target = wait_for(driver, lambda d: form.find_element(By.NAME, "rule_target_points"))
    assert not match.is_displayed()  # no match points, point counter or 66 light
    assert target.get_attribute("value") == "1001"
    assert (target.get_attribute("min"), target.get_attribute("max")) == ("100", "10001")
    target.clear()
    target.send_keys("300")
    form.find_element(By.CSS_SELECTOR, "details.more-rules summary").click()
    about = form.find_element(By.ID, "about-rule_bidding")  # the rules' own description
    assert about.is_displayed() and "an auction for a contract before each deal" in about.text
    assert form.find_element(By.NAME, "rule_bidding").get_attribute(
        "aria-describedby") == "about-rule_bidding"
    leftover = Select(form.find_element(By.NAME, "rule_musik_leftover"))
    assert [o.text for o in leftover.options] == ["last trick", "declarer", "none"]
    Select(form.find_element(By.NAME, "rule_bidding")).select_by_value("none")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    now: dict[str, Any] = wait_for(driver, lambda d: page_state(d) or None)
    # the computer may lead first, and with a marriage: trump is none until one is melded
    melded = any("trump is now" in line for line in now["log"])
    assert now["trump"] == "Trump: none (no marriage yet)" or (
        melded and re.fullmatch(r"Trump: (clubs|spades|hearts|diamonds)", now["trump"]))
    assert re.fullmatch(r"Stock: [2468] cards", now["stock"])
    header = driver.find_element(By.CSS_SELECTOR, ".scoreboard").text
    assert "tausendeins · to 300 · deal 1" in header
    assert re.search(r"You 0 \(300 to go\) · Computer \(\w+\) 0 \(300 to go\)", header)
    assert "Hint (R)" in header
    assert not driver.find_elements(By.CSS_SELECTOR, ".trump-card")  # no card turned up
    assert not driver.find_elements(By.CSS_SELECTOR, ".calls")  # bidding none: no auction
    driver.find_element(By.CSS_SELECTOR, "[data-focus='btn:resign']").click()
    driver.find_element(By.CSS_SELECTOR, "[data-focus='btn:resign']").click()  # really
    wait_for(driver, lambda d: state(d)["overlay"] == "Game over")
    assert re.search(r"Computer \(\w+\) won the game \(0:0\)\. You resigned\.",
                     state(driver)["overlay_text"])
    assert console_errors(driver) == []


def test_a_whole_game_against_the_random_computer(web_url: str, browser: Browser) -> None:
    driver = browser(*SHOT_WINDOW)
    folder = artifact_dir()
    final = play_game(web_url, driver, save_to(folder, driver))
    artifacts(driver, "t1001-game-over")
    assert final["overlay"] == "Game over"
    assert re.search(r"(You|Computer \(random\)) won the game \(-?\d+:-?\d+\)\.",
                     final["overlay_text"])
    assert re.search(r"cards \d+ .*= \d+; [+-]\d+ → -?\d+ \(\d+ to go\)", final["overlay_text"])
    assert "Totals: " in final["overlay_text"] and "target 200" in final["overlay_text"]
    for name in ("auction", "trump-change"):
        assert (folder / f"t1001-{name}.png").read_bytes().startswith(b"\x89PNG")
    log = "\n".join(final["seen"])
    assert "Deal 1: You deal; a stock of 8; no trump until a marriage." in log
    assert "Computer (random) bids 100 (the compulsory opening)." in log
    assert re.search(r"^You bid 110\.$", log, re.M)
    assert "You meld the marriage of hearts for 60 (counts once a trick is won): trump is " \
        "now hearts." in log
    assert "trump is now diamonds (was hearts)." in log
    assert console_errors(driver) == []


def test_how_to_play_has_a_tausendeins_section(web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url, "#how-to-play")
    section = wait_for(driver, lambda d: d.find_element(By.ID, "h-t1001")).find_element(
        By.XPATH, "..")
    text = section.text
    assert "every marriage makes its suit trump at once" in text
    rows = [r.text for r in section.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert rows[:4] == ["clubs 100", "spades 80", "hearts 60", "diamonds 40"]
    assert {"Pass ends the auction: the last bidder plays the contract",
            "Take musik 1 / 2 takes that musik into your hand"} <= set(rows)
    assert [c.get_attribute("data-card") for c in section.find_elements(
        By.CSS_SELECTOR, ".card")] == ["KC", "QC"]


def test_a_table_of_tausendeins_with_the_computer_starts_its_game(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Tabler")
    form = driver.find_element(By.CSS_SELECTOR, "form.new-table")
    Select(form.find_element(By.NAME, "t_variant")).select_by_value("tausendeins")
    target = wait_for(driver, lambda d: form.find_element(By.NAME, "t_rule_target_points"))
    assert not form.find_element(By.NAME, "think_time_s").is_displayed()  # no clock in 1001
    target.clear()
    target.send_keys("150")
    Select(form.find_element(By.NAME, "visibility")).select_by_value("public")
    Select(form.find_element(By.NAME, "seat_1")).select_by_value("computer:random")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    now: dict[str, Any] = wait_for(driver, lambda d: page_state(d) or None)
    assert re.fullmatch(r"#game=[\w-]+\.1&table=[\w-]+", state(driver)["hash"])
    header = driver.find_element(By.CSS_SELECTOR, ".scoreboard").text
    assert "tausendeins · to 150 · deal 1" in header
    assert now["stage"] in ("auction", "play")
    assert console_errors(driver) == []


def test_a_hint_ranks_the_auction_s_calls_by_deal_margin(web_url: str,
                                                         browser: Browser) -> None:
    driver = browser()
    start(web_url, driver)
    now = wait_for(driver, offered)
    assert now["stage"] == "auction" and "btn:pass" in now["buttons"]
    driver.find_element(By.CSS_SELECTOR, "[data-focus='btn:hint']").click()
    shown = wait_for(driver, lambda d: (page_state(d) or {}).get("overlay_text") or None,
                     timeout=60)
    assert "The strong computer would " in shown
    assert "How far ahead of the other player (or behind) each action ends the deal" in shown
    assert re.search(r"^(Bid \d+|Pass)\t\d+\.\d (ahead|behind)$", shown, re.M), shown
    assert re.search(r"[Ii]t ends the deal \d+\.\d points (ahead|behind) \(your points minus "
                     r"the other player's\)\.", shown), shown
    assert not re.search(r"\b(bid|pass|play|meld):|deal margin", shown), shown  # no codes
    assert "This deal is now marked as hinted (unrated)." in shown
    assert console_errors(driver) == []


#: The window of a laptop (1280 x 900; the page gets 1280 x 757 of it, headless chromium
#: keeps the rest for its own bars).
LAPTOP = (1280, 900)
#: Ann's turn in three crowded moments of a musik deal: Bob declared, took and showed musik 1,
#: melded clubs (its queen shown) and won the trick, then led again; Ann declared and holds
#: 12 cards to discard from; Ann has discarded and may raise (13 steps) or meld.
CROWDED: dict[str, list[Move]] = {
    "bob-leads": [(1, {"type": "bid", "points": 110}), (0, {"type": "pass"}),
                  (1, {"type": "take_musik", "musik": 1}),
                  (1, {"type": "discard", "cards": ["9C", "JH"]}),
                  (1, {"type": "meld", "suit": "C"}), (1, {"type": "play", "card": "KC"}),
                  (0, {"type": "play", "card": "9H"}),
                  (1, {"type": "play", "card": "AC"})],
    "ann-discards": [(1, {"type": "pass"}), (0, {"type": "take_musik", "musik": 1})],
    "ann-raises": [(1, {"type": "pass"}), (0, {"type": "take_musik", "musik": 1}),
                   (0, {"type": "discard", "cards": ["JC", "9H"]})],
}
#: The hand's cards: their tops (one row), the bottom of the own seat (its hand and
#: buttons) and the right of the last card, the window's size.
HAND_JS = """
const cards = [...document.querySelectorAll('.hand button.card')];
return {tops: [...new Set(cards.map((c) => Math.round(c.getBoundingClientRect().top)))],
        count: cards.length, inner: window.innerHeight, width: window.innerWidth,
        right: cards[cards.length - 1].getBoundingClientRect().right,
        bottom: document.querySelector('.seat.me').getBoundingClientRect().bottom};
"""


def test_the_own_hand_fits_a_laptop_window_in_one_row(web_url: str, browser: Browser) -> None:
    driver = browser(*LAPTOP)
    for name, moves in CROWDED.items():
        game_id, token = musik_game(web_url, moves)
        open_seat(driver, web_url, game_id, token)
        wait_for(driver, offered)
        hand = driver.execute_script(HAND_JS)
        artifacts(driver, f"t1001-{name}-1280")
        assert hand["count"] in (9, 10, 12), (name, hand)
        assert len(hand["tops"]) == 1 and hand["bottom"] <= hand["inner"], (name, hand)
        assert hand["right"] <= hand["width"], (name, hand)
    assert console_errors(driver) == []
