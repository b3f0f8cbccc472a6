"""The browser table in a real headless Chromium (Debian's chromium and
chromium-driver, driven by selenium), for every preset: a whole deal made in
the lobby and played by clicking, the layout at 1366×768 and at 390×844
(no two of hand, trick, buttons and seats overlap, all inside the screen),
no text that looks like JSON, no console error or missing word, nothing
fetched from another host; then replays, invitations, the lobby, 中文.

One browser session serves every test, and the bots play most turns, so
the whole file stays near two minutes on a two-core machine.

``DDZ_SCREENSHOTS=docs/screenshots python -m pytest tests/test_serve_browser.py``
also writes each preset's table at both sizes there (docs/server.md shows them).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from browser_helpers import headless_chromium, skip_without_chromium
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait
from serve_helpers import Server, bearer

import ddz
from ddz.agents import RandomAgent

DEAL_SECONDS = 90
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
#: More screens one test visits (check_both_sizes keeps to SIZES): a small laptop.
SCREENS = {**SIZES, "laptop": (1280, 720)}
SHOTS = os.environ.get("DDZ_SCREENSHOTS")
#: Text a person should never read: JSON punctuation, raw field names, a missing word.
JSONISH = re.compile(r'[{}\[\]"]|\b[a-z]+_[a-z_]+\b|\b(?:true|false|null|undefined|NaN)\b|\?')

skip_without_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("browser") / "browser.sqlite3")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    driver = headless_chromium("--window-size=1366,768", "--lang=en-US", console_log=True)
    driver.set_script_timeout(15)
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, server):
    """The browser at the lobby in English, on a desktop screen; afterwards
    nothing in the console but what the page may say, and no other host."""
    viewport(browser, "desktop")
    browser.get(server.base + "/")
    browser.execute_script("localStorage.clear(); localStorage.setItem('ddz-lang', 'en');")
    browser.get(server.base + "/")
    browser.get_log("browser")  # start clean
    yield browser
    logs = browser.get_log("browser")
    bad = [e for e in logs if e["level"] == "SEVERE" or "ddz:" in e["message"]]
    assert not bad, json.dumps(bad, indent=1)
    assert hosts_loaded(browser) <= {f"127.0.0.1:{server.port}"}


# ---- helpers -------------------------------------------------------------------------
def viewport(driver, size: str) -> None:
    width, height = SCREENS[size]
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    WebDriverWait(driver, 5).until(
        lambda d: d.execute_script("return [innerWidth, innerHeight]") == [width, height]
    )
    # The page lays the hand and seats out again from its resize handler:
    # let two frames pass so a busy machine has run it before a check.
    driver.execute_async_script(
        "const done = arguments[0];"
        "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));"
    )


def live_view(driver) -> dict:
    return driver.execute_script("return window.ddz.live.view;") or {}


def hosts_loaded(driver) -> set[str]:
    urls = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).concat([location.href]);"
    )
    return {urlparse(u).netloc for u in urls if not u.startswith(("data:", "blob:"))}


def wait_for(driver, test, seconds: float = 10):
    return WebDriverWait(driver, seconds, poll_frequency=0.02).until(test)


def by_testid(driver, name: str):
    return driver.find_element(By.CSS_SELECTOR, f"[data-testid='{name}']")


def sit(driver, server: Server, table: str, token: str) -> None:
    """Open a table made through the API at seat 0, as if this browser made it."""
    driver.execute_script(
        "localStorage.setItem('ddz-seats',"
        " JSON.stringify({[arguments[0]]: {seat: 0, token: arguments[1], others: {}}}));",
        table,
        token,
    )
    driver.get(f"{server.base}/t/{table}")


def new_table(
    driver, preset: str, seed: int, people: int = 1, bots: str = "greedy", clock: str = "0"
) -> str:
    """Make a table in the lobby's form, as a person would, with the bots
    answering at once and (unless asked) no turn clock; returns its id."""
    wait_for(
        driver,
        lambda d: d.find_elements(
            By.CSS_SELECTOR, f"[data-testid=preset] option[value='{preset}']"
        ),
    )
    Select(by_testid(driver, "preset")).select_by_value(preset)
    Select(by_testid(driver, "bots")).select_by_value(bots)
    Select(driver.find_element(By.ID, "people")).select_by_value(str(people))
    Select(by_testid(driver, "pace")).select_by_value("0")
    Select(by_testid(driver, "clock-seconds")).select_by_value(clock)
    seed_box = driver.find_element(By.ID, "seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    by_testid(driver, "new-table").click()
    wait_for(driver, lambda d: live_view(d).get("observation"))
    return live_view(driver)["table"]


LAYOUT = """
const boxes = [];
// What shows of an element: inside the felt, only the part within the felt's
// box (the felt scrolls, up and down only, when six open hands do not fit).
const felt = document.getElementById('felt').getBoundingClientRect();
const add = (name, el) => {
  if (!el) return;
  let r = el.getBoundingClientRect();
  if (el.closest('#felt')) r = {left: Math.max(r.left, felt.left), top: Math.max(r.top, felt.top),
    right: Math.min(r.right, felt.right), bottom: Math.min(r.bottom, felt.bottom)};
  if (r.right - r.left > 0 && r.bottom - r.top > 0) {
    boxes.push([name, r.left, r.top, r.right, r.bottom]);
  }
};
add('hand', document.querySelector('[data-testid=hand]'));
add('trick', document.querySelector('[data-testid=trick]'));
add('result', document.querySelector('[data-testid=result]'));
document.querySelectorAll('#controls button, #controls a, #controls input').forEach(
  (b) => add('button ' + (b.dataset.action || b.id), b));
