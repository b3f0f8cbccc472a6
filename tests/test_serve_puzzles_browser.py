"""The puzzle page (/puzzles) in headless Chromium at phone size (390×844):
a chapter opened from the list, a wrong move shown with its refutation, then
the puzzle played through by clicking cards, with the stars it earns and
nothing scrolling sideways. The server's pack is made small (3 puzzles)."""

from __future__ import annotations

import pytest
from browser_helpers import headless_chromium, skip_without_chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from serve_helpers import Server

import ddz
from ddz.serve.puzzle_mode import Position, make_pack

RULES = ddz.Rules("classic")

skip_without_chromium()

SMALL_PACK = "import ddz.serve.puzzle_mode as m\nm.PACK_SIZE = 3"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("puzzles") / "p.sqlite3", prelude=SMALL_PACK)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    driver = headless_chromium()
    # A phone's viewport (a headless window is never narrower than 500 px).
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False},
    )
    yield driver
    driver.quit()


def losing_first_move(hands: list[str]) -> str:
    for m in RULES.moves(hands[0]):
        cards = str(m.cards)
        left = hands[0]
        for c in cards:
            left = left.replace(c, "", 1)
        if left and RULES.solve([left, hands[1]], to_move=1, prev=cards, prev_by=0).win:
            return cards
    raise AssertionError("a puzzle has a losing first move")


PRESSED = """return [...document.querySelectorAll('#hand .card[aria-pressed="true"]')]
  .map((c) => c.dataset.card).sort().join('')"""
FREE = """return [...document.querySelectorAll('#hand .card')].findIndex(
  (c) => c.dataset.card === arguments[0] && c.getAttribute('aria-pressed') === 'false')"""


def click_play(browser, cards: str) -> None:
    """Select `cards` in the hand by clicking them, then press Play. (Each
    click redraws the hand, so each card is looked up afresh.)"""
    for n, rank in enumerate(cards, 1):
        i = browser.execute_script(FREE, rank)
        browser.find_elements(By.CSS_SELECTOR, "#hand .card")[i].click()
        want = "".join(sorted(cards[:n]))
        WebDriverWait(browser, 5).until(lambda b, w=want: b.execute_script(PRESSED) == w)
    browser.find_element(By.ID, "play").click()


def test_a_puzzle_played_through_by_clicking(server, browser):
    pack = make_pack(3)
    p = pack[0]
    browser.get(f"{server.base}/puzzles")
    wait = WebDriverWait(browser, 20)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, '[data-testid="chapter"]'))
    browser.find_elements(By.CSS_SELECTOR, '[data-testid="chapter"]')[0].click()
    wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#hand .card")) == len(p["hands"][0]))
    status = browser.find_element(By.ID, "puzzle-status")
    # A wrong first move: refuted, the hands as they were.
    click_play(browser, losing_first_move(p["hands"]))
    wait.until(lambda b: "wrong" in status.get_attribute("class"))
    assert browser.find_element(By.ID, "refutation-box").is_displayed()
    assert browser.find_elements(By.CSS_SELECTOR, "#refutation li")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#hand .card")) == len(p["hands"][0])
    # The main line, clicked through: the defence answers each move.
    page = browser.find_element(By.ID, "puzzle-page")
    for i, (seat, action) in enumerate(p["line"]):
        if seat != 0:
            continue
        if action == "pass":
            browser.find_element(By.ID, "pass").click()
        else:
            click_play(browser, action)
        done = str(min(i + 2, len(p["line"])))  # the move and the defence's answer
        wait.until(lambda b, d=done: page.get_attribute("data-moves") == d)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#hand .card")) == len(
            Position(p, p["line"][: int(done)]).hands[0]
        )
    wait.until(lambda b: "2" in b.find_element(By.ID, "stars").text)
    assert browser.find_element(By.ID, "stars").text == "2 of 3 stars"
    width = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width  # nothing scrolls sideways at 390 px
    # Back at the list, the chapter shows its stars.
    browser.get(f"{server.base}/puzzles")
    wait.until(lambda b: "★★☆" in b.find_element(By.ID, "chapters").text)
