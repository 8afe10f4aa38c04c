"""The web client at /play in real headless chromium against a live server."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import requests
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from tests.web.conftest import Browser
from tests.web.pages import (
    choose_name,
    console_errors,
    create_table,
    foreign,
    my_turn,
    on_element,
    open_play,
    play_computer,
    press,
    requested_urls,
    state,
    step,
    tap,
    wait_for,
)

#: docs/api.md's deal: with first_dealer 0, Bob (seat 1) leads; after Bob closes and leads
#: the jack of clubs, Ann (seat 0: KS QS AH TH JD 9D, trump hearts) must trump with AH or TH.
DECK = ["KH", "QH", "AS", "AH", "TH", "KS", "TS", "9C", "JC", "QS", "9D", "JD", "9H",
        "AC", "TC", "KC", "QC", "JS", "9S", "AD", "TD", "KD", "QD", "JH"]
MODULES = ("app.js", "api.js", "cards.js", "chat.js", "clock.js", "dom.js", "howto.js", "keys.js",
           "leaders.js", "live.js", "lobby.js", "store.js", "table.js", "table1001.js", "tour.js",
           "tourmap.js", "words.js", "style.css", "icon.svg")


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


def _hint_by_key(driver: WebDriver) -> None:
    """R: the strong computer's advice in a dialog, its card marked, the hand marked hinted;
    Enter closes the dialog."""
    before = state(driver)
    press(driver, "r")
    wait_for(driver, lambda d: state(d)["overlay"] == "Hint")
    # every kind of best action: a card, a pair shown (its suit), an exchange or a closing
    assert re.search(r"The strong computer would (play the \w+ of \w+|show the pair of \w+"
                     r"|\w+)\.", state(driver)["overlay_text"])
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: state(d)["overlay"] is None
             and d.find_elements(By.CSS_SELECTOR, ".scoreboard .hinted"))
    assert state(driver)["cards"] == before["cards"]
    artifacts(driver, "table")


def _balance_by_key(driver: WebDriver) -> bool:
    """B: the balance lists the finished hand; Escape closes it."""
    press(driver, "b")
    wait_for(driver, lambda d: state(d)["overlay"] == "Balance of all hands")
    rows = driver.find_elements(By.CSS_SELECTOR, ".balance tbody tr")
    assert len(rows) == 1 and rows[0].text.startswith("1 ")
    press(driver, Keys.ESCAPE)
    wait_for(driver, lambda d: state(d)["overlay"] is None)
    return True


def artifact_dir() -> Path:
    """Where test artifacts are kept: $SIXTYSIX_TEST_ARTIFACTS, else var/artifacts."""
    folder = Path(os.environ.get("SIXTYSIX_TEST_ARTIFACTS", "var/artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def artifacts(driver: WebDriver, name: str) -> Path:
    """A screenshot kept as a test artifact (in :func:`artifact_dir`)."""
    path = artifact_dir() / f"web-{name}.png"
    assert driver.save_screenshot(str(path))
    assert path.read_bytes().startswith(b"\x89PNG")
    return path


def test_a_whole_match_against_the_random_computer_by_keys_only(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Keys")
    play_computer(driver, level="random", match_points=3)
    _hint_by_key(driver)
    settlements = 0
    moves = 0
    balanced = False
    while my_turn(driver)["status"] != "match_over":
        now = state(driver)
        if now["status"] == "hand_over":
            text = now["overlay_text"]
            assert now["overlay"] == f"Hand {now['hand_no']} settled"
            assert re.search(r"cards \d+ .*= \d+", text) and "Continue" in text
            settlements += 1
            if settlements == 1:
                artifacts(driver, "settlement")
        elif settlements == 1 and not balanced:
            balanced = _balance_by_key(driver)
        assert step(driver), now
        moves += 1
        assert moves < 400
    final = state(driver)
    assert final["overlay"] == "Match over"
    assert re.search(r"(You|Computer \(random\)) won the match \(\d+:\d+\)",
                     final["overlay_text"])
    assert re.search(r"cards \d+ .*= \d+", final["overlay_text"])  # the last hand's working
    # a hand may end the match by itself (3 game points); every earlier one was confirmed
    assert moves >= settlements + 1 and final["hand_no"] == settlements + 1
    assert balanced or settlements == 0
    assert console_errors(driver) == []
    press(driver, Keys.ENTER)  # the settlement's button: back to the lobby
    wait_for(driver, lambda d: state(d)["screen"] == "lobby")


def _closed_deal(web_url: str, browser: Browser) -> tuple[WebDriver, str]:
    """docs/api.md's deal between Ann (this page) and Bob (by the API): Bob closes the talon and
    leads the jack of clubs. Answers the page and Bob's seat token."""
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
    return driver, bob