document.querySelectorAll('[data-testid^=seat-]').forEach((s) => add(s.dataset.testid, s));
const root = document.documentElement;
return {boxes, scroll: [root.scrollWidth, root.scrollHeight], screen: [innerWidth, innerHeight]};
"""


def check_layout(driver, where: str) -> None:
    """No two of hand, trick, buttons, seats (and the result) overlap as far
    as they show; each lies inside the screen, and the page does not scroll."""
    got = driver.execute_script(LAYOUT)
    width, height = got["screen"]
    assert got["scroll"][0] <= width and got["scroll"][1] <= height, (where, got["scroll"])
    boxes = got["boxes"]
    assert any(b[0] == "hand" for b in boxes) or where.startswith("spectator"), (where, boxes)
    for name, left, top, right, bottom in boxes:
        assert left >= -0.5 and top >= -0.5, (where, name, left, top)
        assert right <= width + 0.5 and bottom <= height + 0.5, (where, name, right, bottom)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_w = min(a[3], b[3]) - max(a[1], b[1])
            overlap_h = min(a[4], b[4]) - max(a[2], b[2])
            inside = overlap_w > 0.5 and overlap_h > 0.5
            assert not inside, f"{where}: {a[0]} overlaps {b[0]}: {a} {b}"


def check_words(driver, where: str) -> None:
    text = driver.find_element(By.TAG_NAME, "body").text
    found = JSONISH.search(text)
    assert found is None, f"{where}: {found.group(0)!r} in the page's text:\n{text}"


def check_both_sizes(driver, where: str, shot: str | None = None) -> None:
    for size in SIZES:
        viewport(driver, size)
        if SHOTS and shot:
            save_shot(driver, f"{shot}-{size}")
        check_layout(driver, f"{where} at {size}")
        check_words(driver, f"{where} at {size}")
    viewport(driver, "desktop")


def save_shot(driver, name: str) -> None:
    out = Path(SHOTS) / f"{name}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(out))
    # A palette of colours makes the PNG a quarter of the size (Debian's pngquant).
    if shutil.which("pngquant"):
        subprocess.run(
            ["pngquant", "--quality", "50-80", "--force", "--output", str(out), str(out)],
            check=False,
        )


def count_cards(text: str) -> int:
    return sum(c not in "dchs" for c in text)


#: Every card text a hand can show: suited ranks, the jokers X and D, laizi L.
DECK = {r + s for r in "3456789TJQKA2" for s in "dchs"} | {"X", "D", "L"}


HAND_CARDS = (
    "return [...document.querySelectorAll('[data-testid=hand] .card')].map((c) => c.dataset.card);"
)


def cards_to_pick(driver, play: str) -> list[int]:
    """The hand's indices of a play's cards, lowest suits first (the hand's order)."""
    cards = driver.execute_script(HAND_CARDS)
    want: list[int] = []
    for rank in [c for c in play.split("=")[0] if c not in "dchs"]:
        found = next((i for i, c in enumerate(cards) if c[0] == rank and i not in want), None)
        assert found is not None, f"no {rank} left to select for {play} in {cards}"
        want.append(found)
    return sorted(want)


def selected(driver) -> list[int]:
    return driver.execute_script(
        "return [...document.querySelectorAll('[data-testid=hand] .card.selected')]"
        ".map((c) => Number(c.dataset.index));"
    )


def click_cards(driver, play: str) -> None:
    """Select a play's cards in the hand by clicking them."""
    want = cards_to_pick(driver, play)
    for i in want:
        driver.find_element(By.CSS_SELECTOR, f"[data-testid=hand] .card[data-index='{i}']").click()
    assert selected(driver) == want


def key_cards(driver, play: str) -> None:
    """The same with the keyboard: arrows to each card, Space to select it."""
    want = cards_to_pick(driver, play)
    first = driver.find_element(By.CSS_SELECTOR, "[data-testid=hand] .card[tabindex='0']")
    at = int(first.get_attribute("data-index"))
    driver.execute_script("arguments[0].focus();", first)
    for i in want:
        key = Keys.ARROW_RIGHT if i > at else Keys.ARROW_LEFT
        for _ in range(abs(i - at)):
            driver.switch_to.active_element.send_keys(key)
        at = i
        driver.switch_to.active_element.send_keys(Keys.SPACE)
    assert selected(driver) == want


BRIEF = """const v = window.ddz.live.view;
if (!v) return null;
const o = v.observation;
return {version: v.version, phase: o.phase, legal: o.legal_actions || null,
        message: (m => m.hidden ? '' : m.textContent)(document.getElementById('message'))};"""
#: Waits in the page (one command, not a poll from here) for a view newer than arguments[0].
NEWER = (
    "const [before, done] = arguments; const t0 = Date.now();"
    "(function wait() { const v = window.ddz.live.view;"
    " if ((v && v.version > before) || Date.now() - t0 > 10000) done(null);"
    " else setTimeout(wait, 10); })();"
)


def take_turn(driver, legal: list[str], phase: str, turn: int, keyboard: bool) -> None:
    """One turn by clicking: a decision's button, else cards and Play (or Pass)."""
    if phase != "play":
        shown = driver.execute_script(
            "return [...document.querySelectorAll('#decisions [data-action]')]"
            ".map((b) => [b.dataset.action, b.textContent]);"
        )
        assert sorted(a for a, _ in shown) == sorted(legal)
        assert all(
            text and text != action for action, text in shown if ":" in action or "-" in action
        ), shown
        choice = "bid:3" if "bid:3" in legal else "call" if "call" in legal else legal[0]
        driver.find_element(By.CSS_SELECTOR, f"#decisions [data-action='{choice}']").click()
        return
    plays = [a for a in legal if a != "pass"]
    if not plays:
        driver.find_element(By.CSS_SELECTOR, "#decisions [data-action='pass']").click()
        return
    if turn % 2 == 0:  # the hint selects the engine's first advice
        by_testid(driver, "hint").click()
        wait_for(driver, lambda d: selected(d))
    else:  # the play with the most cards, to end the deal sooner
        biggest = max(plays, key=lambda a: count_cards(a.split("=")[0]))
        (key_cards if keyboard else click_cards)(driver, biggest)
    by_testid(driver, "play").click()
    choices = driver.find_elements(By.CSS_SELECTOR, "#choices .choice")
    if choices:  # one set of cards, several readings: pick one
        choices[0].click()


def play_deal(driver, preset: str, keyboard: bool = False) -> dict:
    """Play this seat's turns by clicking until the deal is over; checks the
    layout at both sizes at the first play of a card."""
    deadline = time.monotonic() + DEAL_SECONDS
    turn = 0
    checked = False
    while True:
        assert time.monotonic() < deadline, "the deal did not end in time"
        brief = driver.execute_script(BRIEF)
        assert not brief["message"], brief["message"]
        if brief["phase"] == "over":
            return live_view(driver)
        if brief["legal"] is None:  # someone else is to act: wait for a push
            driver.execute_async_script(NEWER, brief["version"])
            continue
        if brief["phase"] == "play" and not checked:
            check_both_sizes(driver, f"{preset} in play", shot=preset)
            checked = True
        take_turn(driver, brief["legal"], brief["phase"], turn, keyboard)
        turn += 1
        driver.execute_async_script(NEWER, brief["version"])


# ---- every preset ------------------------------------------------------------------------
FINISHED: dict[str, tuple[str, int]] = {}


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_a_whole_deal_played_by_clicking(page, server: Server, preset: str) -> None:
    table = new_table(page, preset, seed=5)
    players = ddz.Rules(preset).players
    seats = page.find_elements(By.CSS_SELECTOR, "[data-testid^=seat-]")
    assert sorted(s.get_attribute("data-testid") for s in seats) == [
        f"seat-{s}" for s in range(players)
    ]
    hand = page.find_elements(By.CSS_SELECTOR, "[data-testid=hand] [data-card]")
    assert len(hand) == count_cards(live_view(page)["observation"]["hand"]) > 0
    assert {c.get_attribute("data-card") for c in hand} <= DECK
    view = play_deal(page, preset, keyboard=preset == "laizi")
    obs = view["observation"]
    result = obs["result"]
    # The end: the result, every seat's cards face up, the kitty face up, nothing stale.
    wait_for(page, lambda d: by_testid(d, "result").is_displayed())
    outcome = page.find_element(By.ID, "outcome").text
    assert outcome == ("You win" if 0 in result["winners"] else "You lose")
    scores = by_testid(page, "result").text
    for score, total in zip(result["scores"], view["scores"]):
        assert (f"+{score}" if score > 0 else str(score)) in scores
        assert (f"+{total}" if total > 0 else str(total)) in scores
    assert by_testid(page, "multiplier").text == f"×{result['multiplier']}"
    assert not by_testid(page, "trick").is_displayed()  # no stale play to beat
    wait_for(
        page,
        lambda d: d.execute_script(
            "return Boolean(window.ddz.live.finalHands && window.ddz.live.finalHands.hands)"
        ),
    )
    for s in range(1, players):
        shown = page.find_elements(By.CSS_SELECTOR, f"[data-testid=seat-{s}] .left [data-card]")
        assert len(shown) == obs["hand_sizes"][s], (s, len(shown), obs["hand_sizes"])
    kitty = ddz.Rules(preset).kitty
    if kitty:
        assert len(by_testid(page, "kitty").find_elements(By.CSS_SELECTOR, "[data-card]")) == kitty
    assert by_testid(page, "next-deal").is_displayed()
    replay = by_testid(page, "replay")
    assert replay.get_attribute("href").endswith(f"/replay/{table}/0")
    check_both_sizes(page, f"{preset} over", shot=f"{preset}-over" if preset == "classic" else None)
    record = server.http.get(f"/tables/{table}/record").json()
    assert len(record["actions"]) == len(
        [e for e in ddz.Game.from_json(json.dumps(record)).actions]
    )
    FINISHED[preset] = (table, players)
    if preset == "classic":  # the next deal starts clean
        by_testid(page, "next-deal").click()
        wait_for(page, lambda d: live_view(d)["deal"] == 1)
        assert not by_testid(page, "result").is_displayed()
        assert by_testid(page, "kitty").find_elements(By.CSS_SELECTOR, ".back")
        assert page.find_elements(By.CSS_SELECTOR, "[data-testid=seat-1] .left .back")


def test_history_is_oldest_first_in_words(page, server: Server) -> None:
    table, tokens = server.create("classic", seed=11, bots={"1": "greedy", "2": "greedy"})
    sit(page, server, table, tokens["0"])
    wait_for(page, lambda d: live_view(d).get("observation"))
    page.find_element(By.ID, "show-history").click()
    history = live_view(page)["observation"]["history"]
    items = by_testid(page, "history").find_elements(By.TAG_NAME, "li")
    assert len(items) == len(history) > 0
    assert items[0].text.startswith(f"Seat {history[0][0] + 1}")
    check_words(page, "history")
    page.find_element(By.ID, "close-drawer").click()


def test_the_other_seats_plays_show_their_suits(page, server: Server) -> None:
    """The views carry each play's physical cards: the history drawer draws
    every play, the bots' included, with exactly those cards."""
    table, tokens = server.create("classic", seed=7, bots={"1": "greedy", "2": "greedy"})
    for k in range(12):  # pass the auction, then lead the lowest, until the bots have played
        o = server.view(table, tokens["0"])["observation"]
        if o["phase"] == "over" or sum(len(e) == 3 and e[0] != 0 for e in o["history"]) >= 4:
            break
        legal = o["legal_actions"]
        action = "pass" if o["phase"] == "bid" and "pass" in legal else legal[0]
        assert server.act(table, tokens["0"], action, f"s{k}").status_code == 200
    sit(page, server, table, tokens["0"])
    wait_for(page, lambda d: live_view(d).get("observation"))
    page.find_element(By.ID, "show-history").click()
    history = live_view(page)["observation"]["history"]
    assert sum(len(e) == 3 and e[0] != 0 for e in history) >= 4
    items = by_testid(page, "history").find_elements(By.TAG_NAME, "li")
    assert len(items) == len(history)
    for entry, item in zip(history, items):
        drawn = [
            c.get_attribute("data-card") for c in item.find_elements(By.CSS_SELECTOR, "[data-card]")
        ]
        if len(entry) == 3:
            want = re.findall(r"[3-9TJQKA2][dchs]|[XDL]", entry[2])
            assert sorted(drawn) == sorted(want), (entry, drawn)
    page.find_element(By.ID, "close-drawer").click()


# ---- replays -----------------------------------------------------------------------------------
def test_replay_steps_through_a_finished_deal(page, server: Server) -> None:
    table, players = FINISHED.get("six-player-2v4") or pytest.skip("needs the deal played above")
    page.get(f"{server.base}/replay/{table}/0")
    slider = wait_for(page, lambda d: d.find_element(By.CSS_SELECTOR, "input[type=range]"))
    wait_for(page, lambda d: int(slider.get_attribute("max")) > 0)
    frames = page.execute_script("return window.ddz.rep.data.frames;")
    assert int(slider.get_attribute("max")) == len(frames) - 1
    # Every hand open from the start: the bottom seat's in the hand, the others' at their seats.
    assert len(by_testid(page, "hand").find_elements(By.CSS_SELECTOR, "[data-card]")) == 34
    for s in range(1, players):
        assert (
            len(page.find_elements(By.CSS_SELECTOR, f"[data-testid=seat-{s}] .left [data-card]"))
            == 34
        )
    page.find_element(By.ID, "last").click()
    wait_for(page, lambda d: by_testid(d, "result").is_displayed())
    page.find_element(By.ID, "back").click()
    assert page.find_element(By.ID, "step").text == f"Step {len(frames) - 2} of {len(frames) - 1}"
    assert not by_testid(page, "result").is_displayed()
    page.execute_script(
        "const s = arguments[0]; s.value = 3; s.dispatchEvent(new Event('input'));", slider
    )
    assert page.find_element(By.ID, "step").text == f"Step 3 of {len(frames) - 1}"
    for s in range(1, players):
        shown = page.find_elements(By.CSS_SELECTOR, f"[data-testid=seat-{s}] .left [data-card]")
        assert len(shown) == count_cards(frames[3]["hands"][s])
    check_both_sizes(page, "replay", shot="replay")


def test_the_replay_draws_the_servers_analysis(page, server: Server) -> None:
    table, tokens = server.create("classic", seed=3, bots={"1": "greedy", "2": "greedy"})
    for k in range(400):  # seat 0 plays its first legal action, passing in the auction
        o = server.view(table, tokens["0"])["observation"]
        if o["phase"] == "over":
            break
        legal = o["legal_actions"]
        if not legal:
            time.sleep(0.02)  # the bots' turn
            continue
        action = "pass" if o["phase"] == "bid" and "pass" in legal else legal[0]
        assert server.act(table, tokens["0"], action, f"a{k}").status_code == 200
    assert o["phase"] == "over"
    page.get(f"{server.base}/replay/{table}/0")
    button = wait_for(page, lambda d: by_testid(d, "analysis"))
    wait_for(page, lambda d: button.is_displayed())
    button.click()
    graph = by_testid(page, "winrate-graph")
    dots = wait_for(page, lambda d: graph.find_elements(By.TAG_NAME, "circle"), seconds=60)
    analysis = server.http.post(f"/replay/{table}/0/analysis").json()  # kept: no second build
    assert len(dots) == len(analysis["decisions"]) > 0
    assert [int(d.get_attribute("data-decision")) for d in dots] == [
        d["number"] for d in analysis["decisions"]
    ]
    # one line per side: the deal's winners and losers, each through its seats' decisions
    winners = server.http.get(f"/tables/{table}/replay?deal=0").json()["result"]["winners"]
    lines = {
        line.get_attribute("data-side"): len(line.get_attribute("points").split())
        for line in graph.find_elements(By.TAG_NAME, "polyline")
    }
    won = sum(d["seat"] in winners for d in analysis["decisions"])
    assert lines == {"won": won, "lost": len(analysis["decisions"]) - won}
    marked = [d for d in analysis["decisions"] if d["judgement"] in ("mistake", "blunder")]
    marks = page.find_elements(By.CSS_SELECTOR, "[data-testid=analysis-mark]")
    assert len(marks) == len(marked)
    if marked:
        marks[0].click()
        d = marked[0]
        note = by_testid(page, "analysis-note").text
        assert "played" in note and f"({d['wp']:.2f})" in note and f"({d['best_wp']:.2f})" in note
        assert page.find_element(By.ID, "step").text.startswith(f"Step {d['number'] + 1} ")
    check_both_sizes(page, "analysis", shot="analysis")


def test_a_record_dropped_on_the_page_replays(page, server: Server) -> None:
    game = ddz.play("laizi", [RandomAgent(s) for s in range(3)], seed=2)
    page.execute_script(
        """const file = new File([arguments[0]], 'deal.json', {type: 'application/json'});
        const data = new DataTransfer(); data.items.add(file);
        document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true}));""",
        game.to_json(),
    )
    wait_for(
        page,
        lambda d: (
            d.execute_script("return window.ddz.rep.data && window.ddz.rep.data.preset") == "laizi"
        ),
    )
    page.find_element(By.ID, "last").click()
    assert by_testid(page, "result").is_displayed()
    assert by_testid(page, "multiplier").text == f"×{game.result['multiplier']}"
    # a file that is no record says so, in words
    page.execute_script(
        """const file = new File(['{"format": 1}'], 'x.json');
        const data = new DataTransfer(); data.items.add(file);
        document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true}));"""
    )
    message = wait_for(
        page,
        lambda d: (
            d.find_element(By.ID, "message").is_displayed() and d.find_element(By.ID, "message")
        ),
    )
    assert "not a replayable record" in message.text
    page.get_log("browser")  # the refused upload's 422 is logged by Chromium itself


def test_ddz_replay_serves_a_record_file(page, server: Server, tmp_path: Path) -> None:
    from serve_helpers import free_port

    game = ddz.play("classic", [RandomAgent(s) for s in range(3)], seed=4)
    record = tmp_path / "deal.json"
    record.write_text(game.to_json())
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ddz", "replay", str(record), "--port", str(port), "--no-browser"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith(f"http://127.0.0.1:{port}/replay?local="), url
        page.get(url)
        wait_for(
            page,
            lambda d: (
                d.execute_script("return window.ddz.rep.data && window.ddz.rep.data.frames.length")
                == len(game.actions) + 1
            ),
        )
        page.get(server.base + "/")  # back to the test server, whose host the teardown checks
    finally:
        proc.terminate()
        proc.wait(10)


# ---- people ------------------------------------------------------------------------------
def test_invitation_lobby_and_spectators(page, server: Server) -> None:
    table = new_table(page, "classic", seed=9, people=2)
    page.find_element(By.ID, "show-invite").click()
    links = [
        i.get_attribute("value") for i in page.find_elements(By.CSS_SELECTOR, "#invites input")
    ]
    invite = next(u for u in links if "#token=" in u)
    spectate = next(u for u in links if "#" not in u)
    assert urlparse(invite).path == f"/t/{table}" and urlparse(spectate).path == f"/t/{table}"
    # Offer the invited seat in the lobby, then take it from there as someone else.
    page.find_element(By.CSS_SELECTOR, "#invites button.offer").click()
    wait_for(
        page,
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "#invites button.offer").get_attribute("data-offered")
            == "yes"
        ),
    )
    page.execute_script("localStorage.removeItem('ddz-seats');")
    page.get(server.base + "/")
    take = wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#open-tables button.take"))
    take[0].click()
    wait_for(page, lambda d: live_view(d).get("seat") == 1)
    assert page.find_element(By.CSS_SELECTOR, "[data-testid=seat-1] .name").text == "You"
    # Taking the seat gave it a new token: the invitation's link opens nothing now.
    page.execute_script("localStorage.removeItem('ddz-seats');")
    page.get(invite)
    message = wait_for(page, lambda d: d.find_element(By.ID, "message").text)
    assert "opens no seat" in message
    page.get_log("browser")  # that 403 is the point: no other error may follow
    # A spectator sees no hand and every seat's card count.
    page.execute_script("localStorage.removeItem('ddz-seats');")
    page.get(spectate)
    wait_for(page, lambda d: live_view(d).get("table") == table)
    view = live_view(page)
    assert view["seat"] is None and "hand" not in view["observation"]
    assert not by_testid(page, "hand").is_displayed()
    for s, size in enumerate(view["observation"]["hand_sizes"]):
        assert by_testid(page, f"seat-{s}").find_element(By.CSS_SELECTOR, ".count").text == str(
            size
        )
    check_both_sizes(page, "spectator")


