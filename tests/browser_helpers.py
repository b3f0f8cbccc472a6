"""Headless Chromium for the page tests: Debian's chromium driven through
its own chromedriver, named, so that selenium-manager never downloads a
browser. A plain module next to the tests, imported as ``browser_helpers``
(see ``serve_helpers.py``)."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def skip_without_chromium() -> None:
    """Skip the calling test module where Chromium is missing, except on CI,
    where a missing browser must fail (.ci/run installs it)."""
    if not os.path.exists(CHROMEDRIVER) and not os.environ.get("CI"):
        pytest.skip(
            "needs Debian's chromium and chromium-driver (.ci/run installs them)",
            allow_module_level=True,
        )


def headless_chromium(*arguments: str, console_log: bool = False):
    """A new headless Chromium session with `arguments` added (a window
    size, a language); `console_log` keeps the page's console for
    ``driver.get_log("browser")``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    for argument in arguments:
        options.add_argument(argument)
    if console_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    return driver