def test_illegal_cards_are_dimmed_and_a_legal_card_plays(web_url: str, browser: Browser) -> None:
    driver, _ = _closed_deal(web_url, browser)
    now = wait_for(driver, lambda d: state(d) if state(d)["cards"] else None)
    assert now["cards"] == ["AH", "TH", "KS", "QS", "JD", "9D"]  # trumps first, high to low
    assert now["legal"] == [True, True, False, False, False, False]
    assert now["dimmed"] == [False, False, True, True, True, True]
    assert now["labels"][0] == "Ace of hearts (key 1)"
    assert driver.find_element(By.CSS_SELECTOR, ".closed-sign").text.lower() == "closed"
    driver.execute_script(  # the setting "dim illegal cards" off; a reload resumes the hand
        "localStorage.setItem('sixtysix.settings', JSON.stringify({dim_illegal: false}));")
    driver.refresh()
    plain = wait_for(driver, lambda d: state(d) if state(d)["cards"] else None)
    assert plain["cards"] == now["cards"] and plain["version"] == now["version"]
    assert plain["legal"] == now["legal"] and plain["dimmed"] == [False] * 6
    press(driver, "3")  # the king of spades: refused by the page, nothing is sent
    wait_for(driver, lambda d: "may not be played" in d.find_element(
        By.CSS_SELECTOR, ".status-line").text)
    assert state(driver)["version"] == now["version"]
    for _ in range(20):  # Tab reaches the hand, and the focused card shows it
        press(driver, Keys.TAB)
        focused = driver.execute_script(
            "const e = document.activeElement; return e.matches('.hand .card') && "
            "[e.dataset.card, getComputedStyle(e).outlineStyle, getComputedStyle(e).outlineWidth]")
        if focused:
            break
    assert focused and focused[0] == "AH" and focused[1] == "solid" and focused[2] == "4px"
    top = "return document.querySelector('.hand').getBoundingClientRect().top"
    hand_top = driver.execute_script(top)
    ten = ".hand button[data-card='TH']"
    tap(driver, driver.find_element(By.CSS_SELECTOR, ten))  # a first tap only lifts it
    wait_for(driver, lambda d: "lifted" in (d.find_element(By.CSS_SELECTOR, ten)
                                            .get_attribute("class") or ""))
    assert state(driver)["version"] == now["version"]
    tap(driver, driver.find_element(By.CSS_SELECTOR, ten))  # the second plays it
    after = wait_for(driver, lambda d: state(d) if state(d)["version"] != now["version"]
                     else None)
    assert "TH" not in after["cards"] and len(after["cards"]) == 5
    assert driver.execute_script(top) == hand_top  # no layout shift when a card is played
    reason = driver.find_element(By.CSS_SELECTOR, ".seat.me .reason").text
    assert reason == "You took the trick: trumps"
    assert not driver.find_elements(By.CSS_SELECTOR, "[data-focus='btn:abort']")  # Bob moved
    driver.find_element(By.CSS_SELECTOR, "[data-focus='btn:resign']").click()
    confirm = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "button.danger"))
    assert confirm.text == "Really resign?" and state(driver)["status"] == "playing"
    confirm.click()
    wait_for(driver, lambda d: state(d)["overlay"] == "Match over")
    assert "Bob won the match (0:0). You resigned." in state(driver)["overlay_text"]
    assert console_errors(driver) == []


def settled(driver: WebDriver) -> int:
    """Wait until the page shows the game's current version (read with the seat token the
    page keeps): no view is on its way. Answers it."""
    game_id, token = driver.execute_script(
        "const id = new URLSearchParams(location.hash.slice(1)).get('game');"
        "return [id, JSON.parse(localStorage.getItem('sixtysix.games'))[id].token];")
    base = driver.current_url.split("/play")[0]
    version: int = requests.get(f"{base}/v1/games/{game_id}", timeout=5,
                                headers={"Authorization": f"Bearer {token}"}).json()["version"]
    wait_for(driver, lambda d: state(d)["version"] == version)
    return version


def _said(driver: WebDriver) -> list[str]:
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, ".chat li")]


def _chat(driver: WebDriver, text: str) -> None:
    """Type a message into the table's chat and send it with Enter; the focus leaves it."""
    on_element(driver, ".chat input", lambda field: field.send_keys(text + Keys.ENTER))
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".chat input")
             .get_attribute("value") == "")
    driver.execute_script("document.activeElement.blur()")