# ---- words -------------------------------------------------------------------------------
def observed_words(seeds: int = 6) -> dict[str, set]:
    """Role keys per preset, event names, decisions per phase, phases and kinds
    that whole deals of every preset show."""
    found: dict[str, set] = {"event": set(), "phase": set(), "kind": set(), "decision": set()}
    for preset in ddz.PRESETS:
        keys: set[str] = set()
        for seed in range(seeds):
            rules = ddz.Rules(preset)
            game = ddz.Game(rules, seed=seed)
            agents = [RandomAgent(seed * 10 + s) for s in range(rules.players)]
            while True:
                for s in range(rules.players):
                    keys |= set(game.observation(s))
                found["phase"].add(game.phase)
                if game.phase == "over":
                    keys |= set(game.result)
                    found["event"] |= {name for name, _ in game.result["events"]}
                    break
                legal = game.legal_actions()
                for a in legal:
                    if isinstance(a, ddz.Move):
                        found["kind"].add(a.kind)
                    elif not str(a).startswith("bid:"):
                        found["decision"].add((game.phase, str(a)))
                game.step(agents[game.to_act].act(game.observation(game.to_act), legal))
        found[preset] = keys
    return found


def test_every_role_event_and_decision_has_words(page) -> None:
    seen = observed_words()
    got = page.execute_script(
        """const w = await import('/static/words.js');
        const roles = await import('/static/roles.js');
        const out = {};
        for (const [preset, keys] of Object.entries(arguments[0])) {
          w.declareRoles(preset, arguments[5][preset]);
          const shown = (k) => {
            const s = w.roleSchema(preset, k);
            if (!s || !s.label) return false;
            if (s.type === 'word' || s.type === 'sides') return Boolean(s.values);
            if (s.type === 'flag') return Boolean(s.yes || s.label);
            return true;
          };
          out[preset] = keys.filter((k) => !roles.COMMON_FIELDS.has(k) && !shown(k));
        }
        out.event = arguments[1].filter((e) => !w.known('event', e));
        out.phase = arguments[2].filter((p) => !w.known('phase', p));
        out.kind = arguments[3].filter((k) => !w.known('kind', k));
        out.decision = arguments[4].filter(
          ([p, a]) => !w.known('action', p + ':' + a) && !w.known('action', a));
        return out;""",
        {p: sorted(seen[p]) for p in ddz.PRESETS},
        sorted(seen["event"]),
        sorted(seen["phase"]),
        sorted(seen["kind"]),
        sorted(seen["decision"]),
        {p: ddz.Rules(p).roles() for p in ddz.PRESETS},
    )
    assert all(not v for v in got.values()), got
    # The page's schema is the engine's declaration with the page's
    # presentation over it.
    mark = page.execute_script(
        """const w = await import('/static/words.js');
        w.declareRoles('six-player-2v4', arguments[0]);
        return w.roleSchema('six-player-2v4', 'public_mark');""",
        ddz.Rules("six-player-2v4").roles(),
    )
    assert mark == {
        "type": "seat_card",
        "label": {"en": "Public mark", "zh": "明牌"},
        # the engine's description: the tooltip in English where the page has none of its own
        "doc": next(
            r["doc"] for r in ddz.Rules("six-player-2v4").roles() if r["key"] == "public_mark"
        ),
    }


