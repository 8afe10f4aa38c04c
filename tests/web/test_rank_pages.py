"""The Route-66 tour and the leaderboard pages in real headless chromium, reached from the
lobby: the map's eight stations (open and locked), a station's game started from it and
resumed; the leaderboard's filters and the ratings, as the API answers them."""

from __future__ import annotations

from typing import Any

import requests
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web.conftest import Browser
from tests.web.pages import choose_name, console_errors, open_play, state, wait_for

#: The drawn tour page in one look: each station's class, the stamps line, the map's label
#: and the number of buttons per listed station; null until all eight are drawn.
TOUR_JS = """
const stations = [...document.querySelectorAll('.route-map g.station')];
const items = [...document.querySelectorAll('.stations li')];
if (stations.length !== 8 || items.length !== 8) return null;
return {
  stations: stations.map(s => s.getAttribute('class')),
  stamps: document.getElementById('h-map').innerText,
  label: document.querySelector('.route-map').getAttribute('aria-label') || '',
  buttons: items.map(li => li.querySelectorAll('button').length),
};
"""


def test_the_tour_map_opens_chicago_and_starts_and_resumes_its_game(
        web_url: str, browser: Browser) -> None:
    driver = browser()
    open_play(driver, web_url)
    choose_name(driver, "Tourist")
    driver.find_element(By.LINK_TEXT, "Route 66 tour").click()
    # read in one script, once drawn: the page may redraw between two look-ups
    tour = wait_for(driver, lambda d: d.execute_script(TOUR_JS))
    assert tour["stations"] == ["station open"] + ["station locked"] * 7
    assert tour["stamps"] == "Stamps: 0 of 8"
    assert tour["label"].startswith("Route 66 map: 1. Chicago, Lakeshore Griddle: Mabel "
                                    "(easy), sixty-six to 3 — open; 2. St. Louis")
    assert tour["buttons"] == [1] + [0] * 7  # only the open station can be played
    # a click on an element redrawn meanwhile is stale: wait_for looks it up again
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".stations li button").click()
             or True)
    game = wait_for(driver, lambda d: state(d) if state(d)["cards"] else None)
    names = wait_for(driver, lambda d: d.execute_script(
        "return [...document.querySelectorAll('.seat.other h2')].map(h => h.innerText)"))
    assert [n.replace(" (dealer)", "") for n in names] == ["Mabel (easy)"]  # the cook
    driver.execute_script("location.hash = '#tour'")
    resume = wait_for(driver, lambda d: d.find_element(By.PARTIAL_LINK_TEXT, "resume"))
    resume.click()
    wait_for(driver, lambda d: state(d)["hash"] == game["hash"] and state(d)["cards"])
    assert console_errors(driver) == []


def _board_rows(driver: WebDriver, table: str) -> list[list[str]]:
    return [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in driver.find_elements(By.CSS_SELECTOR, f"table.{table} tbody tr")]


def _resigned_match(url: str) -> None:
    """A rated table of Lena and Max; after the first hand is settled (fewer, and the match is
    too short to rate anybody) Max resigns: both are rated, Lena placed, Max pays his
    penalty."""
    auth = [{"Authorization": "Bearer " + requests.post(
        f"{url}/v1/players", json={"name": name}, timeout=5).json()["token"]}
        for name in ("Lena", "Max")]
    table = requests.post(f"{url}/v1/tables", headers=auth[0], timeout=5, json={
        "seats": [{"kind": "player"}, {"kind": "open"}], "match_points": 7}).json()
    requests.post(f"{url}/v1/tables/{table['table_id']}/join", headers=auth[1], json={},
                  timeout=5).raise_for_status()
    seats = [requests.get(f"{url}/v1/tables/{table['table_id']}", headers=a,
                          timeout=5).json()["you"] for a in auth]
    game = f"{url}/v1/games/{seats[1]['game_id']}"
    tokens = [{"Authorization": f"Bearer {you['token']}"} for you in seats]
    while True:
        views = [requests.get(game, headers=t, timeout=5).json() for t in tokens]
        if views[1]["settlement"] is not None:
            break
        mover = next(i for i, v in enumerate(views) if v["legal_actions"])
        requests.post(f"{game}/actions", json=views[mover]["legal_actions"][0],
                      headers=tokens[mover], timeout=5).raise_for_status()
    requests.post(f"{game}/actions", json={"type": "resign"}, headers=tokens[1],
                  timeout=5).raise_for_status()


def _api(url: str, path: str) -> dict[str, Any]:
    answer: dict[str, Any] = requests.get(f"{url}{path}", timeout=5).json()
    return answer


def test_the_leaderboard_filters_and_the_ratings_show_what_the_api_answers(
        web_url: str, browser: Browser) -> None:
    _resigned_match(web_url)
    board = _api(web_url, "/v1/leaderboard?period=all&kind=human")["entries"]
    ratings = _api(web_url, "/v1/ratings?variant=sixty-six&kind=human")["ratings"]
    assert {e["name"] for e in board} >= {"Max"} and len(ratings) >= 1
    driver = browser()
    open_play(driver, web_url)
    driver.find_element(By.LINK_TEXT, "Leaderboard and ratings").click()  # no name needed
    wait_for(driver, lambda d: _board_rows(d, "leaderboard"))
    assert _board_rows(driver, "leaderboard") == [
        [str(e["rank"]), e["name"], str(e["points"])] for e in board]
    assert _board_rows(driver, "ratings") == [
        [str(r["place"]), r["name"], str(r["display"]) + (" (provisional)" * r["provisional"]),
         str(r["matches"])] for r in ratings]
    counting = _api(web_url, "/v1/rules")["leaderboard"]
    rules = driver.find_element(By.CSS_SELECTOR, ".rules-panel").text  # how it counts
    bonus = " / ".join(str(p) for p in counting["placement_bonus"])
    assert f"{bonus} points for first, second and third place" in rules
    assert f"costs {counting['leave_penalty']} points" in rules
    assert f"play {counting['rated_pair_limit']} rated matches together in 24 hours" in rules
    assert "hint counts for nobody on your side" in rules
    Select(driver.find_element(By.NAME, "period")).select_by_value("month")
    month = _api(web_url, "/v1/leaderboard?period=month&kind=human")
    wait_for(driver, lambda d: f"in {month['month']}" in d.find_element(
        By.CSS_SELECTOR, "table.leaderboard caption").text)
    assert _board_rows(driver, "leaderboard") == [
        [str(e["rank"]), e["name"], str(e["points"])] for e in month["entries"]]
    Select(driver.find_element(By.NAME, "variant")).select_by_value("schnapsen")
    wait_for(driver, lambda d: "Nobody has points yet" in d.find_element(
        By.CSS_SELECTOR, ".board-body").text)
    Select(driver.find_element(By.NAME, "kind")).select_by_value("bot")
    wait_for(driver, lambda d: "bot accounts" in d.find_element(
        By.CSS_SELECTOR, ".board-body").text)
    Select(driver.find_element(By.NAME, "rating_variant")).select_by_value("four-hand")
    wait_for(driver, lambda d: "No ratings yet (four-hand)" in d.find_element(
        By.CSS_SELECTOR, ".ratings-body").text)
    assert console_errors(driver) == []
