"""The browser table at /, in a real headless Chromium (Debian's chromium
and chromium-driver, driven by selenium): a person's whole deal, made and
played by clicking, with nothing loaded from another host.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from urllib.parse import urlparse

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from serve_helpers import Server

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DEAL_SECONDS = 60

if not os.path.exists(CHROMEDRIVER) and not os.environ.get("CI"):
    pytest.skip(
        "needs Debian's chromium and chromium-driver (.ci/run installs them)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("browser") / "browser.sqlite3")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1200,900",
        "--disable-gpu",
    ):
        options.add_argument(arg)
    # The system chromedriver, named: selenium-manager must not download anything.
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def page_state(driver) -> dict:
    return driver.execute_script("return window.ddz.view;") or {}


def hosts_loaded(driver) -> set[str]:
    urls = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).concat([location.href]);"
    )
    return {urlparse(u).netloc for u in urls if not u.startswith("data:")}


@pytest.mark.parametrize(("preset", "seat"), [("classic", 1), ("laizi", 0)])
def test_a_whole_deal_played_by_clicking(server: Server, browser, preset: str, seat: int) -> None:
    browser.get(server.base + "/")
    browser.execute_script("localStorage.clear();")
    browser.get(server.base + "/")
    wait = WebDriverWait(browser, 10)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#preset option[value='{preset}']"))
    Select(browser.find_element(By.ID, "preset")).select_by_value(preset)
    Select(browser.find_element(By.ID, "seat")).select_by_value(str(seat))
    browser.find_element(By.ID, "seed").send_keys("5")
    browser.find_element(By.ID, "new").click()
    wait.until(lambda d: page_state(d).get("observation"))
    cards = browser.find_elements(By.CSS_SELECTOR, "#hand .card")
    assert cards and any(c.text[-1] in "♦♣♥♠" for c in cards)  # the hand with suits
    assert any("red" in c.get_attribute("class") for c in cards)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seats .seat")) == 3
    deadline = time.monotonic() + DEAL_SECONDS
    plays = 0
    while True:
        assert time.monotonic() < deadline, "the deal did not end in time"
        view = page_state(browser)
        obs = view["observation"]
        if obs["phase"] == "over":
            break
        if "legal_actions" not in obs:
            time.sleep(0.05)  # the bots are on it; the page waits for a push
            continue
        version = view["version"]
        legal = obs["legal_actions"]
        if obs["phase"] != "play":
            # bids and other decisions are buttons: bid the most, so the deal goes on
            buttons = browser.find_elements(By.CSS_SELECTOR, "#decisions .decision")
            assert sorted(b.get_attribute("data-action") for b in buttons) == sorted(legal)
            bids = [b for b in buttons if b.get_attribute("data-action").startswith("bid:")]
            (bids[-1] if bids else buttons[0]).click()
        else:
            play = next((a for a in legal if a != "pass"), None)
            if play is None:
                browser.find_element(By.CSS_SELECTOR, "#decisions [data-action='pass']").click()
            else:
                click_cards(browser, play.split("=")[0])
                browser.find_element(By.ID, "play").click()
                choices = browser.find_elements(By.CSS_SELECTOR, "#choices .choice")
                if choices:  # one set of cards, several readings: pick one
                    choices[0].click()
                plays += 1
        wait.until(lambda d, before=version: page_state(d)["version"] > before)
        assert browser.find_element(By.ID, "message").text == ""
    assert plays > 0
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed()
    assert browser.find_element(By.ID, "outcome").text in ("You win", "You lose")
    scores = browser.find_element(By.ID, "scores").text
    for score in view["observation"]["result"]["scores"]:
        assert str(score) in scores
    info = browser.find_element(By.ID, "info").text
    assert "multiplier" in info and "landlord" in info
    record = server.http.get(f"/tables/{view['table']}/record").json()
    assert len(record["actions"]) == view["version"]
    assert hosts_loaded(browser) == {f"127.0.0.1:{server.port}"}
    logs = browser.get_log("browser")
    assert not [e for e in logs if e["level"] == "SEVERE"], json.dumps(logs)


def click_cards(browser, play: str) -> None:
    """Select a play's cards in the hand by clicking them, as a person would."""
    wanted = [c for c in play if c not in "dchs"]
    taken: set[int] = set()
    for rank in wanted:
        for card in browser.find_elements(By.CSS_SELECTOR, "#hand .card"):
            index = int(card.get_attribute("data-index"))
            if index not in taken and card.get_attribute("data-card")[0] == rank:
                card.click()
                taken.add(index)
                break
        else:
            raise AssertionError(f"no {rank} left in the hand for {play}")


def test_docs_load_nothing_from_other_hosts(server: Server, browser) -> None:
    browser.get(server.base + "/docs")
    WebDriverWait(browser, 15).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")
    )
    paths = {e.text for e in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")}
    assert "/tables/{table_id}/actions" in {p.replace("\u200b", "") for p in paths}
    assert hosts_loaded(browser) == {f"127.0.0.1:{server.port}"}