def test_every_word_in_both_languages(page) -> None:
    missing = page.execute_script(
        """const w = await import('/static/words.js');
        const bad = [];
        const text = (x) => typeof x === 'string' && x.length > 0;
        const pair = (where, v) => { if (!v || !text(v.en) || !text(v.zh)) bad.push(where); };
        for (const [k, v] of Object.entries(w.ALL_WORDS.ui)) pair('ui.' + k, v);
        for (const [g, group] of Object.entries(w.ALL_WORDS.groups)) {
          for (const [k, v] of Object.entries(group)) pair(g + '.' + k, v);
        }
        const special = Object.values(w.ROLES_BY_PRESET).flatMap(Object.entries);
        for (const [k, s] of [...Object.entries(w.ROLES), ...special]) {
          if (s.type === 'alias') continue;
          if (s.label) pair('role.' + k, s.label);
          for (const extra of ['others', 'yes', 'no']) {
            if (s[extra]) pair(`role.${k}.${extra}`, s[extra]);
          }
          for (const [v, words] of Object.entries(s.values || {})) pair(`role.${k}.${v}`, words);
        }
        return bad;"""
    )
    assert missing == []


WORDS_OUTSIDE_CARDS = """
const out = [];
const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walk.nextNode(); n; n = walk.nextNode()) {
  const parent = n.parentElement;
  if (parent.closest('.card, script, [hidden]') || !parent.getClientRects().length) continue;
  out.push(n.textContent);
}
return out.join(' ');"""