def _resume_from_the_lobby(driver: WebDriver) -> bool:
    """Reload mid-hand: the same hand; then, the seat token forgotten, resume from the lobby's
    "Your games" (the page fetches the seat token from the table with the player token)."""
    settled(driver)
    before = state(driver)
    driver.refresh()
    again = wait_for(driver, lambda d: state(d) if state(d)["cards"] else None)
    assert (again["cards"], again["version"]) == (before["cards"], before["version"])
    driver.execute_script("localStorage.removeItem('sixtysix.games'); location.hash = '#lobby';")
    wait_for(driver, lambda d: d.find_element(By.LINK_TEXT, "resume").send_keys(Keys.ENTER)
             or True)  # looked up again if the lobby's list redrew it meanwhile
    back = wait_for(driver, lambda d: state(d) if state(d)["cards"] else None)
    assert back["cards"] == before["cards"] and back["hash"] == before["hash"]
    return True


def test_two_browsers_play_a_private_table_through_its_invite_link(
        web_url: str, browser: Browser) -> None:
    ann, bob = browser(), browser()
    open_play(ann, web_url)
    choose_name(ann, "Annie")
    on_element(ann, "#f-t_point_counter", lambda box: box.click())  # for every seat
    link = create_table(ann, visibility="private")
    assert re.fullmatch(rf"{re.escape(web_url)}/play#join=[\w-]+&code=[\w-]+", link)
    wait_for(ann, lambda d: d.find_elements(By.CSS_SELECTOR, "main.waiting[data-live=stream]"))
    bob.get(link)
    choose_name(bob, "Bobby")  # the page asks a name first, then joins
    for driver in (ann, bob):
        wait_for(driver, lambda d: state(d)["screen"] == "game" and state(d)["cards"])
    players = {d: state(d) for d in (ann, bob)}
    assert all(s["hand_no"] == 1 for s in players.values())
    for driver, other in ((ann, "Bobby"), (bob, "Annie")):  # in the joiner's browser too
        counter = driver.find_element(By.CSS_SELECTOR, ".counter").text
        assert sorted(counter.splitlines()) == sorted(["You: 0", f"{other}: 0"]), counter
    _chat(ann, "Good luck, Bobby!")
    wait_for(bob, lambda d: _said(d) == ["Annie: Good luck, Bobby!"])
    _chat(bob, "Thanks 1 2 3")  # digits typed into the chat play no card
    wait_for(ann, lambda d: _said(d) == ["You: Good luck, Bobby!", "Bobby: Thanks 1 2 3"])
    assert [state(d)["version"] for d in (ann, bob)] == [s["version"] for s in players.values()]
    moves = 0
    resumed = False
    while not all(state(d)["status"] == "hand_over" for d in (ann, bob)):
        moved = [d for d in (ann, bob) if state(d)["status"] == "playing" and step(d)]
        if not moved:  # the other side's move is on its way over the long-poll
            wait_for(ann, lambda _: any(True in state(d)["legal"] or state(d)["status"]
                                        == "hand_over" for d in (ann, bob)))
        moves += len(moved)
        assert moves < 40
        if moves == 6 and not resumed:
            resumed = _resume_from_the_lobby(bob)
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


