"""Fixtures of the browser tests: the app on a real socket and headless Debian chromium.

Selenium drives ``/usr/bin/chromium`` through ``/usr/bin/chromedriver`` (Debian's ``chromium``
and ``chromium-driver``); Selenium Manager is told to stay offline and is never asked for a
driver, so nothing is downloaded. Without chromium the tests are skipped, unless ``CI`` is
set: then its absence fails them (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WINDOW = (1200, 900)
#: Chromium's own traffic (updates, sync, metrics) off: the page's requests are what we see.
CHROMIUM_FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-extensions",
    "--disable-default-apps", "--lang=en-US",
)


def _require_chromium() -> None:
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if not missing:
        return
    reason = (f"{', '.join(missing)} missing: apt-get install chromium chromium-driver "
              "(.ci/run does)")
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def web_url(redis_server: EmbeddedRedis) -> Iterator[str]:
    """The app on a free loopback port (werkzeug in a thread, rate limits off) on the session's
    Redis, emptied first."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    client.close()
    with LocalServer(redis_server.url) as server:
        yield server.url


Browser = Callable[..., webdriver.Chrome]


@pytest.fixture
def browser() -> Iterator[Browser]:
    """A factory of headless chromium sessions, each with its own profile (so its own
    localStorage), with the console and network logged; all are quit afterwards."""
    _require_chromium()
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager: never download
    drivers: list[webdriver.Chrome] = []

    def start(width: int = WINDOW[0], height: int = WINDOW[1]) -> webdriver.Chrome:
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--window-size={width},{height}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)),
                                  options=options)
        driver.set_script_timeout(40)
        drivers.append(driver)
        return driver

    try:
        yield start
    finally:
        for driver in drivers:
            driver.quit()