def test_the_page_in_chinese(page, server: Server) -> None:
    page.execute_script("localStorage.removeItem('ddz-lang');")
    page.find_element(By.ID, "lang").click()  # English -> 中文
    wait_for(page, lambda d: by_testid(d, "new-table").text == "开新桌")
    assert page.execute_script("return document.documentElement.lang") == "zh-CN"
    new_table(page, "six-player-teams", seed=3)
    wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=seat-0] .name"))
    # The words outside the cards (whose ranks are letters); "ddz" is the
    # name; the language button names the other language.
    text = page.execute_script(WORDS_OUTSIDE_CARDS)
    english = [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ("ddz", "English")]
    assert not english, english
    check_both_sizes(page, "中文", shot="six-player-teams-zh")
    page.find_element(By.ID, "lang").click()
    wait_for(
        page, lambda d: d.find_element(By.CSS_SELECTOR, "[data-testid=seat-0] .name").text == "You"
    )


FELT_FITS = """
const felt = document.getElementById('felt');
const own = document.querySelector('#seat-bottom .seat').getBoundingClientRect();
return {scroll: felt.scrollHeight, client: felt.clientHeight,
        own: [own.left, own.top, own.right, own.bottom], screen: [innerWidth, innerHeight],
        parts: Object.fromEntries(
          ['counter', 'seats-top', 'seats-left', 'middle', 'seat-bottom', 'hand', 'controls', 'bar']
          .map((id) => [id, Math.round(document.getElementById(id).offsetHeight)])),
        played: [...document.querySelectorAll('#felt .seat .last')].filter(
          (l) => l.querySelector('.card')).length};
"""