def test_a_public_game_is_watched_from_the_lobby_without_a_name(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)  # before the game exists: the lobby's lists refresh by themselves
    assert "Carla" not in driver.find_element(By.CSS_SELECTOR, "section.watch").text
    tokens = [requests.post(f"{web_url}/v1/players", json={"name": name}, timeout=5)
              .json()["token"] for name in ("Carla", "Dora")]
    carla, dora = ({"Authorization": f"Bearer {t}"} for t in tokens)
    table = requests.post(f"{web_url}/v1/tables", headers=carla, timeout=5, json={
        "seats": [{"kind": "player"}, {"kind": "open"}], "visibility": "public"}).json()
    requests.post(f"{web_url}/v1/tables/{table['table_id']}/join", headers=dora, json={},
                  timeout=5).raise_for_status()
    wait_for(driver, lambda d: d.find_element(
        By.XPATH, "//section[contains(@class, 'watch')]//li[contains(., 'Carla, Dora')]/a")
    ).send_keys(Keys.ENTER)
    wait_for(driver, lambda d: state(d)["screen"] == "game")
    assert state(driver)["cards"] == []  # a spectator sees no hand
    seats = driver.find_elements(By.CSS_SELECTOR, ".seat.other")
    assert [s.find_element(By.TAG_NAME, "h2").text.split(" (")[0] for s in seats] == [
        "Carla", "Dora"]
    assert all("6 cards" in s.text for s in seats)
    assert driver.find_element(By.CSS_SELECTOR, ".scoreboard .watching").text == "Watching"
    # the seat to move plays by the API: the spectator's page shows it over the long-poll
    game_id = requests.get(f"{web_url}/v1/tables/{table['table_id']}", timeout=5).json()["game_id"]
    for auth in (carla, dora):
        you = requests.get(f"{web_url}/v1/tables/{table['table_id']}", headers=auth,
                           timeout=5).json()["you"]
        seat_auth = {"Authorization": f"Bearer {you['token']}"}
        view = requests.get(f"{web_url}/v1/games/{game_id}", headers=seat_auth, timeout=5).json()
        if view["legal_actions"]:
            card = next(a["card"] for a in view["legal_actions"] if a["type"] == "play")
            requests.post(f"{web_url}/v1/games/{game_id}/actions", headers=seat_auth,
                          json={"type": "play", "card": card}, timeout=5).raise_for_status()
            break
    trick = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".trick .card"))
    assert trick[0].get_attribute("aria-label") == cardname(card)
    heard = driver.find_element(By.ID, "announce").get_attribute("textContent") or ""
    assert re.fullmatch(rf"(Carla|Dora) plays the {cardname(card)}\.", heard)  # screen readers
    requests.post(f"{web_url}/v1/games/{game_id}/chat", headers=seat_auth, timeout=5,
                  json={"text": "nice card"}).raise_for_status()
    said = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".chat li"))
    assert said[0].text == f"{heard.split()[0]}: nice card"  # a spectator reads the chat
    assert driver.find_elements(By.CSS_SELECTOR, ".chat input") == []  # but writes none
    assert driver.find_element(By.CSS_SELECTOR, ".scoreboard .watchers").text == "1 watching"
    assert console_errors(driver) == []


RANKS = {"A": "Ace", "T": "Ten", "K": "King", "Q": "Queen", "J": "Jack", "9": "Nine"}
SUITS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}


def cardname(code: str) -> str:
    return f"{RANKS[code[0]]} of {SUITS[code[1]]}"


def test_the_lobby_and_the_table_fit_a_360_px_phone(web_url: str, browser: Browser) -> None:
    driver = browser()
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
    overflow = ("return [document.documentElement.scrollWidth, "
                "Math.max(...[...document.querySelectorAll('button, select, .card')]"
                ".map((e) => e.getBoundingClientRect().right))];")
    open_play(driver, web_url)
    choose_name(driver, "Phone")
    width, right = driver.execute_script(overflow)
    assert width <= 360 and right <= 360
    play_computer(driver, level="random", match_points=3)
    wait_for(driver, lambda d: state(d)["cards"])
    assert driver.execute_script("return innerWidth") == 360
    width, right = driver.execute_script(overflow)
    assert width <= 360 and right <= 360
    for page, ready in (("#tour", ".stations li"), ("#leaderboard", ".ratings-body > *")):
        driver.execute_script("location.hash = arguments[0]", page)
        wait_for(driver, lambda d, css=ready: d.find_elements(By.CSS_SELECTOR, css))
        width, right = driver.execute_script(overflow)
        assert width <= 360 and right <= 360, page


