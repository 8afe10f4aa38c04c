"""The web client at /play in real headless chromium against a live server."""

from __future__ import annotations

import re

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.web.conftest import Browser
from tests.web.pages import (
    choose_name,
    console_errors,
    create_table,
    foreign,
    open_play,
    play_computer,
    press,
    requested_urls,
    state,
    step,
    wait_for,
)

#: README's example deal: with first_dealer 0, Bob (seat 1) leads; after Bob closes and leads
#: the jack of clubs, Ann (seat 0: KS QS AH TH JD 9D, trump hearts) must trump with AH or TH.
DECK = ["KH", "QH", "AS", "AH", "TH", "KS", "TS", "9C", "JC", "QS", "9D", "JD", "9H",
        "AC", "TC", "KC", "QC", "JS", "9S", "AD", "TD", "KD", "QD", "JH"]
MODULES = ("app.js", "api.js", "cards.js", "dom.js", "keys.js", "live.js", "lobby.js",
           "store.js", "table.js", "words.js", "style.css", "icon.svg")


def test_play_is_served_with_a_policy_allowing_only_this_server(web_url: str) -> None:
    page = requests.get(f"{web_url}/play", timeout=5)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "connect-src 'self'" in policy
    assert not re.search(r"https?://", page.text)
    for name in MODULES:
        asset = requests.get(f"{web_url}/play/{name}", timeout=5)
        assert asset.status_code == 200, name
        assert not re.search(r"(src|href|url)\(?=?[\"']?https?://", asset.text), name
    assert requests.get(f"{web_url}/play/app.js", timeout=5).headers[
        "Content-Type"].startswith("text/javascript")


def test_the_page_loads_everything_from_this_server_without_console_errors(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Loader")
    urls = requested_urls(driver)
    assert foreign(urls, web_url) == []
    loaded = {u.rsplit("/", 1)[-1] for u in urls}
    assert set(MODULES) <= loaded
    assert console_errors(driver) == []
    assert driver.find_element(By.CSS_SELECTOR, ".player-name").text == "Loader"


def test_a_whole_match_against_the_random_computer_by_keys_only(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Keys")
    play_computer(driver, level="random", match_points=3)
    settlements = 0
    moves = 0
    while state(driver)["status"] != "match_over":
        now = state(driver)
        if now["status"] == "hand_over":
            text = now["overlay_text"]
            assert now["overlay"] == f"Hand {now['hand_no']} settled"
            assert re.search(r"cards \d+ .*= \d+", text) and "Continue" in text
            settlements += 1
        assert step(driver), now
        moves += 1
        assert moves < 400
    final = state(driver)
    assert final["overlay"] == "Match over"
    assert re.search(r"won the match \(\d+:\d+\)", final["overlay_text"])
    assert re.search(r"cards \d+ .*= \d+", final["overlay_text"])  # the last hand's working
    # a hand may end the match by itself (3 game points); every earlier one was confirmed
    assert moves >= settlements + 1 and final["hand_no"] == settlements + 1
    assert console_errors(driver) == []
    press(driver, Keys.ENTER)  # the settlement's button: back to the lobby
    wait_for(driver, lambda d: state(d)["screen"] == "lobby")


def test_illegal_cards_are_dimmed_and_a_legal_card_plays(web_url: str, browser: Browser) -> None:
    game = requests.post(f"{web_url}/v1/games", timeout=5, json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "first_dealer": 0, "deck": DECK}).json()
    ann, bob = (s["token"] for s in game["seats"])
    url = f"{web_url}/v1/games/{game['game_id']}/actions"
    bob_auth = {"Authorization": f"Bearer {bob}"}
    for action in ({"type": "close"}, {"type": "play", "card": "JC"}):
        assert requests.post(url, json=action, headers=bob_auth, timeout=5).status_code == 200
    driver = browser()
    open_play(driver, web_url)
    driver.execute_script(
        "localStorage.setItem('sixtysix.games', JSON.stringify(arguments[0]));",
        {game["game_id"]: {"token": ann, "seat": 0}})
    open_play(driver, web_url, f"#game={game['game_id']}")
    now = wait_for(driver, lambda d: state(d) if state(d)["cards"] else None)
    assert now["cards"] == ["AH", "TH", "KS", "QS", "JD", "9D"]  # trumps first, high to low
    assert now["legal"] == [True, True, False, False, False, False]
    assert now["dimmed"] == [False, False, True, True, True, True]
    assert now["labels"][0] == "Ace of hearts (key 1)"
    assert driver.find_element(By.CSS_SELECTOR, ".closed-sign").text.lower() == "closed"
    press(driver, "3")  # the king of spades: refused by the page, nothing is sent
    wait_for(driver, lambda d: "may not be played" in d.find_element(
        By.CSS_SELECTOR, ".status-line").text)
    assert state(driver)["version"] == now["version"]
    driver.find_element(By.CSS_SELECTOR, ".hand button[data-card='TH']").click()
    after = wait_for(driver, lambda d: state(d) if state(d)["version"] != now["version"]
                     else None)
    assert "TH" not in after["cards"] and len(after["cards"]) == 5
    reason = driver.find_element(By.CSS_SELECTOR, ".seat.me .reason").text
    assert reason == "You took the trick: trumps"
    assert console_errors(driver) == []


def test_two_browsers_play_a_private_table_through_its_invite_link(
        web_url: str, browser: Browser) -> None:
    ann, bob = browser(), browser()
    open_play(ann, web_url)
    choose_name(ann, "Annie")
    link = create_table(ann, visibility="private")
    assert re.fullmatch(rf"{re.escape(web_url)}/play#join=[\w-]+&code=[\w-]+", link)
    bob.get(link)
    choose_name(bob, "Bobby")  # the page asks a name first, then joins
    for driver in (ann, bob):
        wait_for(driver, lambda d: state(d)["screen"] == "game" and state(d)["cards"])
    players = {d: state(d) for d in (ann, bob)}
    assert all(s["hand_no"] == 1 for s in players.values())
    moves = 0
    while not all(state(d)["status"] == "hand_over" for d in (ann, bob)):
        moved = [d for d in (ann, bob) if state(d)["status"] == "playing" and step(d)]
        if not moved:  # the other side's move is on its way over the long-poll
            wait_for(ann, lambda _: any(True in state(d)["legal"] or state(d)["status"]
                                        == "hand_over" for d in (ann, bob)))
        moves += len(moved)
        assert moves < 40
    assert moves == 12 * 2  # every card of the hand, from both browsers
    for driver, other in ((ann, "Bobby"), (bob, "Annie")):
        wait_for(driver, lambda d: state(d)["overlay"] == "Hand 1 settled")
        working = state(driver)["overlay_text"]
        assert other in working and re.search(r"You\s+cards \d+", working)
    step(ann)
    assert "Waiting for the others" in state(ann)["overlay_text"]
    step(bob)
    for driver in (ann, bob):
        wait_for(driver, lambda d: state(d)["hand_no"] == 2 and state(d)["status"] == "playing")
        assert console_errors(driver) == []