def play_until_my_turn(driver, plays: int) -> None:
    """Take this seat's turns (bids, sides, plays) until it is to play for
    the plays-th time since the cards started, the others' plays on the felt."""
    deadline = time.monotonic() + DEAL_SECONDS
    turn = played = 0
    while True:
        assert time.monotonic() < deadline, "the play did not come round in time"
        brief = driver.execute_script(BRIEF)
        assert brief["phase"] != "over", "the deal ended first"
        if brief["legal"] is None:
            driver.execute_async_script(NEWER, brief["version"])
            continue
        if brief["phase"] == "play":
            played += 1
            if played == plays:
                return
        take_turn(driver, brief["legal"], brief["phase"], turn, keyboard=False)
        turn += 1
        driver.execute_async_script(NEWER, brief["version"])


@pytest.mark.parametrize("preset", ["classic", "four-player", "five-player", "six-player-teams"])
def test_every_seat_fits_a_laptop_screen_without_scrolling(
    page, server: Server, preset: str
) -> None:
    """3 to 6 seats in play, cards on the felt: at 1366×768, 1280×720 and on
    a phone, in both languages, the felt does not scroll and this seat's own box (name,
    roles, turn) is on screen, not below the fold."""
    new_table(page, preset, seed=3)
    play_until_my_turn(page, plays=2)
    for lang in ("en", "zh"):
        if lang == "zh":
            page.find_element(By.ID, "lang").click()
            wait_for(
                page, lambda d: d.execute_script("return document.documentElement.lang") == "zh-CN"
            )
        for size in ("desktop", "laptop", "phone"):
            viewport(page, size)
            # a pulse (scale 1.15) on a forced Pass would overlap its neighbour for a second
            page.execute_script("document.getAnimations().forEach((a) => a.finish());")
            got = page.execute_script(FELT_FITS)
            width, height = got["screen"]
            where = f"{preset}, {lang}, {width}×{height}"
            assert got["played"] >= 1, (where, "too few plays on the felt to judge", got)
            assert got["scroll"] <= got["client"] + 1, (where, "the felt scrolls", json.dumps(got))
            left, top, right, bottom = got["own"]
            assert left >= -0.5 and top >= -0.5, (where, "own seat off screen", got)
            on_screen = right <= width + 0.5 and bottom <= height + 0.5
            assert on_screen, (where, "own seat off screen", got)
            check_layout(page, where)
    page.find_element(By.ID, "lang").click()
    viewport(page, "desktop")


def test_a_chinese_browser_starts_in_chinese(page, server: Server) -> None:
    agent = page.execute_script("return navigator.userAgent")

    def languages(accept: str) -> None:
        page.execute_cdp_cmd(
            "Network.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": accept}
        )

    page.execute_script("localStorage.removeItem('ddz-lang');")
    languages("zh-CN,zh")
    try:
        page.get(server.base + "/")
        assert page.execute_script("return navigator.languages")[0] == "zh-CN"
        wait_for(page, lambda d: by_testid(d, "new-table").text == "开新桌")
    finally:
        languages("en-US,en")
        page.execute_script("localStorage.setItem('ddz-lang', 'en');")


def test_cards_are_drawn_not_lettered(page) -> None:
    """Tens as 10, both jokers (labelled) and the wild card drawn by the page;
    a played wild card shows the rank it stood for."""
    got = page.execute_script(
        """const c = await import('/static/cards.js');
        const face = (card) => { const e = c.cardFace(card); return [e.textContent, e.title,
          e.querySelectorAll('svg').length, e.className]; };
        const row = c.playRow('5678L=45678');
        const wild = row.querySelector('[data-card=L]');
        return {ten: face('Th'), small: face('X'), big: face('D'), laizi: face('L'),
                wild: [wild.textContent, wild.title], stands: c.playOf('522L=5222').stands};"""
    )
    assert got["ten"][0] == "10" and got["ten"][1] == "10 hearts" and got["ten"][2] == 2
    # A joker's corner says JOKER (its rank, read downwards), with a star below.
    assert got["small"][:3] == ["JOKER", "Small joker", 1] and "small" in got["small"][3]
    assert got["big"][:3] == ["JOKER", "Big joker", 1] and "big" in got["big"][3]
    assert got["laizi"][1] == "Wild card" and "wild" in got["laizi"][3]
    assert got["wild"] == ["4", "wild card as 4"]
    assert got["stands"] == ["2"]


def test_hint_steps_through_the_engines_advice(page, server: Server) -> None:
    table, tokens = server.create("classic", seed=3, bots={"1": "greedy", "2": "greedy"})
    legal = server.view(table, tokens["0"])["observation"]["legal_actions"]
    assert "bid:3" in legal
    server.act(table, tokens["0"], "bid:3", "b")  # the landlord: it leads, with many plays
    sit(page, server, table, tokens["0"])
    wait_for(page, lambda d: (live_view(d).get("observation") or {}).get("legal_actions"))
    advice = server.http.get(f"/tables/{table}/hints", headers=bearer(tokens["0"])).json()["hints"]
    assert len(advice) >= 2
    cards = page.execute_script(HAND_CARDS)
    for expected in advice[:2]:
        by_testid(page, "hint").click()
        wait_for(
            page,
            lambda d, e=expected: sorted(cards[i][0] for i in selected(d)) == sorted(e["cards"]),
        )
    assert by_testid(page, "play").is_enabled()