def test_a_table_with_the_computer_plays_its_match_by_clicks_and_a_rematch(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Solo")
    Select(driver.find_element(By.ID, "f-deck")).select_by_value("german")  # the setting
    assert create_table(driver, visibility="public", seat="computer:random") == ""
    first = wait_for(driver, lambda d: state(d) if state(d)["cards"] else None)
    suits = {label.split(" of ")[1].split(" ")[0] for label in first["labels"]}
    assert suits <= {"acorns", "leaves", "hearts", "bells"}  # German pictures and names
    assert driver.execute_script(
        "return JSON.parse(localStorage.getItem('sixtysix.settings')).deck") == "german"
    assert re.fullmatch(r"#game=[\w-]+\.1&table=[\w-]+", first["hash"])
    moves = 0
    while my_turn(driver)["status"] != "match_over":  # by mouse clicks this time
        assert step(driver, clicks=True)
        moves += 1
        assert moves < 400
    rematch = driver.find_element(By.XPATH, "//div[@class='overlay']//button[.='Rematch']")
    rematch.send_keys(Keys.ENTER)  # the only person at the table: the next match starts
    second = wait_for(driver, lambda d: state(d) if state(d)["hash"].startswith(
        first["hash"].split(".")[0] + ".2") and state(d)["cards"] else None)
    assert second["status"] == "playing" and second["hand_no"] == 1
    assert console_errors(driver) == []


def test_buttons_only_when_legal_and_a_false_declaration_shows_its_shortfall(
        web_url: str, browser: Browser) -> None:
    driver, _ = _closed_deal(web_url, browser)
    wait_for(driver, lambda d: state(d)["cards"])
    assert driver.find_elements(By.CSS_SELECTOR, ".actions button") == []  # Ann follows
    press(driver, "2")  # the ten of hearts takes the jack of clubs: Ann leads
    wait_for(driver, lambda d: len(state(d)["cards"]) == 5)
    buttons = {b.text: b.get_attribute("aria-label")
               for b in driver.find_elements(By.CSS_SELECTOR, ".actions button")}
    # the talon is closed: no Close, no Exchange; Ann holds the king and queen of spades
    assert buttons == {"66!": "Declare 66",
                       "Show pair spades 20": "Show the pair of spades for 20"}
    driver.find_element(By.CSS_SELECTOR, "button.declare").click()  # with 12 points
    wait_for(driver, lambda d: state(d)["overlay"] == "Hand 1 settled")
    working = state(driver)["overlay_text"]
    assert "Bob wins 3 game points: a false declaration." in working
    assert "The declaration was 54 points short of 66." in working
    assert console_errors(driver) == []


#: Holds the answer to the page's first POST of an action until the test calls
#: ``window.__release()``, and counts those POSTs in ``window.__posts``.
HOLD_FIRST_ACTION_JS = """
let release;
window.__held = new Promise((resolve) => { release = resolve; });
window.__release = () => release();
window.__posts = 0;
const realFetch = window.fetch.bind(window);
window.fetch = async (url, init) => {
  if (!(init && init.method === 'POST' && String(url).endsWith('/actions'))) {
    return realFetch(url, init);
  }
  window.__posts += 1;
  const first = window.__posts === 1;
  const response = await realFetch(url, init);
  if (first) await window.__held;
  return response;
};
"""


def test_a_card_clicked_while_the_last_move_is_still_being_sent_is_played_after_it(
        web_url: str, browser: Browser) -> None:
    """The live update shows the other seat's reply before the page's own POST is answered
    (a slow network): a card clicked then waits for that answer and is sent, not dropped."""
    game = requests.post(f"{web_url}/v1/games", timeout=5, json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "first_dealer": 1}).json()  # Ann (seat 0, this page) leads
    ann, bob = (s["token"] for s in game["seats"])
    game_url = f"{web_url}/v1/games/{game['game_id']}"
    bob_auth = {"Authorization": f"Bearer {bob}"}
    driver = browser()
    open_play(driver, web_url)
    driver.execute_script(
        "localStorage.setItem('sixtysix.games', JSON.stringify(arguments[0]));",
        {game["game_id"]: {"token": ann, "seat": 0}})
    open_play(driver, web_url, f"#game={game['game_id']}")
    first = my_turn(driver)
    driver.execute_script(HOLD_FIRST_ACTION_JS)
    on_element(driver, ".hand button.card", lambda card: card.click(), first["legal"].index(True))

    def bob_view() -> dict[str, Any]:
        view: dict[str, Any] = requests.get(game_url, headers=bob_auth, timeout=5).json()
        return view
    wait_for(driver, lambda _: bob_view()["version"] > first["version"])  # Ann's card is in
    while (view := bob_view())["to_act"] == 1:  # Bob follows (and leads, if he won)
        play = next(a for a in view["legal_actions"] if a["type"] == "play")
        assert requests.post(f"{game_url}/actions", json=play, headers=bob_auth,
                             timeout=5).status_code == 200
    ready = wait_for(driver, lambda d: state(d) if state(d)["version"] == view["version"]
                     and True in state(d)["legal"] else None)
    assert driver.execute_script("return window.__posts") == 1  # the first is still unanswered
    index = ready["legal"].index(True)
    card = ready["cards"][index]
    on_element(driver, ".hand button.card", lambda element: element.click(), index)
    driver.execute_script("window.__release()")
    wait_for(driver, lambda d: d.execute_script("return window.__posts") == 2)
    wait_for(driver, lambda _: (0, card) in [
        (e["seat"], e["card"]) for e in bob_view()["events"] if e["type"] == "card_played"])
    assert console_errors(driver) == []