def test_docs_load_nothing_from_other_hosts(server: Server, browser) -> None:
    browser.get(server.base + "/docs")
    WebDriverWait(browser, 15).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")
    )
    paths = {e.text for e in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")}
    assert "/tables/{table_id}/actions" in {p.replace("\u200b", "") for p in paths}
    assert hosts_loaded(browser) == {f"127.0.0.1:{server.port}"}


# ---- the game room (issue 48): readable cards, feedback, input, clock, 托管, counter ------
#: Every drawn card's rank: inside its card (not clipped) and on top at nine
#: points of its box (not covered by a neighbouring card or anything else).
RANKS_SEEN = """
const bad = [];
let seen = 0;
for (const c of document.querySelectorAll('.card')) {
  const r = c.querySelector('.rank');
  const cr = c.getBoundingClientRect(), rr = r ? r.getBoundingClientRect() : null;
  if (!rr || cr.width === 0 || rr.width === 0 || c.closest('[hidden]')) continue;
  if (rr.bottom < 0 || rr.top > innerHeight || rr.right < 0 || rr.left > innerWidth) continue;
  seen++;
  const name = (c.closest('[id]') || {}).id + ':' + c.dataset.card + ':' + r.textContent;
  if (rr.left < cr.left - 0.5 || rr.right > cr.right + 0.5 || rr.top < cr.top - 0.5
      || rr.bottom > cr.bottom + 0.5) { bad.push(['clipped', name]); continue; }
  for (const fx of [0.1, 0.5, 0.9]) for (const fy of [0.15, 0.5, 0.85]) {
    const top = document.elementFromPoint(rr.left + rr.width * fx, rr.top + rr.height * fy);
    // (the history drawer lies over the table: what it hides is not a neighbour's doing)
    const under = top && top.closest('#drawer') && !c.closest('#drawer');
    if (top && !c.contains(top) && !top.closest('#message') && !under) {
      bad.push(['covered', name, top.className || top.tagName]);
      return {seen, bad};
    }
  }
}
return {seen, bad};
"""

#: Each hand card's visible part (to the next card on its row, to the row below): [w, h].
TAP_TARGETS = """
const cards = [...document.querySelectorAll('[data-testid=hand] .card')];
return cards.map((c) => {
  const r = c.getBoundingClientRect();
  const next = c.nextElementSibling, below = c.parentElement.nextElementSibling;
  const w = next ? next.getBoundingClientRect().left - r.left : r.width;
  const h = below ? below.getBoundingClientRect().top - r.top : r.height;
  return [w, h];
});
"""


def check_cards_readable(driver, where: str) -> None:
    """At both sizes: no sideways scroll, every drawn rank readable, every
    hand card a 44 px target."""
    for size in SIZES:
        viewport(driver, size)
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= SIZES[size][0], (where, size, width)
        got = driver.execute_script(RANKS_SEEN)
        assert got["seen"] > 0 and not got["bad"], (where, size, got)
        targets = driver.execute_script(TAP_TARGETS)
        assert all(w >= 44 and h >= 44 for w, h in targets), (where, size, targets)
    viewport(driver, "desktop")


#: A classic deal (seat 0 bids first) that scripts the checks below: seat 0
#: leads an unbeatable straight, 10-10-10-10, the rocket and JJJ+QQ (nobody
#: else holds a bomb or a trio above J), leaving 4 and 5; after its 4 the bots
#: play 5 and 6, so seat 0 cannot beat.
SCRIPTED = {
    "hands": [
        "TsThTdTcXD3s4s5s6s7s8s9sJsJhJdQs",
        "3h3d4d5d6h6d7h7d8hJcQdKsKhAsAh2s2h",
        "3c4c5c6c7c8d8c9h9d9cQcKdKcAdAc2d2c",
    ],
    "kitty": "Qh4h5h",
    "first": 0,
}


def hand_index(driver, cards: list[str]) -> list[int]:
    shown = driver.execute_script(HAND_CARDS)
    return [shown.index(c) for c in cards]


def drag(driver, first: int, last: int) -> None:
    card = "[data-testid=hand] .card[data-index='{}']"
    start = driver.find_element(By.CSS_SELECTOR, card.format(first))
    end = driver.find_element(By.CSS_SELECTOR, card.format(last))
    ActionChains(driver).click_and_hold(start).move_to_element(end).release().perform()


def play_selected(driver) -> None:
    before = live_view(driver)["version"]
    by_testid(driver, "play").click()
    driver.execute_async_script(NEWER, before)


def test_a_scripted_deal_reads_and_feels_like_a_game(page, server: Server) -> None:
    """Drag-select with a reason for a bad selection, the kitty's cards
    marked, banners on a bomb and a rocket, 报双 then 报单, 要不起 at once,
    and every rank readable at both sizes all along."""
    reply = server.http.post(
        "/tables",
        json={
            "preset": "classic",
            "bots": {"1": "greedy", "2": "greedy"},
            "deal": SCRIPTED,
            "bot_delay_ms": 0,
        },
    )
    assert reply.status_code == 201, reply.text
    table, token = reply.json()["id"], reply.json()["tokens"]["0"]
    sit(page, server, table, token)
    wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#decisions [data-action='bid:3']"))
    assert "Bid: 0" not in page.find_element(By.ID, "felt").text  # nobody has bid yet
    page.find_element(By.CSS_SELECTOR, "#decisions [data-action='bid:3']").click()
    wait_for(
        page,
        lambda d: (
            (live_view(d)["observation"].get("legal_actions") or [""])[0] != "pass"
            and live_view(d)["observation"]["phase"] == "play"
        ),
    )
    # The kitty's three cards are marked in the landlord's whole hand.
    marked = page.execute_script(
        "return [...document.querySelectorAll('[data-testid=hand] .from-kitty')]"
        ".map(c => c.dataset.card)"
    )
    assert sorted(marked) == ["4h", "5h", "Qh"]
    check_cards_readable(page, "a hand of 20")
    # A drag from 3 to 9 takes the 4 and 5 from the kitty too: no play, and the page says why.
    first, last = hand_index(page, ["3s", "9s"])
    drag(page, first, last)
    assert len(selected(page)) == last - first + 1 == 9
    assert "is no kind of play" in wait_for(page, lambda d: by_testid(d, "why").text)
    assert not by_testid(page, "play").is_enabled()
    for i in hand_index(page, ["4h", "5h"]):  # taps unselect them
        page.find_element(By.CSS_SELECTOR, f"[data-testid=hand] .card[data-index='{i}']").click()
    assert by_testid(page, "why").text == "" and by_testid(page, "play").is_enabled()
    play_selected(page)
    # 10-10-10-10: a bomb, its banner, and four readable "10"s on the table.
    ten_cards = hand_index(page, ["Td", "Ts"])
    drag(page, ten_cards[0], ten_cards[1])
    play_selected(page)
    banner = by_testid(page, "banner")
    # (read as text: the banner fades in, and selenium reads no text while it is transparent)
    assert banner.get_attribute("data-kind") == "bomb"
    assert banner.get_attribute("textContent") == "Bomb!" and banner.get_attribute("hidden") is None
    # The bots passed (at once): a new trick, and the tens are in the history.
    page.find_element(By.ID, "show-history").click()
    plays = by_testid(page, "history").find_elements(By.CSS_SELECTOR, "li")
    tens = [r.text for r in plays[-3].find_elements(By.CSS_SELECTOR, ".card .rank")]
    assert tens == ["10"] * 4
    # This seat's own play is drawn with the suits it played (the page kept them).
    suited = [
        c.get_attribute("data-card") for c in plays[-3].find_elements(By.CSS_SELECTOR, ".card")
    ]
    assert sorted(suited) == ["Tc", "Td", "Th", "Ts"]
    check_cards_readable(page, "a bomb of tens in the history")
    page.find_element(By.ID, "close-drawer").click()
    jokers = hand_index(page, ["X", "D"])
    drag(page, jokers[0], jokers[1])
    play_selected(page)
    assert by_testid(page, "banner").get_attribute("data-kind") == "rocket"
    jokers = page.find_elements(By.CSS_SELECTOR, "#history li:nth-last-child(3) .rank")
    assert [r.get_attribute("textContent") for r in jokers] == ["JOKER", "JOKER"]
    trio = hand_index(page, ["Jd", "Qs"])
    drag(page, trio[0], trio[1])
    play_selected(page)
    assert by_testid(page, "warn-0").text == "2 cards left!"
    click_cards(page, "4")
    play_selected(page)
    assert by_testid(page, "warn-0").text == "1 card left!"
    # The badge pulses, unless the system asks for less motion.
    motion = "return getComputedStyle(document.querySelector('[data-testid=warn-0]')).animationName"
    assert page.execute_script(motion) == "pulse"
    page.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]},
    )
    assert page.execute_script(motion) == "none"
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    # The bots played 5 and 6: nothing beats it, and the pass is offered at once.
    view = live_view(page)["observation"]
    assert view["legal_actions"] == ["pass"]
    forced = page.find_element(By.CSS_SELECTOR, "#decisions [data-action='pass']")
    assert forced.text == "Can't beat: pass"
    assert not by_testid(page, "play").is_displayed()
    # Last trick's labels are gone once a new trick starts: the bots' 5 and 6 stay
    # (this trick), nothing from the tricks before.
    # (drawn with the suit the bot played: the view's history carries its cards)
    last = page.find_elements(By.CSS_SELECTOR, "[data-testid=seat-1] .last [data-card]")
    bots_five = [e for e in view["history"] if e[0] == 1][-1]
    assert bots_five[1] == "5" and bots_five[2].startswith("5") and len(bots_five[2]) == 2
    assert [c.get_attribute("data-card") for c in last] == [bots_five[2]]
    check_cards_readable(page, "the end of a deal")
    # The check can fail: cards overlapping further hide their ranks.
    page.execute_script(
        "const s = document.createElement('style'); s.id = 'squeeze';"
        "s.textContent = '.cards { --ov: .9 !important; }'; document.head.append(s);"
    )
    page.find_element(By.ID, "show-history").click()
    page.find_element(By.ID, "close-drawer").click()
    viewport(page, "phone")
    assert page.execute_script(RANKS_SEEN)["bad"], "the rank check found nothing to fault"
    page.execute_script("document.getElementById('squeeze').remove();")
    viewport(page, "desktop")


def test_clock_autoplay_and_counter_in_both_languages(page, server: Server) -> None:
    """The server's clock, 托管 and counter fields, drawn at the seat and in
    the strip: the hooks, a switch both ways, the counter's toggle, 中文."""
    reply = server.http.post(
        "/tables",
        # seat 0 acts first; the bots' pace leaves time to switch 托管 off again
        json={
            "preset": "classic",
            "bots": {"1": "greedy", "2": "greedy"},
            "deal": SCRIPTED,
            "bot_delay_ms": 3000,
            "turn_seconds": 60,
            "card_counter": True,
        },
    )
    table, token = reply.json()["id"], reply.json()["tokens"]["0"]
    sit(page, server, table, token)
    wait_for(page, lambda d: live_view(d).get("observation", {}).get("legal_actions"))
    view = live_view(page)
    assert view["clock"]["seat"] == 0
    clock = by_testid(page, "clock")
    seat = clock.find_element(By.XPATH, "ancestor::section")
    assert seat.get_attribute("data-testid") == "seat-0"
    assert 0 < int(clock.text) <= 60
    # Bid 3: the landlord leads at once, and the table is being played.
    page.find_element(By.CSS_SELECTOR, "#decisions [data-action='bid:3']").click()
    wait_for(page, lambda d: live_view(d)["observation"]["phase"] == "play")
    view = live_view(page)
    # The counter strip: each rank's copies as the view counts them.
    strip = by_testid(page, "counter")
    cells = strip.find_elements(By.CSS_SELECTOR, ".cell")
    shown = {
        c.get_attribute("data-rank"): int(c.find_element(By.TAG_NAME, "span").text) for c in cells
    }
    assert shown == view["counter"]
    by_testid(page, "counter-toggle").click()
    assert not by_testid(page, "counter").is_displayed()
    by_testid(page, "counter-toggle").click()
    assert by_testid(page, "counter").is_displayed()
    # 托管 on: the server's list holds the seat, and the seat says so; off again.
    switch = by_testid(page, "autoplay")
    assert switch.get_attribute("aria-pressed") == "false"
    switch.click()
    wait_for(page, lambda d: 0 in (live_view(d).get("autoplay") or []))
    wait_for(page, lambda d: by_testid(d, "autoplay").get_attribute("aria-pressed") == "true")
    by_testid(page, "autoplay").click()
    wait_for(page, lambda d: live_view(d).get("autoplay") == [])
    # 中文: the same hooks in Chinese words.
    page.find_element(By.ID, "lang").click()
    assert "记牌器" in by_testid(page, "counter-toggle").text
    assert by_testid(page, "autoplay").text in ("托管", "取消托管")
    check_words(page, "the game room in Chinese")
    page.find_element(By.ID, "lang").click()
    # The lobby lists it as being played, and Watch opens the spectators' view
    # though this browser holds seat 0 there.
    page.get(server.base + "/")
    watch = wait_for(
        page,
        lambda d: d.find_elements(By.CSS_SELECTOR, f"#playing-tables a.watch[href^='/t/{table}']"),
    )[0]
    assert watch.get_attribute("href").endswith(f"/t/{table}?watch")
    watch.click()
    wait_for(page, lambda d: live_view(d).get("table") == table)
    assert live_view(page)["seat"] is None
    assert not page.find_elements(By.CSS_SELECTOR, "[data-testid=hand] .card")
